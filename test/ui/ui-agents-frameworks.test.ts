// The Agents views in Chromium over what a real LangGraph app sent through OpenInference (no
// GenAI attributes at all): the graph as an agent card, and its thread opening as a chat of
// two turns with the user's questions, the tool call with its arguments and result, and the
// answers. Both themes are screenshotted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startFrameworkRig, type FrameworkRig } from '../helpers/agent-frameworks.js';
import { QUESTIONS, runLangGraph } from '../helpers/langgraph.js';
import { finalAnswer, forecast, USAGE } from '../helpers/model-standin.js';
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

/** Opens every tool call of the page (folded by default) and waits for their results. */
async function unfoldTools(page: Page): Promise<void> {
  const tools = page.locator('details[data-kind=tool]');
  await tools.first().waitFor();
  for (let i = 0; i < (await tools.count()); i++) await tools.nth(i).locator('summary').click();
  await page
    .getByText('"sky"')
    .nth((await tools.count()) - 1)
    .waitFor();
}

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
  await unfoldTools(page);
  const turns = page.locator('[data-testid=turn]');
  assert.equal(await turns.count(), 2);
  for (const [i, [question, city]] of QUESTIONS.entries()) {
    const turn = turns.nth(i);
    assert.ok((await turn.innerText()).includes(question), `turn ${i + 1} asks "${question}"`);
    const tool = turn.locator('details[data-kind=tool]');
    assert.equal(await tool.count(), 1, `turn ${i + 1}: one tool call`);
    // Unfolded: its name, the arguments LangChain passed (the city) and the forecast it returned.
    const shown = await tool.innerText();
    assert.match(shown, new RegExp(`^get_weather\\s+${city}`), 'the name and the arguments, folded');
    assert.match(shown, new RegExp(`Arguments\\s+${city}\\s+Result`, 'i'));
    const { sky, celsius } = forecast(city);
    assert.match(shown, new RegExp(`"sky":\\s*"${sky}",\\s*"celsius":\\s*${celsius}`), "the tool's result");
    assert.ok((await turn.innerText()).includes(finalAnswer(city)), `turn ${i + 1} answers about ${city}`);
  }
  await shot(page, 'agents-langgraph-light');
  const dark = await openPage(browser, origin, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.getByText(finalAnswer('Berlin')).first().waitFor();
  await unfoldTools(dark.page);
  await shot(dark.page, 'agents-langgraph-dark');
  await dark.context.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});
