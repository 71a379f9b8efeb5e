// Text fields of calls come back as they were sent, whatever characters they hold: tabs, line
// ends, NUL, backslashes, the text \N (ClickHouse's TabSeparated NULL), non-ASCII; a lone
// UTF-16 surrogate, which UTF-8 cannot hold, in a plain field comes back as U+FFFD.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { end, endItem, jsonl, start, startItem } from './helpers/calls.js';

const ODD = 'tab\there, line\nend, cr\r, nul\0, back\\slash, \\N, \\t, quote", é 😀';
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

test('text with tabs, line ends, NUL, backslashes and \\N round-trips in every field', async () => {
  const s = start({ display_name: ODD, thread_id: 'thread\\N', inputs: { [ODD]: ODD, nested: [ODD, { k: ODD }] } });
  const e = end(s.id, { output: { text: ODD }, exception: ODD, summary: { note: ODD } });
  const r = await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(e)] });
  assert.equal(r.status, 200, r.text);
  // Also a call whose end arrives alone, merged with its stored (or remembered) start.
  const lone = start({ inputs: { text: ODD } });
  assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(lone)] })).status, 200);
  assert.equal((await t.post('/call/upsert_batch', { batch: [endItem(end(lone.id, { output: ODD }))] })).status, 200);

  const c = (await t.post('/call/read', { project_id: PROJECT, id: s.id })).body.call;
  assert.equal(c.display_name, ODD);
  assert.equal(c.thread_id, 'thread\\N');
  assert.deepEqual(c.inputs, { [ODD]: ODD, nested: [ODD, { k: ODD }] });
  assert.deepEqual(c.output, { text: ODD });
  assert.equal(c.exception, ODD);
  assert.equal(c.summary.note, ODD);
  const l = (await t.post('/call/read', { project_id: PROJECT, id: lone.id })).body.call;
  assert.deepEqual([l.inputs, l.output], [{ text: ODD }, ODD]);
  const found = jsonl(
    (
      await t.post('/calls/stream_query', {
        project_id: PROJECT,
        query: { $expr: { $eq: [{ $getField: 'display_name' }, { $literal: ODD }] } },
      })
    ).text,
  );
  assert.deepEqual(
    found.map((x) => x.id),
    [s.id],
  );
});

test('a lone surrogate in plain text is stored as U+FFFD, in JSON as sent, in an id refused', async () => {
  const half = 'half \ud800 here';
  const s = start({ display_name: half, inputs: { v: half }, wb_run_id: half });
  const e = end(s.id, { exception: half });
  assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(e)] })).status, 200);
  const c = (await t.post('/call/read', { project_id: PROJECT, id: s.id })).body.call;
  assert.deepEqual(
    [c.display_name, c.exception, c.wb_run_id],
    ['half \ufffd here', 'half \ufffd here', 'half \ufffd here'],
  );
  assert.equal(c.inputs.v, half);
  assert.equal(
    (await t.post('/call/update', { project_id: PROJECT, call_id: s.id, display_name: `renamed ${half}` })).status,
    200,
  );
  assert.equal(
    (await t.post('/call/read', { project_id: PROJECT, id: s.id })).body.call.display_name,
    'renamed half \ufffd here',
  );
  const bad = await t.post('/call/start', { start: start({ id: `id-${half}` }) });
  assert.equal(bad.status, 400, bad.text);
  assert.match(bad.text, /id must be 1\.\.128 printable characters/);
});
