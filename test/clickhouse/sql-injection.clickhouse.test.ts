// The HTTP contract of test/sql-injection.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../sql-injection.test.js');
