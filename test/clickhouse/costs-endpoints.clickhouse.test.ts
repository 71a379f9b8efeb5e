// The HTTP contract of test/costs-endpoints.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../costs-endpoints.test.js');
