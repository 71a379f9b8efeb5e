// The dependency rule of docs/architecture.md: http -> service -> storage interfaces;
// engines -> storage interfaces, query plan, dialect; api imports nothing of Weft's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

/** Weft-internal imports of a file, as paths relative to src/. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from\s+'(\.[^']+)'/g)].map((m) => relative(SRC, resolve(dirname(file), m[1]!)));
}

const layer = (p: string) => p.split('/')[0]!;
/** The engines' folders under storage/; the others hold the engine-neutral interfaces by resource. */
const ENGINE_DIRS = ['sqlite', 'clickhouse'];

test('api/ imports nothing but api/', () => {
  for (const f of files(join(SRC, 'api'))) {
    for (const imp of imports(f)) assert.equal(layer(imp), 'api', `${relative(SRC, f)} imports ${imp}`);
  }
});

test('storage/ never imports service/ or http/, and engines never import each other', () => {
  for (const f of files(join(SRC, 'storage'))) {
    const rel = relative(SRC, f);
    const engine = rel.split('/')[1];
    for (const imp of imports(f)) {
      assert.ok(!['service', 'http'].includes(layer(imp)), `${rel} imports ${imp}`);
      const parts = imp.split('/');
      if (parts[0] === 'storage' && ENGINE_DIRS.includes(parts[1]!) && engine !== parts[1]) {
        assert.fail(`${rel} (engine ${engine}) imports another engine: ${imp}`);
      }
    }
  }
});

test('query/ never imports storage/, service/ or http/: engines depend on the plan, not the other way', () => {
  for (const f of files(join(SRC, 'query'))) {
    for (const imp of imports(f))
      assert.ok(!['storage', 'service', 'http'].includes(layer(imp)), `${relative(SRC, f)} imports ${imp}`);
  }
});

test('query/ and service/ never import http/', () => {
  for (const dir of ['query', 'service']) {
    for (const f of files(join(SRC, dir))) {
      for (const imp of imports(f)) assert.notEqual(layer(imp), 'http', `${relative(SRC, f)} imports ${imp}`);
    }
  }
});

test('ui/ reaches the server code only for types of src/api', () => {
  const UI = resolve(SRC, '..', 'ui', 'src');
  const uiFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? uiFiles(p) : /\.tsx?$/.test(p) ? [p] : [];
    });
  let seen = 0;
  for (const f of uiFiles(UI)) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/^(import|export)( type)?[^'"]*from\s+'(\.[^']+)'/gm)) {
      const target = resolve(dirname(f), m[3]!);
      if (target.startsWith(UI)) continue;
      seen++;
      assert.ok(target.startsWith(`${join(SRC, 'api')}/`), `${relative(UI, f)} imports ${m[3]}`);
      assert.equal(m[2], ' type', `${relative(UI, f)}: only types may come from src/api (${m[3]})`);
    }
  }
  assert.ok(seen > 0, 'the UI takes its API types from src/api');
});

test('storage/ holds store.ts at its root and the interfaces by resource, with no import cycle', () => {
  const STORAGE = join(SRC, 'storage');
  const rootFiles = readdirSync(STORAGE).filter((n) => !statSync(join(STORAGE, n)).isDirectory());
  assert.deepEqual(rootFiles, ['store.ts'], 'every other interface lives in the folder of its resource');
  const shared = files(STORAGE).filter((f) => !ENGINE_DIRS.includes(relative(STORAGE, f).split('/')[0]!));
  const edges = new Map(
    shared.map((f) => [relative(SRC, f).replace(/\.ts$/, ''), imports(f).map((i) => i.replace(/\.js$/, ''))]),
  );
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]): void => {
    if (state.get(node) === 'done') return;
    assert.notEqual(state.get(node), 'open', `import cycle: ${[...path, node].join(' -> ')}`);
    state.set(node, 'open');
    for (const next of edges.get(node) ?? []) if (edges.has(next)) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of edges.keys()) visit(node, []);
  assert.ok(edges.size > 20, 'the interfaces were found');
});
