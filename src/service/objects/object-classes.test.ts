import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidRequestError } from '../../api/errors.js';
import { assertSafeFileKeys, objectClasses, objectKind, resolveObjectClasses } from './object-classes.js';
import { parseSelector, validateAliases, validateObjectId, versionIndexOf } from './object-names.js';

test('objectKind: weave_type.type wins when both _type and weave_type are present', () => {
  assert.equal(objectKind({ _type: 'CustomWeaveType', weave_type: { type: 'Op' } }), 'op');
  assert.equal(objectKind({ _type: 'Op' }), 'op');
  assert.equal(objectKind({ _type: 'Op', weave_type: { type: 'Other' } }), 'object');
  assert.equal(objectKind({ weave_type: { type: 'Op' } }), 'object', 'no _type: not a typed value');
  assert.equal(objectKind(['Op']), 'object');
  assert.equal(objectKind(null), 'object');
});

test('objectClasses: base class is the one above Object/BaseObject, or the leaf itself', () => {
  assert.deepEqual(objectClasses({ _class_name: 'Dataset', _bases: ['Object', 'BaseModel'] }), {
    base_object_class: 'Dataset',
    leaf_object_class: 'Dataset',
  });
  assert.deepEqual(objectClasses({ _class_name: 'MyModel', _bases: ['Model', 'Object', 'BaseModel'] }), {
    base_object_class: 'Model',
    leaf_object_class: 'MyModel',
  });
  assert.deepEqual(objectClasses({ _class_name: 'P', _bases: ['Prompt', 'Object', 'BaseModel'] }), {
    base_object_class: 'Prompt',
    leaf_object_class: 'P',
  });
  assert.deepEqual(objectClasses({ _class_name: 'L', _bases: ['BaseObject', 'BaseModel'] }), {
    base_object_class: 'L',
    leaf_object_class: 'L',
  });
  const none = { base_object_class: null, leaf_object_class: null };
  assert.deepEqual(objectClasses({ _class_name: 'X', _bases: ['Other', 'BaseModel'] }), none);
  assert.deepEqual(objectClasses({ _class_name: 'X', _bases: ['BaseModel'] }), none);
  assert.deepEqual(objectClasses({ _bases: ['Object', 'BaseModel'] }), none);
  assert.deepEqual(objectClasses({ a: 1 }), none);
});

test('resolveObjectClasses: builtin_object_class rules', () => {
  const ds = { _class_name: 'Dataset', _bases: ['Object', 'BaseModel'] };
  assert.deepEqual(resolveObjectClasses(ds, 'Dataset'), {
    base_object_class: 'Dataset',
    leaf_object_class: 'Dataset',
    val: ds,
  });
  assert.throws(() => resolveObjectClasses([1], 'Dataset'), InvalidRequestError);
  assert.throws(() => resolveObjectClasses(ds, 'Model'), /must match/);
  assert.throws(() => resolveObjectClasses({ a: 1 }, 'AlertSpec'), /Unknown object class: AlertSpec/);
  assert.deepEqual(resolveObjectClasses(5, null), { base_object_class: null, leaf_object_class: null, val: 5 });
});

test('assertSafeFileKeys: nested CustomWeaveType files keys may not be absolute or climb out', () => {
  const custom = (key: string) => ({ inner: [{ _type: 'CustomWeaveType', files: { [key]: 'd' } }] });
  assert.doesNotThrow(() => assertSafeFileKeys(custom('obj.py')));
  assert.doesNotThrow(() => assertSafeFileKeys(custom('dir/./a/../b.py')));
  assert.throws(() => assertSafeFileKeys(custom('/abs.py')), InvalidRequestError);
  assert.throws(() => assertSafeFileKeys(custom('a/../../b.py')), InvalidRequestError);
  assert.doesNotThrow(() => assertSafeFileKeys({ files: { '../x': 1 } }), 'only CustomWeaveType nodes name files');
});

test('parseSelector: latest, v<N>, digest-shaped strings, and names', () => {
  assert.deepEqual(parseSelector('latest'), { kind: 'latest' });
  assert.deepEqual(parseSelector('v12'), { kind: 'index', index: 12 });
  assert.deepEqual(parseSelector('47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU'), {
    kind: 'digest',
    digest: '47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU',
  });
  assert.deepEqual(parseSelector('production'), { kind: 'name', name: 'production' });
  assert.deepEqual(parseSelector('v1.2'), { kind: 'name', name: 'v1.2' });
  assert.equal(versionIndexOf('v'), null);
  assert.equal(versionIndexOf('V1'), null);
});

test('validateObjectId and validateAliases', () => {
  assert.doesNotThrow(() => validateObjectId('my op/v1 (beta)!'));
  assert.throws(() => validateObjectId(''), InvalidRequestError);
  assert.throws(() => validateObjectId('a\nb'), InvalidRequestError);
  assert.doesNotThrow(() => validateAliases(['prod', 'v1-candidate', 'release 2']));
  for (const bad of ['latest', 'v2', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', '']) {
    assert.throws(() => validateAliases([bad]), InvalidRequestError, bad);
  }
});
