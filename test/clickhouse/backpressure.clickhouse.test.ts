// The HTTP contract of test/backpressure.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../backpressure.test.js');
