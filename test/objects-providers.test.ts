// Provider and ProviderModel on POST /obj/create, as Weave's UI creates them: the bare fields with
// builtin_object_class. Validated (a 400 naming what is wrong; nothing stored) and stored as
// Weave stores them: the class envelope, every field in order with its default, extra keys
// dropped; base and leaf class the class itself (weave-objects.md §0.3, §4).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';
import { valDigest } from '../src/service/json/digest.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const create = (object_id: string, val: unknown, builtin_object_class: string) =>
  t.post('/obj/create', { obj: { project_id: P, object_id, val, builtin_object_class } });

test('a Provider from its bare fields is stored with its envelope and defaults', async () => {
  const r = await create(
    'my-gateway',
    { name: 'my-gateway', base_url: 'https://llm.example.com/v1', api_key_name: 'GATEWAY_KEY', stray: 1 },
    'Provider',
  );
  assert.equal(r.status, 200, r.text);
  const stored = {
    _type: 'Provider',
    name: 'my-gateway',
    description: null,
    base_url: 'https://llm.example.com/v1',
    api_key_name: 'GATEWAY_KEY',
    extra_headers: {},
    return_type: 'openai',
    _class_name: 'Provider',
    _bases: ['BaseObject', 'BaseModel'],
  };
  assert.equal(r.body.digest, valDigest(stored));
  const read = await t.post('/obj/read', { project_id: P, object_id: 'my-gateway', digest: r.body.digest });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.obj.val, stored);
  assert.equal(read.body.obj.base_object_class, 'Provider');
  assert.equal(read.body.obj.leaf_object_class, 'Provider');
  const listed = await t.post('/objs/query', { project_id: P, filter: { base_object_classes: ['Provider'] } });
  assert.deepEqual(
    listed.body.objs.map((o: { object_id: string }) => o.object_id),
    ['my-gateway'],
  );
});

test('a ProviderModel from its bare fields; an older `mode` is dropped', async () => {
  const r = await create(
    'my-gateway-llama-3',
    { name: 'llama-3', provider: 'my-gateway', max_tokens: 4096, mode: 'chat' },
    'ProviderModel',
  );
  assert.equal(r.status, 200, r.text);
  const read = await t.post('/obj/read', { project_id: P, object_id: 'my-gateway-llama-3', digest: 'latest' });
  assert.deepEqual(read.body.obj.val, {
    _type: 'ProviderModel',
    name: 'llama-3',
    description: null,
    provider: 'my-gateway',
    max_tokens: 4096,
    _class_name: 'ProviderModel',
    _bases: ['BaseObject', 'BaseModel'],
  });
});

test('an invalid Provider or ProviderModel is a 400 saying what is wrong, and nothing is stored', async () => {
  const provider = { base_url: 'https://llm.example.com/v1', api_key_name: 'K' };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['Provider', { ...provider, base_url: 'https://llm.example.com/v1?key=1' }, /base_url is not a valid provider URL/],
    ['Provider', { ...provider, base_url: 'https://llm.example.com/v1?' }, /base_url is not a valid provider URL/],
    ['Provider', { ...provider, base_url: 'https://llm.example.com/v1#x' }, /base_url is not a valid provider URL/],
    ['Provider', { ...provider, base_url: 'ftp://llm.example.com/' }, /base_url is not a valid provider URL/],
    ['Provider', { ...provider, base_url: 'not a url' }, /base_url is not a valid provider URL/],
    ['Provider', { ...provider, extra_headers: { 'metadata-FLAVOR': 'Google' } }, /disallowed header/],
    ['Provider', { ...provider, extra_headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } }, /disallowed header/],
    ['Provider', { ...provider, extra_headers: { 'X-Team': 7 } }, /val\.extra_headers\.X-Team/],
    ['Provider', { base_url: 'https://llm.example.com/v1' }, /val\.api_key_name: required/],
    ['Provider', { ...provider, return_type: 'anthropic' }, /val\.return_type/],
    ['ProviderModel', { name: 'm', provider: 'p', max_tokens: 'many' }, /val\.max_tokens/],
    ['ProviderModel', { name: 'm', max_tokens: 10 }, /val\.provider: required/],
  ];
  for (const [cls, val, re] of cases) {
    const r = await create('bad-provider', val, cls);
    assert.equal(r.status, 400, `${JSON.stringify(val)}: ${r.text}`);
    assert.match(r.body.reason, re, JSON.stringify(val));
  }
  const stored = await t.post('/objs/query', { project_id: P, filter: { object_ids: ['bad-provider'] } });
  assert.deepEqual(stored.body.objs, []);
});

test('a Provider that already carries its envelope is kept as sent (Weave does not re-validate it)', async () => {
  const val = {
    _type: 'Provider',
    base_url: 'http://localhost:11434/v1',
    api_key_name: 'OLLAMA',
    _class_name: 'Provider',
    _bases: ['BaseObject', 'BaseModel'],
  };
  const r = await create('ollama', val, 'Provider');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.digest, valDigest(val));
});
