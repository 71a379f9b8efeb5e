// The HTTP contract of test/mixed-load.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../mixed-load.test.js');
