// The SDK end-to-end scenarios of test/sdk/sdk-eval.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../sdk/sdk-eval.test.js');
