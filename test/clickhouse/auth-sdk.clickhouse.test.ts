// The HTTP contract of test/auth-sdk.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../auth-sdk.test.js');
