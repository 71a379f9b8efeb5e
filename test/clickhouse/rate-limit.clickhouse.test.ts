// The HTTP contract of test/rate-limit.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../rate-limit.test.js');
