// Where Weft's package is on disk, found by walking up from a module's directory: the code
// runs from src/ (tsx), from dist/ after `npm run build`, and from other build directories
// (the benchmarks build into bench/.data/dist), so no fixed relative path fits them all.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest directory at or above `from` whose package.json names the package "weft", or null. */
export function findPackageRoot(from: string): string | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'weft')
        return dir;
    } catch {
      // No package.json here, or not JSON: keep walking up.
    }
    if (dirname(dir) === dir) return null;
  }
}

/** The version in Weft's package.json, or "unknown" when the package cannot be found. */
export function weftVersion(): string {
  const root = findPackageRoot(import.meta.dirname);
  if (root === null) return 'unknown';
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
}
