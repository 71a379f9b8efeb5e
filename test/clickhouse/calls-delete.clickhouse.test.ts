// The HTTP contract of test/calls-delete.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../calls-delete.test.js');
