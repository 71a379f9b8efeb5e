// Drives Debian's Chromium (/usr/bin/chromium) with playwright-core against a real Weft on a
// real port. No browser download; no network: every host but 127.0.0.1 fails to resolve,
// and each page records any request that leaves the Weft origin.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium';
/** Where screenshots go, to be looked at (not compared). */
export const SHOTS = process.env.WEFT_UI_SHOTS ?? join(tmpdir(), 'weft-ui-shots');

export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
}

export async function launch(): Promise<Browser> {
  requireChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
}

export interface UiPage {
  page: Page;
  context: BrowserContext;
  /** Requests to any origin but Weft's. */
  external: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

export async function openPage(
  browser: Browser,
  origin: string,
  opts: { theme?: 'light' | 'dark' } = {},
): Promise<UiPage> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    colorScheme: opts.theme ?? 'light',
  });
  // The suite runs several files at once on two cores: waits allow for that (no test times).
  context.setDefaultTimeout(60_000);
  // Long tasks after load, logged by the tests that load much (bench/ui.ts checks the target).
  await context.addInitScript(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) (window as unknown as { __longTasks: number[] }).__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const external: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) external.push(u);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, context, external, errors };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Every screenshot is also a contrast check: axe-core's color-contrast rule (WCAG 2 AA: 4.5:1,
 * 3:1 for large text) over the page as shot, so each view is checked in each theme it is shot
 * in. The script is evaluated through the DevTools protocol, which the page's CSP (no inline
 * scripts) does not govern.
 */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  await assertContrast(page, name);
}

export async function assertContrast(page: Page, name: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const failures = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: any }).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'rule', values: ['color-contrast'] },
      resultTypes: ['violations'],
    });
    return r.violations.flatMap((v: any) =>
      v.nodes.map(
        (n: any) => `${n.target.join(' ')}: ${String(n.any?.[0]?.message ?? n.failureSummary).split('\n')[0]}`,
      ),
    ) as string[];
  });
  assert.deepEqual(failures, [], `${name}: text below WCAG AA contrast`);
}

/** The time of a performance mark the app sets, in ms from navigation (null: not set). */
export async function mark(page: Page, name: string): Promise<number | null> {
  return page.evaluate((n) => performance.getEntriesByName(n)[0]?.startTime ?? null, name);
}

/** The data-id attributes of the rows matching `selector`, in DOM order by their index. */
export async function ids(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (els) =>
    els
      .map((e) => [Number(e.getAttribute('data-index') ?? 0), e.getAttribute('data-id') ?? ''] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, id]) => id),
  );
}

/** The element of a `data-testid`. */
export const tid = (page: Page, id: string) => page.locator(`[data-testid=${id}]`);

/** Nothing left the host and nothing was logged as an error while the page ran. */
export function assertClean(p: UiPage): void {
  assert.deepEqual(p.external, [], 'requests outside Weft');
  assert.deepEqual(p.errors, [], 'console errors');
}

/** POSTs JSON to a running server, asserts a 200 and answers the parsed body. */
export async function postOk(base: string, path: string, body: unknown): Promise<any> {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  assert.equal(r.status, 200, `${path}: ${text}`);
  return JSON.parse(text);
}
