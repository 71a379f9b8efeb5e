// The HTTP contract of test/refs-tables.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../refs-tables.test.js');
