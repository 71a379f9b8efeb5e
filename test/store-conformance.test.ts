// Promises of the store interfaces that the HTTP tests reach only indirectly, asserted on the
// stores themselves, on every engine (Jaeger's StorageIntegration, small): ObjectStore's
// resurrection and version-index rule, its all-or-nothing delete and the new latest after one.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectVersionInput, VersionSelector } from '../src/storage/objects/object-store.js';
import { startTestApp } from './helpers/test-app.js';

const t = await startTestApp();
after(() => t.close());
const objects = t.store.objects;

let clock = Date.UTC(2026, 10, 27) * 1000;
const version = (project: string, digest: string): ObjectVersionInput => ({
  project_id: project,
  object_id: 'obj',
  digest,
  kind: 'object',
  base_object_class: null,
  leaf_object_class: null,
  val: JSON.stringify({ digest }),
  wb_user_id: 'u',
  created_at: (clock += 1000),
});
const digest = (d: string): VersionSelector => ({ kind: 'digest', digest: d });
const OPTS = { metadataOnly: true, includeLabels: true };
const latest = async (project: string) => (await objects.read(project, 'obj', { kind: 'latest' }, OPTS))?.digest;

test('a version re-created after its delete comes back as the latest, with the next index', async () => {
  const p = 'conformance/resurrect';
  for (const [d, i] of [
    ['a', 0],
    ['b', 1],
    ['c', 2],
  ] as const) {
    assert.deepEqual(await objects.create(version(p, d)), { digest: d, version_index: i, created: true });
  }
  assert.deepEqual((await objects.delete(p, 'obj', [digest('b')], (clock += 1000))).matched, ['b']);
  // Resurrected: a new index, the number of versions (deleted ones included).
  assert.deepEqual(await objects.create(version(p, 'b')), { digest: 'b', version_index: 3, created: true });
  assert.equal(await latest(p), 'b');
  // A live digest re-asserted: nothing new, it becomes the latest again with its own index.
  assert.deepEqual(await objects.create(version(p, 'c')), { digest: 'c', version_index: 2, created: false });
  assert.equal(await latest(p), 'c');
  assert.equal((await objects.read(p, 'obj', { kind: 'index', index: 3 }, OPTS))?.digest, 'b');
});

test('a delete is all or nothing; deleting the latest makes the newest survivor the latest', async () => {
  const p = 'conformance/delete';
  for (const d of ['a', 'b', 'c']) await objects.create(version(p, d));
  assert.ok(await objects.addTags(p, 'obj', digest('c'), ['keep']));
  const miss = await objects.delete(p, 'obj', [digest('a'), digest('nope')], (clock += 1000));
  assert.deepEqual([miss.matched, miss.unmatched], [['a'], [1]]);
  assert.equal((await objects.read(p, 'obj', digest('a'), OPTS))?.deleted_at, null, 'nothing was deleted');
  const hit = await objects.delete(p, 'obj', [digest('c')], (clock += 1000));
  assert.deepEqual(hit.matched, ['c']);
  assert.equal(await latest(p), 'b');
  const deleted = await objects.read(p, 'obj', digest('c'), OPTS);
  assert.notEqual(deleted?.deleted_at, null);
  assert.deepEqual(deleted?.tags ?? [], [], 'a deleted version loses its tags');
  assert.deepEqual(await objects.listTags(p), []);
});
