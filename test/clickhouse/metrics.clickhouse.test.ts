// The /metrics contract of test/metrics.test.ts, run on the ClickHouse engine (chdb in process):
// its commits are inserts, its size the parts of its database.
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../metrics.test.js');
