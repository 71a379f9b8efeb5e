// The HTTP contract of test/request-bounds.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../request-bounds.test.js');
