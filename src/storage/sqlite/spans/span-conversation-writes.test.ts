// The plans of the writer's conversation bookkeeping: both run for every trace written or
// purged, so each must read by an index's key, never a project's rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqlite } from '../engine/database.js';
import { SQLITE_MIGRATIONS } from '../engine/migrations/index.js';
import { DROP_IF_EMPTY, TRACE_CONVERSATIONS } from './span-conversation-writes.js';

const db = openSqlite(':memory:', SQLITE_MIGRATIONS);
const plan = (sql: string, params: readonly unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');

test("a trace's conversations are read by the spans' key", () => {
  assert.match(
    plan(TRACE_CONVERSATIONS, ['p', 't']),
    /^SEARCH spans USING INDEX sqlite_autoindex_spans_1 \(project_id=\? AND trace_id=\?\)/,
  );
});

test('a conversation is dropped by its key once the conversations index shows no span', () => {
  const p = plan(DROP_IF_EMPTY, ['p', 'c', 'p', 'c']);
  assert.match(p, /SEARCH span_conversations USING PRIMARY KEY \(project_id=\? AND conversation_id=\?\)/);
  assert.match(p, /SEARCH spans USING COVERING INDEX spans_conversation \(project_id=\? AND conversation_id=\?\)/);
});
