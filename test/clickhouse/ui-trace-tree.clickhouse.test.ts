// The HTTP contract of test/ui-trace-tree.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../ui-trace-tree.test.js');
