// The HTTP contract of test/costs-catalogue.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../costs-catalogue.test.js');
