// The HTTP contract of test/sdk-captures-replay.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../sdk-captures-replay.test.js');
