// The browser tests drive Debian's Chromium at /usr/bin/chromium (never a downloaded
// browser). When it is missing, install it with apt-get if we can (root, Debian), else say
// how and fail: a browser test that does not run is not a pass.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const CHROMIUM = process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `The browser tests need Chromium at ${CHROMIUM}: sudo apt-get install -y chromium (or set WEFT_CHROMIUM).`,
    );
    process.exit(1);
  }
  console.error("Installing Debian's chromium (and an emoji font) for the browser tests...");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const opts = { stdio: ['ignore', 'ignore', 'inherit'], env };
  if (
    spawnSync('apt-get', ['update', '-qq'], opts).status !== 0 ||
    spawnSync(
      'apt-get',
      ['install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-noto-color-emoji'],
      opts,
    ).status !== 0 ||
    !existsSync(CHROMIUM)
  ) {
    console.error('Installing chromium failed.');
    process.exit(1);
  }
}
