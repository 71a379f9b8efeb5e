// The HTTP contract of test/objects-query.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../objects-query.test.js');
