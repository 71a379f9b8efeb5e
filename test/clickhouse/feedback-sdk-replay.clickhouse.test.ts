// The HTTP contract of test/feedback-sdk-replay.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../feedback-sdk-replay.test.js');
