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
  'test/playground-call.test.ts': { engines: [], reason: `the playground's reading of model calls: ${NO_STORE}` },
  'test/clickhouse/': {
    engines: [],
    reason: 'ClickHouse-only suites (its plumbing, replicas, faults, copy): they open ClickHouse themselves',
  },
  'test/ui/': {
    engines: ['sqlite'],
    reason:
      'the UI reads through the HTTP API whose contract runs on both engines; a browser per engine would double the slowest suite',
  },
  'test/secrets-cli.test.ts': {
    engines: ['sqlite'],
    reason: "weft secrets on a data directory; the store under it is the contract suite's (test/secrets.test.ts)",
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
  'test/agents-message-backlog.test.ts': {
    engines: ['sqlite'],
    reason: "SQLite's backlog of messages to index (ClickHouse indexes as it inserts)",
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

/**
 * What CI runs again on Node 22 (`scripts/run-tests.mjs --node22`, on SQLite): the files whose
 * outcome can depend on the Node line, each group with why. Everything else is Weft's own logic
 * (filters, sweeps, rollups, access rules), which the whole suite checks on Node 24; running all
 * of it twice cost a fifth of CI's CPU, mostly in starting ~100 test processes.
 */
export const NODE22 = {
  'test/sdk/': 'the weave npm SDK end to end: fetch, streams and the SDK itself on Node 22',
  'test/python-sdk-calls.test.ts': "a real HTTP client against Node 22's server",
  'test/python-sdk-init.test.ts': "a real HTTP client against Node 22's server",
  'test/python-sdk-objects.test.ts': "a real HTTP client against Node 22's server",
  'test/server-socket.test.ts': 'the server process: sockets and keep-alive',
  'test/server-signals.test.ts': 'the server process: signals, exit codes, the SQLite threads stopping',
  'test/calls-text-roundtrip.test.ts': "the SQLite driver's text binding (Node 22 cut text at a NUL: docs/node.md)",
  'test/calls-write.test.ts': 'the SQLite driver and writer thread under the calls contract',
  'test/call-read.test.ts': 'the SQLite driver and reader threads',
  'test/calls-query.test.ts': 'JSON Lines streaming from the reader threads',
  'test/objects-create.test.ts': 'digests (node:crypto) and the SQLite driver',
  'test/objects-read.test.ts': 'the SQLite driver',
  'test/tables-create.test.ts': 'digests (node:crypto) and large bodies',
  'test/tables-query.test.ts': 'streams of table rows',
  'test/refs-read.test.ts': 'the SQLite driver',
  'test/files.test.ts': 'multipart uploads and file streams',
  'test/feedback.test.ts': 'the SQLite driver',
  'test/costs-catalogue.test.ts': "the price catalogue's JSON, read at startup",
  'test/otlp-http.test.ts': 'protobuf decoding and gzip/deflate bodies (node:zlib)',
  'test/otlp-exporters.test.ts': 'the OpenTelemetry JS exporters on Node 22',
  'test/agents-ingest.test.ts': 'agent spans through the writer thread',
  'test/agents-search.test.ts': "SQLite's FTS5 through the driver",
  'test/agents-chat.test.ts': 'the chat projection over stored spans',
  'test/agents-conversation-sdk.test.ts': 'agent spans as the Weave Conversation SDK sends them',
  'test/agents-frameworks-adk.test.ts': 'Google ADK, which needs Node 22 or later',
  'test/agents-frameworks-openai-agents.test.ts': 'OpenAI Agents JS on Node 22',
  'test/agents-frameworks-strands.test.ts': 'Strands on Node 22',
  'test/agents-frameworks-vercel.test.ts': 'the Vercel AI SDK on Node 22',
  'test/agents-frameworks-mastra.test.ts': 'Mastra, which needs Node 22 or later',
  'test/agents-frameworks-claude-agent.test.ts': "the Claude Agent SDK and its CLI's process on Node 22",
  'test/agents-frameworks-langgraph.test.ts': 'LangGraph JS and its OpenInference instrumentation on Node 22',
  'test/auth-http.test.ts': 'key hashing (node:crypto) and headers',
  'test/auth-sdk.test.ts': 'keys as the SDK sends them',
  'test/open-mode.test.ts': 'Host and Origin handling of Node 22 requests',
  'test/json-body.test.ts': 'body parsing and its limits',
  'test/routes-malformed.test.ts': 'request validation (Ajv) and its 422 bodies',
  'test/meta.test.ts': 'the OpenAPI document and version',
  'test/request-log.test.ts': 'the request log stream',
  'test/retention-job.test.ts': 'timers of the retention job',
  'test/backpressure.test.ts': 'stream back-pressure and 503s under load',
};
