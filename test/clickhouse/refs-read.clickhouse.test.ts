// The HTTP contract of test/refs-read.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../refs-read.test.js');
