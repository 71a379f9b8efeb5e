// `weft secrets` on a data directory: set reads the value from standard input and never prints
// it, list shows names only, delete of a missing secret exits 1, a bad name exits 1; a server
// on the same directory opens what the CLI sealed (the same secrets.key).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from './helpers/test-app.js';
import { CHILD_ENV, ROOT } from './helpers/weft-process.js';
import { createSecretsService } from '../src/service/secrets/secret-service.js';
import { secretsKeySource } from '../src/service/secrets/secret-key.js';

const VALUE = `sk-test-${randomBytes(12).toString('hex')}`;

test('weft secrets: set from standard input, list, delete; the server opens what the CLI sealed', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-secrets-cli-'));
  const weft = (input: string, ...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'secrets', ...args, '--data-dir', dataDir],
      {
        cwd: ROOT,
        encoding: 'utf8',
        input,
        env: CHILD_ENV,
      },
    );
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  try {
    const set = weft(`${VALUE}\n`, 'set', '--entity', 'acme', 'OPENAI_API_KEY');
    assert.equal(set.code, 0, set.err);
    assert.equal(set.out.includes(VALUE) || set.err.includes(VALUE), false);
    const list = weft('', 'list', '--entity', 'acme', '--json');
    assert.equal(list.code, 0, list.err);
    assert.deepEqual(
      JSON.parse(list.out).map((s: { name: string }) => s.name),
      ['OPENAI_API_KEY'],
    );
    const t = await startTestApp({ dataDir });
    try {
      const secrets = createSecretsService({ store: t.store.secrets, key: secretsKeySource(null, dataDir) });
      assert.equal(await secrets.value('acme', 'OPENAI_API_KEY'), VALUE);
    } finally {
      await t.close();
    }
    assert.equal(weft('', 'delete', '--entity', 'acme', 'OPENAI_API_KEY').code, 0);
    const again = weft('', 'delete', '--entity', 'acme', 'OPENAI_API_KEY');
    assert.equal(again.code, 1);
    assert.match(again.err, /has no secret OPENAI_API_KEY/);
    assert.equal(weft('', 'set', '--entity', 'acme', 'bad name').code, 1);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
