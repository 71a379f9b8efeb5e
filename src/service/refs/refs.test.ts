import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentRefUri, InvalidRefError, parseRef, refUri, tryParseRef } from './refs.js';

const P = 'weave:///ent/proj';

test('object and op refs give entity, project, name, digest', () => {
  const r = parseRef(`${P}/object/my-obj:abc123`);
  assert.deepEqual(r, {
    kind: 'object',
    entity: 'ent',
    project: 'proj',
    projectId: 'ent/proj',
    name: 'my-obj',
    digest: 'abc123',
    extra: [],
  });
  const op = parseRef(`${P}/op/score:xyz`);
  assert.equal(op.kind, 'op');
  assert.equal(op.kind === 'op' && op.name, 'score');
});

test('object refs decode their extra path and check edges', () => {
  const r = parseRef(`${P}/object/ds:d1/attr/rows/index/3/key/a%2Fb`);
  assert.deepEqual(r.extra, ['attr', 'rows', 'index', '3', 'key', 'a/b']);
  assert.deepEqual(parseRef(`${P}/object/ds:d1/`).extra, []);
  assert.throws(() => parseRef(`${P}/object/ds:d1/attr`), InvalidRefError);
  assert.throws(() => parseRef(`${P}/object/ds:d1/bogus/x`), /unknown edge/);
  assert.throws(() => parseRef(`${P}/object/ds:d1/index/x`), /integer/);
});

test('table and call refs keep their tail', () => {
  const t = parseRef(`${P}/table/tdig/id/rowdig`);
  assert.equal(t.kind, 'table');
  assert.deepEqual(t.extra, ['id', 'rowdig']);
  const c = parseRef(`${P}/call/0190-abc`);
  assert.equal(c.kind === 'call' && c.id, '0190-abc');
  assert.equal(c.projectId, 'ent/proj');
});

test('malformed refs are InvalidRefError (a 400 InvalidRequestError)', () => {
  for (const bad of [
    'not a ref',
    'weave://ent/proj/call/x',
    `weave:///ent`,
    `weave:///ent/proj`,
    `${P}/call`,
    `${P}/call/`,
    `${P}/object/noversion`,
    `${P}/object/a:b:c`,
    `${P}/object/:d`,
    `${P}/object/n:`,
    `${P}/thing/x`,
    'weave:////proj/call/x',
    `${P}/object/n:d/key/%E0%A4%A`,
  ]) {
    assert.throws(
      () => parseRef(bad),
      (e: unknown) => e instanceof InvalidRefError && e.status === 400,
      bad,
    );
    assert.equal(tryParseRef(bad), null);
  }
});

test('refUri round-trips', () => {
  for (const uri of [`${P}/object/o:d/key/a%2Fb/index/0`, `${P}/op/o:d`, `${P}/table/t`, `${P}/call/c`]) {
    assert.equal(refUri(parseRef(uri)), uri);
  }
});

test('agent refs: one id for turns and steps, a quoted id (slashes kept) for conversations', () => {
  const turn = parseRef(`${P}/agent_turn/0123abcd`);
  assert.deepEqual(turn, {
    kind: 'agent_turn',
    entity: 'ent',
    project: 'proj',
    projectId: 'ent/proj',
    id: '0123abcd',
    extra: [],
  });
  assert.equal(parseRef(`${P}/agent_span/ab12`).kind, 'agent_span');
  const conv = parseRef(`${P}/agent_conversation/user/42%3Asession%20%3Fname%3Dhi`);
  assert.equal(conv.kind === 'agent_conversation' && conv.id, 'user/42:session ?name=hi');
  // Weave's quoting (Python's urllib quote): '/' kept, "!'()*" encoded.
  assert.equal(
    agentRefUri('ent/proj', 'agent_conversation', "user/42:session ?name=hi!'()*~"),
    `${P}/agent_conversation/user/42%3Asession%20%3Fname%3Dhi%21%27%28%29%2A~`,
  );
  assert.equal(refUri(parseRef(`${P}/agent_conversation/a b`)), `${P}/agent_conversation/a%20b`);
  for (const bad of [`${P}/agent_turn/`, `${P}/agent_turn/a/b`, `${P}/agent_span/a/b`, `${P}/agent_conversation/%E0`])
    assert.throws(() => parseRef(bad), InvalidRefError, bad);
});
