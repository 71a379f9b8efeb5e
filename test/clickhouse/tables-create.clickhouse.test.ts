// The HTTP contract of test/tables-create.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../tables-create.test.js');
