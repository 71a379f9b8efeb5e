// Which storage engines each test file under test/ runs on. The default is every engine: a new
// contract file runs on SQLite and on ClickHouse (chdb in process) with no edit. A file or
// folder listed here runs on fewer, and says why; `engines: []` runs a file once, as it is (it
// touches no store, or it picks its engine itself). The test command (scripts/run-tests.mjs)
// runs each file once per engine, its tests under a `[engine]` suite, and refuses an entry
// that names no file or gives no reason. Test files under src/ are unit tests: run once.
export const ENGINES = ['sqlite', 'clickhouse'];

const NO_STORE = 'touches no store';
const SQLITE_PROCESS =
  'starts Weft as a process on its default engine, SQLite; the ClickHouse process is tested in test/clickhouse/engine-select';

export const EXCEPTIONS = {
  'test/architecture.test.ts': { engines: [], reason: `reads the source tree: ${NO_STORE}` },
  'test/config.test.ts': { engines: [], reason: `settings parsing: ${NO_STORE}` },
  'test/fuzz-gen.test.ts': { engines: [], reason: `the fuzzers' generators: ${NO_STORE}` },
  'test/prometheus-text.test.ts': { engines: [], reason: `the metrics text parser of the tests: ${NO_STORE}` },
  'test/node-versions.test.ts': { engines: [], reason: `the Node launcher scripts: ${NO_STORE}` },
  'test/dialects.test.ts': { engines: [], reason: `both dialects' printers side by side: ${NO_STORE}` },
  'test/clickhouse/': {
    engines: [],
    reason: 'ClickHouse-only suites (its plumbing, replicas, faults, copy): they open ClickHouse themselves',
  },
  'test/ui/': {
    engines: ['sqlite'],
    reason:
      'the UI reads through the HTTP API whose contract runs on both engines; a browser per engine would double the slowest suite',
  },
  'test/auth-cli.test.ts': {
    engines: ['sqlite'],
    reason: 'weft keys on a data directory; on ClickHouse: test/clickhouse/engine-select',
  },
  'test/backup-cli.test.ts': {
    engines: ['sqlite'],
    reason: 'weft backup copies the SQLite file (ClickHouse is refused, which it tests)',
  },
  'test/cli-conventions.test.ts': {
    engines: ['sqlite'],
    reason: 'usage and exit codes of the commands, on a data directory',
  },
  'test/disk-full.test.ts': {
    engines: ['sqlite'],
    reason: "a full disk under SQLite's file; ClickHouse's own: test/clickhouse/faults",
  },
  'test/durability-sigkill.test.ts': { engines: ['sqlite'], reason: "SQLite's WAL across a killed process" },
  'test/files-store.test.ts': {
    engines: ['sqlite'],
    reason: "the SQLite FileStore's chunking, staging and crash clean-up",
  },
  'test/schema-upgrade.test.ts': {
    engines: ['sqlite'],
    reason: "SQLite's migrations; ClickHouse's: test/clickhouse/engine",
  },
  'test/sqlite-rekey.test.ts': { engines: ['sqlite'], reason: "SQLite's call id key tables" },
  'test/startup-errors.test.ts': {
    engines: ['sqlite'],
    reason: "what stops the SQLite engine from opening; ClickHouse's: test/clickhouse/engine-select",
  },
  'test/server-signals.test.ts': { engines: ['sqlite'], reason: SQLITE_PROCESS },
  'test/server-socket.test.ts': { engines: ['sqlite'], reason: SQLITE_PROCESS },
  'test/open-mode-server.test.ts': { engines: ['sqlite'], reason: SQLITE_PROCESS },
  'test/otlp-genai.test.ts': {
    engines: ['sqlite'],
    reason: `${SQLITE_PROCESS}; the calls its spans become are asserted on both engines by otlp-conventions`,
  },
};
