// The Agents views in Chromium over what a real Strands Swarm sent (the GenAI convention; its
// session named only by `session.id`): the swarm's card as an orchestrator with its members,
// its page with the members' figures inside its runs and each run's hand-offs in order, and a
// run opening its turn in the session's conversation. Both themes are screenshotted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startFrameworkRig, type FrameworkRig } from '../helpers/agent-frameworks.js';
import { finalAnswer, USAGE } from '../helpers/model-standin.js';
import { QUESTIONS, runStrandsSwarm } from '../helpers/strands.js';
import { launch, openPage, shot } from './browser.js';

const ENTITY = 'ui-swarm';
const NAME = 'weather';
const BASE = `/ui/${ENTITY}/${NAME}`;
const SESSION = 'sess-ui-swarm';
let rig: FrameworkRig;
let browser: Browser;

before(async () => {
  rig = await startFrameworkRig();
  browser = await launch();
  await runStrandsSwarm(rig, `${ENTITY}/${NAME}`, SESSION);
});
after(async () => {
  await browser?.close();
  await rig?.close();
});

const weatherIn = 2 * (USAGE.tool.input + USAGE.final.input);
const triageIn = 2 * USAGE.handoff.input;

test('a Swarm reads as an orchestrator: its members, its runs as hand-offs, a run opening its turn', async () => {
  const origin = rig.weft.url;
  const { page, context, errors, external } = await openPage(browser, origin);
  await page.goto(`${origin}${BASE}/agents?sort=name`);
  const card = page.locator('[data-testid=agent-card][data-agent=weather_swarm]');
  await card.waitFor();
  assert.match(await card.locator('header').innerText(), /weather_swarm\s+orchestrator/);
  assert.equal(await card.locator('[data-testid=agent-members]').innerText(), 'runs triage_agent, weather_agent');
  assert.equal(await card.locator('[data-figure=Invocations] dd').innerText(), '2');
  assert.equal(await card.locator('[data-figure=Turns] dd').innerText(), '2');
  assert.equal(
    await page.locator('[data-agent=weather_agent] [data-figure=Tokens] dd').innerText(),
    `${weatherIn} in / ${2 * (USAGE.tool.output + USAGE.final.output)} out`,
  );
  assert.equal(await page.locator('[data-agent=weather_agent] [data-testid=agent-members]').count(), 0);
  await shot(page, 'agents-swarm-light');

  await card.locator('header a').click();
  await page.waitForURL(`${origin}${BASE}/agents/weather_swarm`);
  await page.locator('[data-testid=agent-kind]').waitFor();
  const members = page.locator('[data-testid=members] tr[data-member]');
  await members.nth(1).waitFor();
  assert.deepEqual(
    await members.evaluateAll((els) => els.map((e) => e.getAttribute('data-member'))),
    ['triage_agent', 'weather_agent'],
    'members in the order they first ran',
  );
  const cell = (member: string, col: string) =>
    page.locator(`[data-testid=members] tr[data-member=${member}] [data-col=${col}]`).innerText();
  assert.equal(await cell('triage_agent', 'invocations'), '2');
  assert.equal(await cell('triage_agent', 'tokens'), `${triageIn} / ${2 * USAGE.handoff.output}`);
  assert.equal(await cell('weather_agent', 'tokens'), `${weatherIn} / ${2 * (USAGE.tool.output + USAGE.final.output)}`);
  const runs = page.locator('[data-testid=handoffs] li');
  await runs.nth(1).waitFor();
  assert.deepEqual(await page.locator('[data-testid=handoffs] [data-col=members]').allInnerTexts(), [
    'triage_agent → weather_agent',
    'triage_agent → weather_agent',
  ]);
  // The session's conversation is the swarm's too: both turns.
  await page.locator('[data-testid=conversations] tr[data-id]').first().waitFor();
  assert.deepEqual(
    await page
      .locator('[data-testid=conversations] tr[data-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))),
    [SESSION],
  );
  const conversation = page.locator(`[data-testid=conversations] tr[data-id=${SESSION}]`);
  const total = triageIn + weatherIn + 2 * (USAGE.handoff.output + USAGE.tool.output + USAGE.final.output);
  assert.equal(await conversation.locator('[data-col=tokens]').innerText(), String(total), "its members' tokens");
  await shot(page, 'agent-swarm-light');
  const dark = await openPage(browser, origin, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=handoffs] li').nth(1).waitFor();
  await shot(dark.page, 'agent-swarm-dark');
  await dark.context.close();

  // The latest run (the second question) opens its turn in the conversation.
  await runs.first().locator('a').click();
  await page.waitForURL(new RegExp(`${BASE}/agents/conversations/${SESSION}\\?turn=`));
  const body = page.locator('body');
  await page.getByText(QUESTIONS[1][0]).first().waitFor();
  const text = await body.innerText();
  assert.ok(text.includes(QUESTIONS[0][0]), 'the first turn is in the conversation too');
  assert.ok(text.includes('triage_agent') && text.includes('weather_agent'));
  assert.ok(text.includes('strands_structured_output'), 'the hand-off is shown as the tool call it was');
  for (const [, city] of QUESTIONS)
    assert.ok(text.includes(finalAnswer(city)), `the answer about ${city} reads as the agent's message`);
  await shot(page, 'agent-swarm-turn-light');
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});
