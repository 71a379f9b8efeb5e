// findPackageRoot walks up to the nearest package.json that names "weft", past other
// packages' and unreadable ones; weftVersion reads this package's version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPackageRoot, weftVersion } from './package-root.js';

test('findPackageRoot: the nearest package.json naming weft, or null', () => {
  const root = mkdtempSync(join(tmpdir(), 'weft-pkgroot-'));
  try {
    const deep = join(root, 'bench', '.data', 'dist', 'http');
    mkdirSync(deep, { recursive: true });
    assert.equal(findPackageRoot(deep), null, 'no package.json up to /');
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'weft', version: '9.9.9' }));
    writeFileSync(join(root, 'bench', 'package.json'), JSON.stringify({ name: 'other' }));
    writeFileSync(join(root, 'bench', '.data', 'package.json'), '{ not json');
    assert.equal(findPackageRoot(deep), root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("weftVersion is this package's version", () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
  assert.equal(weftVersion(), pkg.version);
});
