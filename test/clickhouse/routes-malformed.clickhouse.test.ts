// The HTTP contract of test/routes-malformed.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../routes-malformed.test.js');
