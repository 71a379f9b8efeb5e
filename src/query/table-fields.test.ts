import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidRequestError } from '../api/errors.js';
import { compileTableSort, tableFieldPath } from './table-fields.js';

test('table sort fields are dot paths into the row column', () => {
  assert.deepEqual(tableFieldPath('a'), ['a']);
  assert.deepEqual(tableFieldPath('meta.tags.0'), ['meta', 'tags', '0']);
  assert.deepEqual(compileTableSort([{ field: 'a.b', direction: 'desc' }]), [
    { field: { kind: 'json', column: 'val', path: ['a', 'b'] }, direction: 'desc' },
  ]);
  assert.deepEqual(compileTableSort(null), []);
  assert.deepEqual(compileTableSort(undefined), []);
});

test('malformed table sort fields are InvalidRequestError (400)', () => {
  for (const field of ['', ' ', '.a', 'a.', 'a..b', 'a. .b', '.']) {
    assert.throws(
      () => tableFieldPath(field),
      (e) => e instanceof InvalidRequestError && e.status === 400,
      JSON.stringify(field),
    );
  }
});
