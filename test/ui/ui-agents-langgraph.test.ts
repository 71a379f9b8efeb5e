// The Agents views in Chromium over what a real LangGraph app sent through OpenInference (no
// GenAI attributes at all): the graph as an agent card, and its thread opening as a chat of
// two turns with the user's questions, the tool call with its arguments and result, and the
// answers. Both themes are screenshotted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startFrameworkRig, type FrameworkRig } from '../helpers/agent-frameworks.js';
import { QUESTIONS, runLangGraph } from '../helpers/langgraph.js';
import { finalAnswer, USAGE } from '../helpers/model-standin.js';
import { launch, openPage, shot } from './browser.js';

const ENTITY = 'ui-langgraph';
const NAME = 'weather';
const BASE = `/ui/${ENTITY}/${NAME}`;
const THREAD = 'thread-ui-lg';
let rig: FrameworkRig;
let browser: Browser;

before(async () => {
  rig = await startFrameworkRig();
  browser = await launch();
  await runLangGraph(rig, `${ENTITY}/${NAME}`, THREAD);
});
after(async () => {
  await browser?.close();
  await rig?.close();
});

test("a LangGraph thread reads as a conversation: questions, the tool's arguments and result, answers", async () => {
  const origin = rig.weft.url;
  const { page, context, errors, external } = await openPage(browser, origin);
  await page.goto(`${origin}${BASE}/agents`);
  const card = page.locator('[data-testid=agent-card][data-agent=weather_agent]');
  await card.waitFor();
  assert.equal(await card.locator('[data-figure=Invocations] dd').innerText(), '2');
  assert.equal(await card.locator('[data-figure=Conversations] dd').innerText(), '1');
  const tokensIn = 2 * (USAGE.tool.input + USAGE.final.input);
  const tokensOut = 2 * (USAGE.tool.output + USAGE.final.output);
  assert.equal(await card.locator('[data-figure=Tokens] dd').innerText(), `${tokensIn} in / ${tokensOut} out`);

  await page.goto(`${origin}${BASE}/agents/conversations/${THREAD}`);
  await page.getByText(finalAnswer('Berlin')).first().waitFor();
  const text = await page.locator('body').innerText();
  for (const [question, city] of QUESTIONS) {
    assert.ok(text.includes(question), `the question "${question}"`);
    assert.ok(text.includes(finalAnswer(city)), `the answer about ${city}`);
  }
  assert.match(text, /2 turns/);
  // A tool call shows its name and arguments; unfolded, its result.
  const tool = page.locator('button, summary, div', { hasText: /^get_weather/ }).first();
  assert.ok((await page.getByText('get_weather').count()) >= 2, 'a tool call in each turn');
  await tool.click();
  await page.getByText('"sky"').first().waitFor();
  const unfolded = await page.locator('body').innerText();
  assert.match(unfolded, /"sky":\s*"sunny"/, "the tool's result, unfolded");
  await shot(page, 'agents-langgraph-light');
  const dark = await openPage(browser, origin, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.getByText(finalAnswer('Berlin')).first().waitFor();
  await shot(dark.page, 'agents-langgraph-dark');
  await dark.context.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});
