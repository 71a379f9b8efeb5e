// The SDK end-to-end scenarios of test/sdk/readme-example.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../sdk/readme-example.test.js');
