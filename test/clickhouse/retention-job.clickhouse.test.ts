// The HTTP contract of test/retention-job.test.ts, run on the ClickHouse engine (chdb in process).
process.env.WEFT_TEST_ENGINE = 'clickhouse';
await import('../retention-job.test.js');
