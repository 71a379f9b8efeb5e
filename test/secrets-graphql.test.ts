// The Weave UI's way to save a provider key, W&B's GraphQL mutation insertSecret, and its query
// of an entity's secret names, on either engine: an admin of the entity sets one (the local
// user in open mode), a writer or another entity's admin gets a GraphQL error and nothing is
// stored, and the value reaches neither the answer nor a log line, even at debug level.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { bearer, startTestApp } from './helpers/test-app.js';

const VALUE = `sk-graphql-${randomBytes(12).toString('hex')}`;

// As the Weave UI sends them (ProviderConfigDrawer / useSecrets).
const INSERT = `
  mutation insertSecret($entityName: String!, $secretName: String!, $secretValue: String!) {
    insertSecret(input: { entityName: $entityName, secretName: $secretName, secretValue: $secretValue }) {
      success
    }
  }`;
const SECRETS = `
  query secrets($entityName: String!) {
    entity(name: $entityName) { id secrets { entityId name createdAt } }
  }`;

test('insertSecret stores a sealed secret the server then uses; entity.secrets lists names only', async () => {
  const lines: string[] = [];
  const t = await startTestApp({
    keys: [
      { user: 'boss', entity: 'acme', role: 'admin' },
      { user: 'dev', entity: 'acme', role: 'writer' },
      { user: 'rival', entity: 'globex', role: 'admin' },
    ],
    log: { level: 'debug', destination: { write: (chunk: string) => void lines.push(chunk) } },
  });
  try {
    const [boss, dev, rival] = t.keys.map((k) => bearer(k.key));
    const variables = { entityName: 'acme', secretName: 'OPENAI_API_KEY', secretValue: VALUE };
    const ok = await t.post('/graphql', { query: INSERT, variables }, boss);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body, { data: { insertSecret: { success: true } } });

    for (const who of [dev, rival]) {
      const refused = await t.post(
        '/graphql',
        { query: INSERT, variables: { ...variables, secretName: 'OTHER', secretValue: 'x' } },
        who,
      );
      assert.equal(refused.status, 200, refused.text);
      assert.match(refused.body.errors[0].message, /No admin role on entity acme/);
      assert.equal(refused.body.data.insertSecret, null);
    }
    const bad = await t.post('/graphql', { query: INSERT, variables: { ...variables, secretName: '1 bad' } }, boss);
    assert.match(bad.body.errors[0].message, /Invalid secret name/);
    const missing = await t.post('/graphql', { query: INSERT, variables: { entityName: 'acme' } }, boss);
    assert.match(missing.body.errors[0].message, /secretName/);

    const listed = await t.post('/graphql', { query: SECRETS, variables: { entityName: 'acme' } }, boss);
    assert.equal(listed.body.data.entity.secrets.length, 1);
    assert.equal(listed.body.data.entity.secrets[0].name, 'OPENAI_API_KEY');
    assert.equal(listed.body.data.entity.secrets[0].entityId, 'acme');
    assert.match(listed.body.data.entity.secrets[0].createdAt, /^\d{4}-\d\d-\d\dT/);
    // A writer sees the entity, not its secrets.
    const writer = await t.post('/graphql', { query: SECRETS, variables: { entityName: 'acme' } }, dev);
    assert.match(writer.body.errors[0].message, /No admin role on entity acme/);
    const admin = await t.post('/admin/secrets/list', { entity: 'acme' }, boss);
    assert.deepEqual(
      admin.body.secrets.map((s: { name: string }) => s.name),
      ['OPENAI_API_KEY'],
    );
    assert.ok(
      lines.some((l) => l.includes('/graphql')),
      'the requests were logged',
    );
    for (const text of [ok.text, listed.text, admin.text, lines.join('\n')])
      assert.ok(!text.includes(VALUE), 'the value left the server');
  } finally {
    await t.close();
  }
});

test('open mode: the local user sets an entity secret through GraphQL', async () => {
  const t = await startTestApp();
  try {
    const r = await t.post('/graphql', {
      query: INSERT,
      variables: { entityName: 'team', secretName: 'ANTHROPIC_API_KEY', secretValue: VALUE },
    });
    assert.deepEqual(r.body, { data: { insertSecret: { success: true } } });
    const listed = await t.post('/admin/secrets/list', { entity: 'team' });
    assert.equal(listed.body.secrets[0].name, 'ANTHROPIC_API_KEY');
  } finally {
    await t.close();
  }
});
