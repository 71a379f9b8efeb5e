// Opening a database written by the previous schema: the server says it is upgrading (a
// large database takes a while), migrates, and serves the data it held. Migration 7 drops
// the stored default prices (they come from a catalogue now) and keeps project prices;
// migrations 8 and 9 index calls by keys of their ids, and the old calls are found through them.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite } from '../src/storage/sqlite/engine/database.js';
import { SQLITE_MIGRATIONS } from '../src/storage/sqlite/engine/migrations/index.js';
import { serve, tempDirs } from './helpers/weft-process.js';

const dirs = tempDirs('weft-upgrade-');
after(() => dirs.removeAll());

test('a schema-4 database is upgraded at startup, with a message, and keeps its calls', async () => {
  const dir = dirs.make();
  const file = join(dir, 'weft.sqlite');
  const old = openSqlite(
    file,
    SQLITE_MIGRATIONS.filter((m) => m.version <= 4),
  );
  const call = old.prepare(
    `INSERT INTO calls (project_id, id, trace_id, parent_id, op_name, started_at, attributes, inputs) VALUES ('e/p', ?, ?, ?, 'op', 1, '{}', '{}')`,
  );
  call.run('c1', 't1', null);
  call.run('0a1b2c3d4e5f6a7b', '0123456789abcdef0123456789abcdef', 'c1');
  const price = old.prepare(
    `INSERT INTO llm_token_prices VALUES (?, ?, ?, 'p', 'gpt-4o', 0, 1, 2, 'USD', 'USD', 'u', 0)`,
  );
  price.run('old-default', 'default', 'default');
  price.run('mine', 'project', 'e/p');
  old.close();
  const latest = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]!.version;
  const s = await serve(['--data-dir', dir]);
  try {
    assert.ok(s.port, s.stderr);
    assert.match(s.stderr, new RegExp(`upgrading the database in .* from schema 4 to ${latest}`));
    const r = await fetch(`http://127.0.0.1:${s.port}/calls/query_stats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"project_id":"e/p"}',
    });
    assert.deepEqual(await r.json(), { count: 2, total_storage_size_bytes: null });
    // Migrations 8 and 9 key the id, trace and parent indexes: the old rows are found through them.
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`http://127.0.0.1:${s.port}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).text();
    assert.equal(
      JSON.parse(await post('/call/read', { project_id: 'e/p', id: '0a1b2c3d4e5f6a7b' })).call.parent_id,
      'c1',
    );
    const children = await post('/calls/stream_query', {
      project_id: 'e/p',
      filter: { parent_ids: ['c1'] },
      columns: ['id'],
    });
    assert.deepEqual(
      children
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
      ['0a1b2c3d4e5f6a7b'],
    );
    const trace = await post('/calls/stream_query', {
      project_id: 'e/p',
      filter: { trace_ids: ['0123456789abcdef0123456789abcdef'] },
      columns: ['id'],
    });
    assert.deepEqual(
      trace
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
      ['0a1b2c3d4e5f6a7b'],
    );
  } finally {
    s.stop();
  }
  const db = new Database(file, { readonly: true });
  try {
    assert.equal(db.pragma('user_version', { simple: true }), latest);
    assert.deepEqual(db.prepare('SELECT id FROM llm_token_prices').all(), [{ id: 'mine' }]);
    const columns = (db.prepare('PRAGMA index_info(calls_parent)').all() as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns, ['parent_key', 'started_at']);
  } finally {
    db.close();
  }
});

test('a new database is created without the upgrade message', async () => {
  const s = await serve(['--data-dir', dirs.make()]);
  try {
    assert.ok(s.port, s.stderr);
    assert.doesNotMatch(s.stderr, /upgrading/);
  } finally {
    s.stop();
  }
});

test("a schema-17 database's searchable messages are rekeyed by span (18), kept once per conversation (21) and still found; its conversations are listed (19)", async () => {
  const dir = dirs.make();
  const file = join(dir, 'weft.sqlite');
  const old = openSqlite(
    file,
    SQLITE_MIGRATIONS.filter((m) => m.version <= 17),
  );
  const trace = '0123456789abcdef0123456789abcdef';
  const span = old.prepare(
    `INSERT INTO spans (project_id, trace_id, span_id, span_name, span_kind, started_at, status_code, conversation_id,
       input_messages, output_messages, system_instructions, custom_attrs_string, custom_attrs_int, custom_attrs_float,
       custom_attrs_bool, tokens_counted, raw_span_dump)
     VALUES ('e/p', ?, ?, 'chat', 'CLIENT', ?, 'OK', 'conv-1', '[]', '[]', '[]', '{}', '{}', '{}', '{}', 1, '{}')`,
  );
  span.run(trace, '00000000000000a1', 1_000_000);
  span.run(trace, '00000000000000b2', 2_000_000);
  const body = old.prepare("INSERT INTO span_message_bodies (project_id, digest, content) VALUES ('e/p', ?, ?)");
  const fts = old.prepare('INSERT INTO span_message_fts (rowid, content) VALUES (?, ?)');
  const message = old.prepare(
    `INSERT INTO span_messages (project_id, trace_id, span_id, ord, role, body_id, conversation_id, started_at)
     VALUES ('e/p', ?, ?, ?, ?, ?, 'conv-1', ?)`,
  );
  for (const [id, text] of [
    [1, 'where is my parcel'],
    [2, 'the parcel left the depot'],
  ] as const) {
    body.run(`d${id}`, text);
    fts.run(id, text);
  }
  message.run(trace, '00000000000000a1', 0, 'user', 1, 1_000_000);
  message.run(trace, '00000000000000b2', 0, 'user', 1, 2_000_000);
  message.run(trace, '00000000000000b2', 1, 'assistant', 2, 2_000_000);
  old.close();
  const s = await serve(['--data-dir', dir]);
  try {
    assert.ok(s.port, s.stderr);
    const r = await fetch(`http://127.0.0.1:${s.port}/agents/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: 'e/p', query: 'parcel' }),
    });
    const [found, ...more] = (
      (await r.json()) as {
        results: { conversation_id: string; matched_messages: { span_id: string; role: string }[] }[];
      }
    ).results;
    assert.equal(found?.conversation_id, 'conv-1');
    assert.equal(more.length, 0);
    // One hit per message of the conversation, at its first occurrence, newest first.
    assert.deepEqual(
      found.matched_messages.map((h) => [h.span_id, h.role]),
      [
        ['00000000000000b2', 'assistant'],
        ['00000000000000a1', 'user'],
      ],
    );
    const page = await fetch(`http://127.0.0.1:${s.port}/agents/spans/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: 'e/p', group_by: [{ key: 'conversation_id' }] }),
    });
    assert.equal(((await page.json()) as { total_count: number }).total_count, 1);
  } finally {
    s.stop();
  }
  const db = new Database(file, { readonly: true });
  try {
    assert.deepEqual(
      db
        .prepare(
          'SELECT s.span_id, m.scope, m.ord, m.body_id, m.started_at FROM span_messages AS m JOIN spans AS s ON s.rowid = m.span_rowid ORDER BY 1, 2',
        )
        .all(),
      [
        { span_id: '00000000000000a1', scope: 'c:conv-1', ord: 0, body_id: 1, started_at: 1_000_000 },
        { span_id: '00000000000000b2', scope: 'c:conv-1', ord: 1, body_id: 2, started_at: 2_000_000 },
      ],
    );
    assert.deepEqual(db.prepare('SELECT * FROM span_conversations').all(), [
      { project_id: 'e/p', conversation_id: 'conv-1' },
    ]);
  } finally {
    db.close();
  }
});
