// The HTTP contract of test/feedback-replace.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../feedback-replace.test.js');
