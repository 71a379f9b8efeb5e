// The SDK end-to-end scenarios of test/sdk/sdk-ops.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../sdk/sdk-ops.test.js');
