// The HTTP contract of test/open-mode.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../open-mode.test.js');
