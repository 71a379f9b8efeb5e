// The SDK end-to-end scenarios of test/sdk/sdk-objects.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../sdk/sdk-objects.test.js');
