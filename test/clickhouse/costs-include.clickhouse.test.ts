// The HTTP contract of test/costs-include.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../costs-include.test.js');
