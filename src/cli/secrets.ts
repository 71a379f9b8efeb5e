// `weft secrets set|list|delete --entity ENTITY [NAME]`: an entity's secrets in the server's
// storage (docs/secrets.md), sealed with the same key the server uses (WEFT_SECRETS_KEY, else
// secrets.key in the data directory). `set` reads the value from standard input (one trailing
// newline dropped), so it never stands in the process list or the shell's history. Whoever can
// run this can read the database and the key anyway, so the CLI acts with full rights.
// Exit codes: 0 done; 1 failed (no such secret, a bad name or value); 2 usage.
import { parseArgs } from 'node:util';
import { argsError, configFrom, SETTINGS } from '../config.js';
import { openStore } from '../open-store.js';
import { OPEN_ACCESS } from '../service/auth/auth-access.js';
import { secretsKeySource } from '../service/secrets/secret-key.js';
import { createSecretsService } from '../service/secrets/secret-service.js';

export const SECRETS_USAGE = `usage:
  printf %s "$VALUE" | weft secrets set --entity ENTITY NAME   (the value from standard input)
  weft secrets list --entity ENTITY [--json]                    (names and dates, never values)
  weft secrets delete --entity ENTITY NAME
  The server's settings choose the storage and the key: --data-dir (WEFT_DATA_DIR), --engine
  clickhouse and --clickhouse-*, --secrets-key (WEFT_SECRETS_KEY); see weft --help.
  Exit codes: 0 done, 1 failed (no such secret, a bad name or value), 2 usage.
`;

export class SecretsUsageError extends Error {}

/** The server's own flags that say where the secrets live and what seals them. */
const SERVER = SETTINGS.filter(
  (s) => s.key === 'engine' || s.key === 'dataDir' || s.key === 'secretsKey' || s.key.startsWith('clickhouse'),
).map((s) => s.flag);
const OPTIONS = {
  ...Object.fromEntries(['entity', ...SERVER].map((f) => [f, { type: 'string' as const }])),
  json: { type: 'boolean' as const },
  help: { type: 'boolean' as const, short: 'h' },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export async function runSecrets(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    throw new SecretsUsageError(argsError(err).message);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v.help === true) {
    process.stdout.write(SECRETS_USAGE);
    return 0;
  }
  const [command, ...names] = parsed.positionals;
  if (command !== 'set' && command !== 'list' && command !== 'delete')
    throw new SecretsUsageError(`unknown secrets command ${command ?? '(none)'}`);
  const entity = typeof v.entity === 'string' && v.entity !== '' ? v.entity : null;
  if (entity === null) throw new SecretsUsageError(`secrets ${command} needs --entity`);
  if (command !== 'list' && names.length !== 1) throw new SecretsUsageError(`secrets ${command} needs one NAME`);
  if (command === 'list' && names.length > 0) throw new SecretsUsageError('secrets list takes no NAME');
  const config = configFrom(Object.fromEntries(SERVER.map((f) => [f, v[f]])), process.env);
  // Read before the storage opens: a value that cannot be read creates nothing.
  const value = command === 'set' ? await readStdin() : '';
  const store = await openStore(config, { inlineWrites: true });
  const secrets = createSecretsService({
    store: store.secrets,
    key: secretsKeySource(config.secretsKey, config.dataDir),
  });
  const out = (s: string) => process.stdout.write(`${s}\n`);
  try {
    if (command === 'set') {
      const r = await secrets.set({ entity, name: names[0]!, value }, OPEN_ACCESS, null);
      out(`set secret ${r.name} of entity ${r.entity} at ${r.updated_at}`);
    } else if (command === 'delete') {
      await secrets.delete(entity, names[0]!, OPEN_ACCESS);
      out(`deleted secret ${names[0]} of entity ${entity}`);
    } else {
      const { secrets: list } = await secrets.list(entity, OPEN_ACCESS);
      if (v.json === true) out(JSON.stringify(list));
      else {
        out(['name', 'created_at', 'updated_at'].join('\t'));
        for (const s of list) out([s.name, s.created_at, s.updated_at].join('\t'));
      }
    }
    return 0;
  } finally {
    await store.close();
  }
}
