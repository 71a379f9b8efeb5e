// The HTTP contract of test/calls-id-keys.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../calls-id-keys.test.js');
