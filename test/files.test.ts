// Files through HTTP on a real socket, sent the way the SDKs send them (undici's FormData,
// file part named `file` with filename `blob`): digests equal to the SDK's, byte-exact
// round trips on both path spellings, idempotent re-uploads, 409 / 404 / 422 answers,
// stats, and the recorded /file/create requests of the real TS SDK (capture 11).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { fileTableCounts } from './helpers/files.js';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let url: string;
before(async () => {
  t = await startTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await t.close();
});

/** The digest the TS SDK computes for file bytes (computed here independently of Weft). */
const sdkDigest = (b: Uint8Array) =>
  createHash('sha256').update(b).digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');

type Field = [name: string, value: string | Blob, filename?: string];
/** Bytes as a Blob, as the SDK wraps them (copied into a plain ArrayBuffer for the DOM typings). */
const blobOf = (bytes: Uint8Array, type?: string) => new Blob([new Uint8Array(bytes)], type ? { type } : {});
/** A form as the SDK builds it: project_id first, then the file part named `blob`. */
const sdkForm = (bytes: Buffer, projectId = P, type = 'application/octet-stream'): Field[] => [
  ['project_id', projectId],
  ['file', blobOf(bytes, type), 'blob'],
];

async function postForm(path: string, fields: Field[]) {
  const fd = new FormData();
  for (const [name, value, filename] of fields) {
    if (typeof value === 'string') fd.append(name, value);
    else fd.append(name, value, filename);
  }
  const res = await fetch(url + path, { method: 'POST', body: fd });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}
async function upload(bytes: Buffer, path = '/file/create', projectId = P): Promise<string> {
  const r = await postForm(path, sdkForm(bytes, projectId));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body), ['digest']);
  return r.body.digest;
}
async function content(digest: string, path = '/file/content', projectId = P) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: projectId, digest }),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
const postJson = async (path: string, body: unknown) => {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
/** Rows of the files tables, read from the database file itself. */
const tableCounts = () => fileTableCounts(t);

/** The 1x1 grey+alpha PNG the SDK scenario used, built from its parts (filter byte 1, one transparent pixel). */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 4, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([1, 0, 0]), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('file create answers the digest the SDK computes, on both path spellings', async () => {
  const bytes = Buffer.from('async function add(a, b) { return a + b; }');
  assert.equal(await upload(bytes, '/file/create'), sdkDigest(bytes));
  assert.equal(await upload(bytes, '/files/create'), sdkDigest(bytes));
  assert.match(sdkDigest(bytes), /^[A-Za-z0-9]{43}$/);
  for (const path of ['/file/content', '/files/content']) {
    const r = await content(sdkDigest(bytes), path);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/octet-stream');
    assert.equal(r.headers.get('content-length'), String(bytes.length));
    assert.deepEqual(r.bytes, bytes);
  }
});

test('binary content round-trips byte for byte: all 256 byte values, a PNG, an empty file', async () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const reversed = Buffer.from(all).reverse();
  const png = tinyPng();
  const empty = Buffer.alloc(0);
  for (const bytes of [all, reversed, png, empty]) {
    const digest = await upload(bytes);
    assert.equal(digest, sdkDigest(bytes));
    const r = await content(digest);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-length'), String(bytes.length));
    assert.ok(r.bytes.equals(bytes), `round trip of ${bytes.length} bytes`);
  }
  assert.equal(sdkDigest(empty), '47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU');
});

test('files spanning several 1 MiB chunks round-trip exactly, whatever the boundary', async () => {
  const MiB = 1024 * 1024;
  for (const size of [MiB - 1, MiB, MiB + 1, 2 * MiB + 12345]) {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 11)) & 0xff;
    const digest = await upload(bytes);
    assert.equal(digest, sdkDigest(bytes), `digest of ${size} bytes`);
    const r = await content(digest);
    assert.ok(r.bytes.equals(bytes), `round trip of ${size} bytes`);
  }
  assert.equal((await tableCounts()).staged, 0);
});

test('re-uploading identical bytes stores nothing new (the SDK re-uploads on every use)', async () => {
  const small = Buffer.from('same bytes every time');
  const large = Buffer.alloc(3 * 1024 * 1024 + 7, 0x5a);
  await upload(small);
  await upload(large);
  const first = await tableCounts();
  const stats = (await postJson('/files/stats', { project_id: P })).body.total_size_bytes;
  for (let i = 0; i < 3; i++) {
    assert.equal(await upload(small, i % 2 ? '/files/create' : '/file/create'), sdkDigest(small));
    assert.equal(await upload(large), sdkDigest(large));
  }
  assert.deepEqual(await tableCounts(), first);
  assert.equal((await postJson('/files/stats', { project_id: P })).body.total_size_bytes, stats);
  assert.ok((await content(sdkDigest(large))).bytes.equals(large));
});

test('files belong to their project: stats and reads are per project', async () => {
  const a = 'stats-entity/project-a';
  const b = 'stats-entity/project-b';
  assert.deepEqual((await postJson('/files/stats', { project_id: a })).body, { total_size_bytes: 0 });
  const d1 = await upload(Buffer.alloc(100, 1), '/file/create', a);
  await upload(Buffer.alloc(250, 2), '/files/create', a);
  await upload(Buffer.alloc(100, 1), '/file/create', b);
  assert.deepEqual((await postJson('/files/stats', { project_id: a })).body, { total_size_bytes: 350 });
  assert.deepEqual((await postJson('/files/stats', { project_id: b })).body, { total_size_bytes: 100 });
  assert.equal((await content(d1, '/file/content', 'stats-entity/project-c')).status, 404);
  const stats = await postJson('/files/stats', {});
  assert.equal(stats.status, 422);
  assert.deepEqual(stats.body.detail[0].loc, ['body', 'project_id']);
});

test('expected_digest: a match is stored, a mismatch is a 409 that stores nothing', async () => {
  const bytes = Buffer.from('python sends expected_digest');
  const ok = await postForm('/files/create', [...sdkForm(bytes), ['expected_digest', sdkDigest(bytes)]]);
  assert.equal(ok.status, 200);
  assert.equal(ok.body.digest, sdkDigest(bytes));

  const other = Buffer.alloc(2 * 1024 * 1024 + 5, 7); // staged in chunks before the mismatch is seen
  const before = await tableCounts();
  // expected_digest after the file part: it is checked once every part has been read.
  const bad = await postForm('/files/create', [...sdkForm(other), ['expected_digest', sdkDigest(bytes)]]);
  assert.equal(bad.status, 409);
  assert.equal(bad.type, 'application/json; charset=utf-8');
  assert.equal(bad.body.error_code, 'DIGEST_MISMATCH');
  assert.match(bad.body.reason, new RegExp(`expected ${sdkDigest(bytes)}, computed ${sdkDigest(other)}`));
  assert.equal((await content(sdkDigest(other))).status, 404);
  assert.deepEqual(await tableCounts(), before);
});

test('file content of an unknown digest is a 404 JSON error naming the file', async () => {
  const digest = sdkDigest(Buffer.from('never uploaded'));
  for (const path of ['/file/content', '/files/content']) {
    const r = await postJson(path, { project_id: P, digest });
    assert.equal(r.status, 404);
    assert.equal(r.body.reason, `File ${digest} not found`);
    assert.equal(r.body.error_code, 'NOT_FOUND');
  }
  const bad = await postJson('/file/content', { project_id: P });
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.body.detail, [{ loc: ['body', 'digest'], msg: 'Field required', type: 'missing' }]);
});

test('a form without project_id or without the file part is a FastAPI-shaped 422', async () => {
  const missing = (f: string) => ({ loc: ['body', f], msg: 'Field required', type: 'missing' });
  const noFile = await postForm('/file/create', [['project_id', P]]);
  assert.equal(noFile.status, 422);
  assert.deepEqual(noFile.body, { detail: [missing('file')] });
  const noProject = await postForm('/file/create', [['file', new Blob(['x']), 'blob']]);
  assert.deepEqual(noProject.body, { detail: [missing('project_id')] });
  const neither = await postForm('/files/create', [['unrelated', 'field']]);
  assert.deepEqual(neither.body, { detail: [missing('project_id'), missing('file')] });
  const textFile = await postForm('/file/create', [
    ['project_id', P],
    ['file', 'not an upload'],
  ]);
  assert.equal(textFile.status, 422);
  assert.deepEqual(textFile.body.detail[0].loc, ['body', 'file']);
  const emptyProject = await postForm('/file/create', [
    ['project_id', ''],
    ['file', new Blob(['x']), 'blob'],
  ]);
  assert.equal(emptyProject.status, 422);
  assert.deepEqual(emptyProject.body.detail[0].loc, ['body', 'project_id']);
  assert.deepEqual((await tableCounts()).staged, 0);
});

test('parts in any order: project_id after the file, extra fields and extra uploads are ignored', async () => {
  const bytes = Buffer.from('file first');
  const r = await postForm('/file/create', [
    ['file', blobOf(bytes), 'image.png'],
    ['comment', 'ignored'],
    ['other', new Blob(['dropped']), 'x.bin'],
    ['project_id', P],
  ]);
  assert.equal(r.status, 200);
  assert.equal(r.body.digest, sdkDigest(bytes));
  assert.ok((await content(r.body.digest)).bytes.equals(bytes));
});

test('a request that is not multipart, or is malformed multipart, is a 4xx JSON answer', async () => {
  const asJson = await postJson('/file/create', { project_id: P, file: 'aGVsbG8=' });
  assert.equal(asJson.status, 422);
  assert.deepEqual(
    asJson.body.detail.map((d: any) => d.loc),
    [
      ['body', 'project_id'],
      ['body', 'file'],
    ],
  );
  const cases: [string, string][] = [
    ['text/plain', 'hello'],
    ['multipart/form-data', 'no boundary'],
    [
      'multipart/form-data; boundary=XYZ',
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n\r\ncut off',
    ],
  ];
  for (const [type, body] of cases) {
    const res = await fetch(`${url}/file/create`, { method: 'POST', headers: { 'content-type': type }, body });
    assert.ok(res.status >= 400 && res.status < 500, `${type}: ${res.status}`);
    const json = (await res.json()) as any;
    assert.ok(typeof json.reason === 'string' || Array.isArray(json.detail), `${type}: ${JSON.stringify(json)}`);
  }
  assert.equal((await tableCounts()).staged, 0);
});

test("the TS SDK's recorded /file/create requests: same form shape, same digests (capture 11)", async () => {
  const lines = readFileSync(join(import.meta.dirname, 'fixtures/sdk-captures/11-media.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  const creates = lines.map((l) => JSON.parse(l)).filter((r) => r.path === '/file/create');
  assert.ok(creates.length >= 4);
  const checked = new Set<string>();
  for (const rec of creates) {
    const [pid, file] = rec.multipart.parts;
    assert.equal(pid.name, 'project_id');
    assert.equal(file.name, 'file');
    assert.equal(file.filename, 'blob');
    assert.equal(rec.response.body.digest, file.weave_digest);
    // The recorder kept a UTF-8 rendering of the head: exact for text, lossy for binary.
    const headBytes = Buffer.from(file.head, 'utf8');
    let bytes: Buffer | null = null;
    if (!file.head.includes('\uFFFD') && headBytes.length === file.size) bytes = headBytes;
    else if (file.content_type === 'image/png') {
      bytes = tinyPng();
      assert.equal(bytes.length, file.size);
      assert.equal(bytes.toString('utf8'), file.head, 'the rebuilt PNG renders exactly like the recorded head');
    }
    if (bytes === null) continue; // the WAV's sample bytes are lost in the recorded head
    assert.equal(sdkDigest(bytes), file.weave_digest);
    const r = await postForm('/file/create', [
      [pid.name, pid.value],
      ['file', blobOf(bytes, file.content_type), 'blob'],
    ]);
    assert.equal(r.status, 200);
    assert.equal(r.body.digest, file.weave_digest);
    checked.add(file.weave_digest);
  }
  assert.ok(checked.size >= 3, `checked ${checked.size} distinct recorded digests`);
});
