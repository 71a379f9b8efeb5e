// The HTTP contract of test/calls-summary-types.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../calls-summary-types.test.js');
