// The HTTP contract of test/objects-create.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../objects-create.test.js');
