// The HTTP contract of test/calls-json-filter.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../calls-json-filter.test.js');
