// The HTTP contract of test/python-sdk-objects.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../python-sdk-objects.test.js');
