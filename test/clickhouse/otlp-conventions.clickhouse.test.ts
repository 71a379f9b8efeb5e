// The HTTP contract of test/otlp-conventions.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../otlp-conventions.test.js');
