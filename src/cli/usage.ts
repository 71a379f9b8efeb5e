// What `weft --help` prints. The options come from config.ts's SETTINGS, the one table of
// flags and environment variables, so the help cannot drift from them.
import { DEFAULTS, SETTINGS } from '../config.js';

const shown = (v: unknown): string => (v === null ? 'none' : String(v));

export function serverUsage(): string {
  const rows = SETTINGS.map(
    (s) => [`--${s.flag}${s.value ? ` ${s.value}` : ''}`, s.env, shown(DEFAULTS[s.key]), s.help] as const,
  );
  const width = (i: number) => Math.max(...rows.map((r) => r[i]!.length));
  const [w0, w1, w2] = [width(0), width(1), width(2)];
  const lines = rows.map(
    ([flag, env, def, help]) => `  ${flag.padEnd(w0)}  ${env.padEnd(w1)}  ${def.padEnd(w2)}  ${help}`,
  );
  return `usage: weft [options]            start the server
       weft keys ...              create, list and revoke API keys (weft keys --help)
       weft secrets ...           set, list and delete an entity's secrets (weft secrets --help)
       weft copy ...              copy every project between SQLite and ClickHouse (weft copy --help)
       weft backup FILE ...       a consistent copy of the SQLite database (weft backup --help)
       weft --help | --version

options (each also an environment variable; a flag wins over its variable):
  ${'flag'.padEnd(w0)}  ${'variable'.padEnd(w1)}  ${'default'.padEnd(w2)}  meaning
${lines.join('\n')}

Exit codes: 0 stopped cleanly, 1 failed (the reason on stderr), 2 usage.
`;
}
