// The HTTP contract of test/auth-http.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../auth-http.test.js');
