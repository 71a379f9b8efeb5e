// The HTTP contract of test/otlp-json-text.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../otlp-json-text.test.js');
