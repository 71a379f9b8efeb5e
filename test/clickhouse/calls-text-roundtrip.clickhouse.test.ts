// The HTTP contract of test/calls-text-roundtrip.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../calls-text-roundtrip.test.js');
