// The real weave SDK end to end: publish / get, Dataset versions, image and audio files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from './sdk-harness.js';
import { jsonl } from '../helpers/calls.js';

let w: WeftServer;
before(async () => {
  w = await startWeftServer();
});
after(async () => {
  await w.close();
});

/** The digest the SDK computes for file bytes (and Weft must compute identically). */
const fileDigest = (b: Buffer) =>
  createHash('sha256').update(b).digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');

test('client.publish, then get by digest and by latest, and a second version', async () => {
  const project = 'sdk-e2e/publish';
  const run = await runSdk(
    w.url,
    project,
    `
  const ref1 = await client.publish({ greeting: 'hello', n: 3, nested: { ok: true } }, 'my-config');
  const byDigest = await client.get(ref1);
  const ref2 = await client.publish({ greeting: 'bonjour', n: 4 }, 'my-config');
  const latest = await weave.ObjectRef.fromUri('weave:///${project}/object/my-config').get();
  const first = await new weave.ObjectRef('${project}', 'my-config', ref1.digest).get();
  out.ref1 = ref1.uri(); out.ref2 = ref2.uri();
  out.byDigest = byDigest; out.latest = latest; out.first = first;
  `,
  );
  assertRanCleanly(run);
  const r = run.result;
  assert.notEqual(r.ref1, r.ref2);
  assert.equal(r.byDigest.greeting, 'hello');
  assert.equal(r.byDigest.n, 3);
  assert.equal(r.latest.greeting, 'bonjour');
  assert.equal(r.first.greeting, 'hello');
  const objs = (await w.t.post('/objs/query', { project_id: project, filter: { object_ids: ['my-config'] } })).body
    .objs;
  assert.deepEqual(
    objs.map((o: { version_index: number; is_latest: number }) => [o.version_index, o.is_latest]),
    [
      [0, 0],
      [1, 1],
    ],
  );
  assert.equal(`weave:///${project}/object/my-config:${objs[1].digest}`, r.ref2);
});

test('a Dataset is saved, read back row for row, then saved again as v1', async () => {
  const project = 'sdk-e2e/dataset';
  const run = await runSdk(
    w.url,
    project,
    `
  const rows = [
    { id: '0', question: 'capital of France?', expected: 'Paris' },
    { id: '1', question: 'capital of Spain?', expected: 'Madrid' },
    { id: '2', question: 'capital of Japan?', expected: 'Tokyo' },
  ];
  const ds = new weave.Dataset({ name: 'capitals', description: 'three rows', rows });
  const ref = await ds.save();
  const back = await ref.get();
  out.ref = ref.uri();
  out.rows = [];
  for (let i = 0; i < back.length; i++) out.rows.push(back.getRow(i));
  const ds2 = new weave.Dataset({ name: 'capitals', rows: [...rows, { id: '3', question: 'capital of Peru?', expected: 'Lima' }] });
  out.ref2 = (await ds2.save()).uri();
  const latest = await weave.ObjectRef.fromUri('weave:///${project}/object/capitals').get();
  out.latestLength = latest.length;
  `,
  );
  assertRanCleanly(run);
  assert.deepEqual(
    run.result.rows.map((r: { expected: string }) => r.expected),
    ['Paris', 'Madrid', 'Tokyo'],
  );
  assert.equal(run.result.latestLength, 4);
  const versions = (await w.t.post('/objs/query', { project_id: project, filter: { object_ids: ['capitals'] } })).body
    .objs;
  assert.equal(versions.length, 2);
  assert.equal(versions[1].is_latest, 1);
  assert.equal(versions[1].version_index, 1);
  assert.equal(versions[0].base_object_class, 'Dataset');
  const tableRef: string = versions[0].val.rows;
  const digest = tableRef.split('/table/')[1]!;
  const rows = (await w.t.post('/table/query', { project_id: project, digest })).body.rows;
  assert.deepEqual(
    rows.map((r: { val: { id: string } }) => r.val.id),
    ['0', '1', '2'],
  );
});

test('image and audio values: /file/content returns the exact bytes under the digest the SDK computed', async () => {
  const project = 'sdk-e2e/media';
  // A 1x1 PNG and a tiny WAV, built here so the test knows the exact bytes.
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
      '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
    'hex',
  );
  const wav = Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([36 + 8, 0, 0, 0]),
    Buffer.from('WAVEfmt '),
    Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
    Buffer.from('data'),
    Buffer.from([8, 0, 0, 0]),
    Buffer.from([0, 0, 1, 0, 2, 0, 3, 0]),
  ]);
  const run = await runSdk(
    w.url,
    project,
    `
  const png = Buffer.from(${JSON.stringify(png.toString('base64'))}, 'base64');
  const wav = Buffer.from(${JSON.stringify(wav.toString('base64'))}, 'base64');
  const describe = weave.op(async function describe(image, audio) { return 'ok'; }, { parameterNames: ['image', 'audio'] });
  out.answer = await describe(weave.weaveImage({ data: png }), weave.weaveAudio({ data: wav }));
  `,
  );
  assertRanCleanly(run);
  const call = await eventually(async () => {
    const c = jsonl((await w.t.post('/calls/stream_query', { project_id: project })).text);
    return c.length === 1 && c[0].ended_at ? c[0] : null;
  }, 'the media call');
  for (const [name, bytes, key] of [
    ['image', png, 'image.png'],
    ['audio', wav, 'audio.wav'],
  ] as const) {
    // Media inputs are stored inline as CustomWeaveType dicts naming their files by digest.
    const val = call.inputs[name];
    assert.equal(val._type, 'CustomWeaveType');
    assert.equal(val.files[key], fileDigest(bytes), `${name}: the SDK's digest`);
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/file/content',
      payload: { project_id: project, digest: fileDigest(bytes) },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.ok(res.rawPayload.equals(bytes), `${name}: the exact bytes`);
  }
});
