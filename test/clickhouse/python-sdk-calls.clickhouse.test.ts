// The HTTP contract of test/python-sdk-calls.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../python-sdk-calls.test.js');
