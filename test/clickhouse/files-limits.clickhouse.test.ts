// The HTTP contract of test/files-limits.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../files-limits.test.js');
