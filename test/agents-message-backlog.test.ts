// SQLite indexes agent spans' searchable messages after answering the write (migration 22,
// sqlite/spans/span-message-backlog.ts). Through HTTP on a real database file: a write answers
// with its spans listed, not indexed; the writer indexes them once it is idle; a backlog a
// stopped server left is indexed after the restart, and a search made before any idle moment
// still finds every message it acknowledged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestApp } from './helpers/test-app.js';
import { hexId, type TestSpan } from './helpers/agent-spans.js';
import { searchProject } from './helpers/search-project.js';

/** `n` model calls of one conversation, each saying a word of its own. */
function calls(conv: string, words: string[]): TestSpan[] {
  const traceId = hexId(16);
  return words.map((w, i) => ({
    traceId,
    spanId: hexId(8),
    name: 'chat gpt-4o',
    startMs: Date.now() - 60_000 + i,
    endMs: Date.now() - 60_000 + i + 1,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.conversation.id': conv,
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `say ${w}` }] }]),
    },
  }));
}

/** The backlog and the first occurrences as the file holds them now (read-only, beside the server). */
function peek(dataDir: string): { backlog: number; messages: number } {
  const db = new Database(join(dataDir, 'weft.sqlite'), { readonly: true });
  try {
    const n = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0;
    return {
      backlog: n('SELECT count(*) FROM span_message_backlog'),
      messages: n('SELECT count(*) FROM span_messages'),
    };
  } finally {
    db.close();
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20)))
    if (check()) return true;
  return check();
}

const WORDS = ['aardvark', 'bonobo', 'caracal', 'dugong', 'echidna', 'fossa', 'gharial', 'hoatzin'];

test('messages are indexed after the answer, when the writer is idle, and after a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-backlog-'));
  try {
    let t = await startTestApp({ dataDir });
    const p = searchProject(t, 'backlog');
    await p.send(calls('c-1', WORDS));
    // Indexed by the writer once nothing else arrives (10 ms of quiet), without any search.
    assert.ok(await until(() => peek(dataDir).backlog === 0, 5000), 'the idle writer indexes the backlog');
    assert.equal(peek(dataDir).messages, WORDS.length);

    // A server stopped between a write and its indexing (its messages unindexed, the spans
    // still listed): after the restart, a search right away finds them, whether the writer
    // got to them first or the search did, and the writer empties the backlog.
    await p.send(calls('c-2', ['ibex', 'jerboa']));
    await t.close();
    const db = new Database(join(dataDir, 'weft.sqlite'));
    db.exec(`DELETE FROM span_messages WHERE conversation_id = 'c-2';
      INSERT INTO span_message_backlog (span_rowid, fresh) SELECT rowid, 1 FROM spans WHERE conversation_id = 'c-2';
      INSERT INTO span_message_backlog (span_rowid, fresh) SELECT rowid, 0 FROM spans WHERE conversation_id = 'c-1';`);
    assert.equal(db.prepare('SELECT count(*) FROM span_messages').pluck().get() as number, WORDS.length);
    db.close();
    t = await startTestApp({ dataDir });
    const again = {
      ...p,
      search: (body: Record<string, unknown>) => t.post('/agents/search', { project_id: p.id, ...body }),
    };
    const r = await again.search({ query: 'jerboa' });
    assert.equal(r.status, 200, r.text);
    const hits = (r.body as { results: { conversation_id: string }[] }).results;
    assert.deepEqual(
      hits.map((h) => h.conversation_id),
      ['c-2'],
    );
    assert.ok(await until(() => peek(dataDir).backlog === 0, 5000), 'the restarted writer indexes what was left');
    // c-1 indexed twice: each message is still there once.
    assert.equal(peek(dataDir).messages, WORDS.length + 2);
    await t.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
