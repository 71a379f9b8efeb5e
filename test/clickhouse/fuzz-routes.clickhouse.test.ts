// The HTTP contract of test/fuzz-routes.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../fuzz-routes.test.js');
