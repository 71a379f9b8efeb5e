// The HTTP contract of test/python-sdk-init.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../python-sdk-init.test.js');
