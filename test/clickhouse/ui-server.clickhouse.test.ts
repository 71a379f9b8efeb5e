// The HTTP contract of test/ui-server.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../ui-server.test.js');
