// Signals and monitors in the browser, on a real Weft whose judge is a loopback stand-in (a
// custom Provider allowed by WEFT_OUTBOUND_ALLOWED_HOSTS, its key a secret of the entity) and
// whose signals worker polls every 100 ms. With no signal yet, the Signals view links to creating
// one. A preset signal and a custom tag signal are created from the Monitors view; agent turns
// sent over /agents/otel/v1/traces are scored, and the Signals view lists them with their
// rating or tags and reason, filters them by scorer, tag, agent and rating (in the URL), shows
// each scorer's trend, and opens a turn in its conversation, where its signals show. A
// deactivated monitor scores no new turn; a judge without a key shows as failing, with its last
// error; a backfill scores the turns that were there before its monitor. A call monitor with its
// own judge prompt scores calls, and the call's Feedback tab shows the verdict. No request
// leaves Weft; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually, startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { agentTurn, type Judge, startJudge } from '../helpers/signals.js';
import { assertClean, launch, openPage, postOk, shot, tid } from './browser.js';
import { op, upsert } from './seed.js';
import { newId } from '../helpers/calls.js';

const ENTITY = 'ui-team';
const PROJECT = `${ENTITY}/signals`;
const MODEL = 'custom::judges::grader';
const TURN_ENDED = 'weave.genai.turn_ended';

/** The judge's answers, by what the prompt asks (and whether the turn is about a refund). */
function verdict(prompt: string): unknown {
  // The turn's own words (the custom tags' definitions say "refund" too).
  const refund = /my refund|no refund/.test(prompt);
  if (prompt.includes('These tags are defined'))
    return refund
      ? {
          scores: [
            { value: 'user-frustration', reason: 'Asked twice for the refund', confidence: 0.8 },
            { value: 'refund-request', reason: 'Wants the money back' },
          ],
        }
      : { scores: [] };
  if (prompt.includes('How satisfied is the user'))
    return refund
      ? { value: 0.25, reason: 'The user is upset about the refund' }
      : { value: 0.9, reason: 'The user thanked the agent' };
  if (prompt.includes("How good is the agent's answer")) return { value: 0.6, reason: 'An adequate answer' };
  if (prompt.includes('Grade this call')) return { score: 0.8, reason: 'Correct arithmetic' };
  return { value: 0.5 };
}

let w: WeftServer;
let judge: Judge;
let browser: Browser;

const post = (path: string, body: unknown) => postOk(w.url, path, body);

/** One agent turn of a conversation (an ended invoke_agent root with its messages); returns its trace id. */
async function sendTurn(agent: string, conversation: string, question: string, answer: string): Promise<string> {
  const { traceId, body } = agentTurn(agent, question, answer, { project: PROJECT, conversation });
  const r = await fetch(`${w.url}/agents/otel/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  assert.equal(r.status, 200, await r.text());
  return traceId;
}

/** The signals on a turn (rows with a rating or tags), as the scorer ids that gave them. */
async function turnSignals(traceId: string): Promise<string[]> {
  const { result } = await post('/feedback/query', {
    project_id: PROJECT,
    query: {
      $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${PROJECT}/agent_turn/${traceId}` }] },
    },
  });
  return (result as { runnable_ref: string; scorer_tags: string[]; scorer_ratings: Record<string, number> }[])
    .filter((r) => r.scorer_tags.length > 0 || Object.keys(r.scorer_ratings).length > 0)
    .map((r) => /\/object\/([^:]+):/.exec(r.runnable_ref)![1]!)
    .sort();
}

async function waitSignals(traceId: string, scorers: string[]) {
  let seen: string[] = [];
  try {
    await eventually(
      async () => JSON.stringify((seen = await turnSignals(traceId))) === JSON.stringify([...scorers].sort()),
      `${scorers.join(', ')} on ${traceId}`,
      30_000,
    );
  } catch (e) {
    const status = await post('/signals/status', { project_id: PROJECT });
    throw new Error(`${(e as Error).message}: saw ${seen.join(', ')}; ${JSON.stringify(status)}`);
  }
}

before(async () => {
  [judge, browser] = await Promise.all([startJudge(verdict), launch()]);
  w = await startWeftServer({ outboundAllowedHosts: [new URL(judge.url).host], signals: { pollMs: 100 } });
  await post('/admin/secrets/set', { entity: ENTITY, name: 'JUDGE_KEY', value: 'sk-judge' });
  await post('/obj/create', {
    obj: {
      project_id: PROJECT,
      object_id: 'judges',
      builtin_object_class: 'Provider',
      val: { name: 'judges', base_url: `${judge.url}/v1`, api_key_name: 'JUDGE_KEY' },
    },
  });
  await post('/obj/create', {
    obj: {
      project_id: PROJECT,
      object_id: 'judges-grader',
      builtin_object_class: 'ProviderModel',
      val: { name: 'grader', provider: 'judges', max_tokens: 200 },
    },
  });
});
after(async () => {
  await browser?.close();
  await w?.close();
  judge?.close();
});

const BASE = () => `${w.url}/ui/${PROJECT}`;
const monitorRow = (page: Page, id: string) => page.locator(`[data-testid=monitor-row][data-id="${id}"]`);
const clean = assertClean;
/** Light, then dark through the theme toggle (the view keeps its state), then light again. */
async function shotBothThemes(page: Page, name: string) {
  await shot(page, `${name}-light`);
  await tid(page, 'theme-toggle').click();
  await page.locator('html[data-theme=dark]').waitFor({ state: 'attached' });
  await shot(page, `${name}-dark`);
  await tid(page, 'theme-toggle').click();
  await page.locator('html[data-theme=light]').waitFor({ state: 'attached' });
}
/** Reloads until `n` signal rows show (the view also refreshes every 10 s on its own). */
async function waitRows(page: Page, n: number) {
  for (let i = 0; ; i++) {
    await page.locator('[data-testid=signal-row], [data-testid=signals-empty]').first().waitFor();
    if ((await tid(page, 'signal-row').count()) === n) return;
    if (i > 60) assert.equal(await tid(page, 'signal-row').count(), n, 'signal rows');
    await page.waitForTimeout(250);
    await page.reload();
  }
}
const rowTexts = (page: Page) =>
  page.$$eval('[data-testid=signal-row]', (rows) =>
    rows.map((r) => ({
      scorer: r.getAttribute('data-scorer'),
      trace: r.getAttribute('data-trace'),
      message: (r.querySelector('[data-col=message]') as HTMLElement).innerText,
      agent: (r.querySelector('[data-col=agent]') as HTMLElement).innerText,
      rating: r.querySelector('[data-testid=signal-rating]')?.getAttribute('data-rating') ?? null,
      tags: [...r.querySelectorAll('[data-testid=signal-tag]')].map((t) => t.getAttribute('data-tag')),
      reason: (r.querySelector('[data-col=reason]') as HTMLElement).innerText,
    })),
  );

test('with no signal yet, the Signals view says what a signal is and links to creating one', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/agents`);
  await tid(page, 'to-signals').click();
  await page.waitForURL(`${BASE()}/agents/signals`);
  await tid(page, 'signals-empty').waitFor();
  assert.equal(await tid(page, 'signals-empty').getAttribute('data-filtered'), 'false');
  await shotBothThemes(page, 'signals-empty');
  await tid(page, 'create-signal').click();
  await page.waitForURL((u) => u.pathname.endsWith('/monitors') && u.searchParams.get('new') === 'agent_turn');
  await tid(page, 'monitor-form').waitFor();
  await tid(page, 'preset').first().waitFor();
  assert.equal(await tid(page, 'preset').count(), 8, 'the eight presets');
  // A preset's id is the default name.
  await page.locator('[data-testid=preset][data-id=user-frustration]').click();
  assert.equal(await tid(page, 'monitor-name').inputValue(), 'user-frustration');
  await page.locator('[data-testid=preset][data-id=nsfw]').click();
  assert.equal(await tid(page, 'monitor-name').inputValue(), 'nsfw');
  await tid(page, 'monitor-form').evaluate((e) => e.scrollIntoView());
  await shotBothThemes(page, 'monitors-form-presets');
  clean(p);
  await p.context.close();
});

test('a preset signal and a custom tag signal are created from the Monitors view, and read back to edit', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/calls`);
  await tid(page, 'nav-monitors').click();
  await page.waitForURL(`${BASE()}/monitors`);
  await tid(page, 'no-monitors').waitFor();

  await tid(page, 'new-turn-monitor').click();
  await tid(page, 'monitor-name').fill('satisfaction');
  await page.locator('[data-testid=preset][data-id=user-satisfaction]').click();
  await tid(page, 'judge-model').selectOption(MODEL);
  await tid(page, 'monitor-save').click();
  await page.waitForURL((u) => !u.searchParams.has('new'));
  await monitorRow(page, 'satisfaction').waitFor();

  await tid(page, 'new-turn-monitor').click();
  await tid(page, 'monitor-name').fill('frustration');
  await tid(page, 'monitor-description').fill('Frustrated users and refund requests');
  await tid(page, 'scorer-custom_tags').click();
  await tid(page, 'tag-name').nth(0).fill('user-frustration');
  await tid(page, 'tag-definition').nth(0).fill('the user is annoyed, repeats a request or complains');
  await tid(page, 'tag-add').click();
  await tid(page, 'tag-name').nth(1).fill('refund-request');
  await tid(page, 'tag-definition').nth(1).fill('the user asks for money back');
  await tid(page, 'tag-add').click();
  await tid(page, 'tag-name').nth(2).fill('spam');
  await tid(page, 'tag-remove').nth(2).click();
  assert.equal(await tid(page, 'tag-row').count(), 2);
  await tid(page, 'judge-model').selectOption(MODEL);
  await shotBothThemes(page, 'monitors-form-custom-tags');
  await tid(page, 'monitor-save').click();
  await page.waitForURL((u) => !u.searchParams.has('new'));
  await monitorRow(page, 'frustration').waitFor();

  // As published: Monitor objects of turns, each with its scorer.
  const { objs } = await post('/objs/query', {
    project_id: PROJECT,
    filter: { leaf_object_classes: ['Monitor'], latest_only: true },
  });
  const byId = new Map((objs as any[]).map((o) => [o.object_id, o.val]));
  assert.deepEqual(byId.get('satisfaction').op_names, [TURN_ENDED]);
  assert.equal(byId.get('satisfaction').active, true);
  assert.equal(byId.get('frustration').description, 'Frustrated users and refund requests');
  const [scorer] = (await post('/refs/read_batch', { refs: byId.get('frustration').scorers })).vals;
  assert.match(scorer.scoring_prompt, /"user-frustration": the user is annoyed/);
  assert.match(scorer.scoring_prompt, /"refund-request": the user asks for money back/);
  assert.doesNotMatch(scorer.scoring_prompt, /spam/);

  const frustration = monitorRow(page, 'frustration');
  assert.equal(await frustration.locator('[data-testid=monitor-target]').getAttribute('data-target'), 'agent_turn');
  assert.match(
    await frustration.locator('[data-testid=monitor-scorer]').innerText(),
    /tags: user-frustration, refund-request/,
  );
  assert.match(
    await monitorRow(page, 'satisfaction').locator('[data-testid=monitor-scorer]').innerText(),
    /preset: User Satisfaction\s+custom::judges::grader/,
  );

  // Edit reads the monitor back into the form: its custom tags, its model, its name fixed.
  await frustration.locator('[data-testid=monitor-edit]').click();
  await page.waitForURL((u) => u.searchParams.get('edit') === 'frustration');
  await tid(page, 'tag-row').nth(1).waitFor();
  assert.equal(await tid(page, 'monitor-form').getAttribute('data-editing'), 'true');
  assert.deepEqual(
    await page.$$eval('[data-testid=tag-name]', (els) => els.map((e) => (e as HTMLInputElement).value)),
    ['user-frustration', 'refund-request'],
  );
  assert.equal(await tid(page, 'judge-model').inputValue(), MODEL);
  assert.equal(await tid(page, 'monitor-name').getAttribute('readonly'), '');
  await tid(page, 'monitor-cancel').click();
  await page.waitForURL(`${BASE()}/monitors`);
  await monitorRow(page, 'satisfaction').locator('[data-testid=monitor-edit]').click();
  await page.locator('[data-testid=preset][data-id=user-satisfaction] input:checked').waitFor();
  await tid(page, 'monitor-cancel').click();
  clean(p);
  await p.context.close();
});

let refund: string;
let thanks: string;

test('scored turns show in the Signals view: rating or tags, reason; filters in the URL; a row opens its turn', async () => {
  refund = await sendTurn('support', 'conv-refund', 'Where is my refund? I asked twice!', 'It is on its way.');
  thanks = await sendTurn('sales', 'conv-thanks', 'Thanks, that worked.', 'Glad to help!');
  await waitSignals(refund, ['frustration-scorer', 'satisfaction-scorer']);
  await waitSignals(thanks, ['satisfaction-scorer']);

  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/agents/signals`);
  await waitRows(page, 3);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=signal-row] [data-col=message]')].every((e) => e.textContent !== '…'),
  );
  const rows = await rowTexts(page);
  const find = (scorer: string, trace: string) => rows.find((r) => r.scorer === scorer && r.trace === trace);
  assert.deepEqual(find('satisfaction-scorer', refund), {
    scorer: 'satisfaction-scorer',
    trace: refund,
    message: 'It is on its way.',
    agent: 'support',
    rating: '0.25',
    tags: [],
    reason: 'The user is upset about the refund',
  });
  assert.deepEqual(find('frustration-scorer', refund)?.tags, ['refund-request', 'user-frustration']);
  assert.equal(
    find('frustration-scorer', refund)?.reason,
    'refund-request: Wants the money back · user-frustration: Asked twice for the refund',
  );
  assert.equal(find('satisfaction-scorer', thanks)?.rating, '0.9');
  assert.equal(find('satisfaction-scorer', thanks)?.agent, 'sales');
  // Each scorer's trend: the mean rating, or the tags given.
  const trend = (s: string) => page.locator(`[data-testid=scorer-trend][data-scorer="${s}"]`);
  assert.equal(await trend('satisfaction-scorer').getAttribute('data-kind'), 'rating');
  assert.equal(await trend('satisfaction-scorer').locator('[data-testid=trend-figure]').innerText(), 'mean 0.575');
  assert.equal(await trend('frustration-scorer').locator('[data-testid=trend-figure]').innerText(), '2 tags');
  await tid(page, 'score-timeline').locator('canvas').waitFor();
  await shotBothThemes(page, 'signals');

  // Filters, each in the URL: scorer, tag, agent, rating range.
  await tid(page, 'filter-scorer').selectOption('frustration-scorer');
  await page.waitForURL((u) => u.searchParams.get('scorer') === 'frustration-scorer');
  await waitRows(page, 1);
  assert.equal(await tid(page, 'signal-row').getAttribute('data-scorer'), 'frustration-scorer');
  assert.equal(await trend('frustration-scorer').getAttribute('aria-pressed'), 'true');
  await trend('frustration-scorer').click();
  await page.waitForURL((u) => !u.searchParams.has('scorer'));
  await waitRows(page, 3);
  await tid(page, 'filter-tag').selectOption('refund-request');
  await page.waitForURL((u) => u.searchParams.get('tag') === 'refund-request');
  await waitRows(page, 1);
  assert.deepEqual((await rowTexts(page))[0]!.tags, ['refund-request', 'user-frustration']);
  await page.goto(`${BASE()}/agents/signals?agent=sales`);
  await waitRows(page, 1);
  assert.equal(await tid(page, 'filter-agent').inputValue(), 'sales');
  await page.goto(`${BASE()}/agents/signals`);
  await waitRows(page, 3);
  await tid(page, 'filter-min').fill('0.5');
  await tid(page, 'filter-min').press('Enter');
  await page.waitForURL((u) => u.searchParams.get('min') === '0.5');
  await waitRows(page, 1);
  assert.equal((await rowTexts(page))[0]!.trace, thanks);
  // Nothing matches: said so, with a way back.
  await page.goto(`${BASE()}/agents/signals?tag=nsfw`);
  await tid(page, 'signals-empty').waitFor();
  assert.equal(await tid(page, 'signals-empty').getAttribute('data-filtered'), 'true');
  await tid(page, 'clear-filters').click();
  await page.waitForURL(`${BASE()}/agents/signals`);
  await waitRows(page, 3);

  // A row opens its turn in the conversation, where the turn's signals show.
  await page.locator(`[data-testid=signal-row][data-trace="${refund}"] [data-col=agent]`).first().click();
  await page.waitForURL(
    (u) => u.pathname.endsWith('/agents/conversations/conv-refund') && u.searchParams.get('turn') === refund,
  );
  await tid(page, 'turn-panel').waitFor();
  const signals = tid(page, 'turn-signal');
  await signals.nth(1).waitFor();
  const texts = await signals.allInnerTexts();
  assert.equal(texts.length, 2);
  assert.match(texts.find((t) => t.startsWith('satisfaction-scorer'))!, /0\.25\s+The user is upset about the refund/);
  assert.match(
    texts.find((t) => t.startsWith('frustration-scorer'))!,
    /refund-request\s+user-frustration\s+refund-request: Wants the money back/,
  );
  await shotBothThemes(page, 'conversation-signals');
  clean(p);
  await p.context.close();
});

test('a deactivated monitor scores no new turn; the others go on', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/monitors`);
  const row = monitorRow(page, 'satisfaction');
  await row.locator('[data-testid=monitor-status][data-status=ok]').waitFor();
  await row.locator('[data-testid=monitor-active-toggle]').click();
  await page.locator('[data-testid=monitor-row][data-id=satisfaction][data-active=false]').waitFor();
  assert.equal(await row.locator('[data-testid=monitor-active-toggle]').isChecked(), false);
  const read = await post('/obj/read', { project_id: PROJECT, object_id: 'satisfaction', digest: 'latest' });
  assert.equal(read.obj.val.active, false);
  assert.deepEqual(read.obj.val.op_names, [TURN_ENDED], 'the rest of the monitor as it was');

  const later = await sendTurn('support', 'conv-refund', 'Still no refund. Why?', 'Let me check again.');
  await waitSignals(later, ['frustration-scorer']);
  await new Promise((r) => setTimeout(r, 1000));
  assert.deepEqual(await turnSignals(later), ['frustration-scorer'], 'satisfaction is off');
  clean(p);
  await p.context.close();
});

test('a judge that fails shows the monitor failing, with its last error and when', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/monitors?new=agent_turn`);
  await tid(page, 'monitor-name').fill('quality-openai');
  await page.locator('[data-testid=preset][data-id=response-quality]').click();
  await tid(page, 'judge-model').selectOption('gpt-4o');
  await tid(page, 'judge-model-no-key').waitFor();
  assert.match(await tid(page, 'judge-model-no-key').innerText(), /OPENAI_API_KEY is not set for openai/);
  await tid(page, 'monitor-save').click();
  await page.waitForURL((u) => !u.searchParams.has('new'));
  const row = monitorRow(page, 'quality-openai');
  await row.waitFor();
  assert.equal(await row.locator('[data-testid=monitor-status]').getAttribute('data-status'), 'none');

  await sendTurn('support', 'conv-other', 'Can you help me?', 'Sure.');
  await row.locator('[data-testid=monitor-status][data-status=error]').waitFor();
  const error = await row.locator('[data-testid=monitor-last-error]').innerText();
  assert.match(error, /OPENAI_API_KEY/);
  assert.match(await row.locator('[data-testid=monitor-status]').innerText(), /Failing\s+just now/);
  await row.locator('[data-testid=monitor-jobs] [data-state=failed][data-count="1"]').waitFor();
  // The other monitors are fine.
  await monitorRow(page, 'frustration').locator('[data-testid=monitor-status][data-status=ok]').waitFor();
  await shotBothThemes(page, 'monitors');
  clean(p);
  await p.context.close();
});

test('a backfill scores the turns that came before the monitor; asked again, it queues nothing new', async () => {
  const { result } = await post('/feedback/query', { project_id: PROJECT, limit: 1000 });
  const turns = [...new Set((result as any[]).map((r) => r.span_trace_id))];
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/monitors?new=agent_turn`);
  await tid(page, 'monitor-name').fill('quality');
  await page.locator('[data-testid=preset][data-id=response-quality]').click();
  await tid(page, 'judge-model').selectOption(MODEL);
  await tid(page, 'monitor-save').click();
  await monitorRow(page, 'quality').waitFor();
  assert.deepEqual(await turnSignals(refund), ['frustration-scorer', 'satisfaction-scorer'], 'not scored yet');

  await monitorRow(page, 'quality').locator('[data-testid=monitor-backfill]').click();
  const panel = page.locator('[data-testid=backfill-panel][data-monitor=quality]');
  await panel.locator('[data-testid=backfill-range-1h]').click();
  await panel.locator('[data-testid=backfill-run]').click();
  await panel.locator('[data-testid=backfill-result]').waitFor();
  // Every turn of the last hour: those scored and the one the failing judge saw.
  const matched = Number(await panel.locator('[data-testid=backfill-result]').getAttribute('data-matched'));
  assert.ok(matched >= turns.length, `${matched} matched of ${turns.length}+ turns`);
  assert.equal(await panel.locator('[data-testid=backfill-result]').getAttribute('data-queued'), String(matched));
  await shot(page, 'monitors-backfill-light');
  await waitSignals(refund, ['frustration-scorer', 'quality-scorer', 'satisfaction-scorer']);
  await waitSignals(thanks, ['quality-scorer', 'satisfaction-scorer']);
  await panel.locator('[data-testid=backfill-run]').click();
  await panel.locator('[data-testid=backfill-result][data-queued="0"]').waitFor();

  await page.goto(`${BASE()}/agents/signals?scorer=quality-scorer`);
  await waitRows(page, matched);
  assert.ok((await rowTexts(page)).every((r) => r.rating === '0.6' && r.reason === 'An adequate answer'));
  clean(p);
  await p.context.close();
});

test("a call monitor with its own judge prompt scores calls; the call's Feedback tab shows the verdict", async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/monitors`);
  await tid(page, 'new-call-monitor').click();
  await page.waitForURL((u) => u.searchParams.get('new') === 'call');
  assert.equal(await tid(page, 'target-calls').getAttribute('aria-pressed'), 'true');
  assert.equal(await tid(page, 'scorer-preset').isDisabled(), true, 'presets read turns');
  await tid(page, 'monitor-name').fill('answer-grade');
  await tid(page, 'op-names').fill('answer');
  await tid(page, 'judge-kind-rating').check();
  await tid(page, 'judge-prompt').fill('Grade this call.\nQuestion: {question}\nAnswer: {output}');
  await tid(page, 'judge-model').selectOption(MODEL);
  await tid(page, 'monitor-save').click();
  const row = monitorRow(page, 'answer-grade');
  await row.waitFor();
  assert.equal(await row.locator('[data-testid=monitor-target]').getAttribute('data-target'), 'call');
  assert.match(await row.locator('[data-col=target]').innerText(), /Calls\s+answer/);
  assert.match(await row.locator('[data-testid=monitor-scorer]').innerText(), /judge \(rating\)/);

  const callId = newId();
  const t0 = Date.now();
  await upsert(w.url, PROJECT, [
    {
      id: callId,
      trace_id: newId(),
      op: op(PROJECT, 'answer'),
      started: t0,
      ended: t0 + 5,
      inputs: { question: '2+2?' },
      output: '4',
    },
  ]);
  const ref = `weave:///${PROJECT}/call/${callId}`;
  await eventually(
    async () => {
      const { result } = await post('/feedback/query', {
        project_id: PROJECT,
        query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref }] } },
      });
      return result.length > 0;
    },
    'the call scored',
    30_000,
  );
  assert.match(judge.asked.at(-1)!.body.messages.at(-1).content, /Question: 2\+2\?\nAnswer: 4/);
  await page.goto(`${BASE()}/calls/${callId}?tab=feedback`);
  const verdict = tid(page, 'feedback-verdict');
  await verdict.waitFor();
  assert.equal(await verdict.locator('[data-testid=signal-rating]').getAttribute('data-rating'), '0.8');
  assert.match(await verdict.innerText(), /Correct arithmetic/);
  assert.match(await tid(page, 'other-feedback').innerText(), /wandb\.runnable\.[\s\S]*answer-grade-scorer/);
  await shotBothThemes(page, 'call-feedback-signal');
  clean(p);
  await p.context.close();
});
