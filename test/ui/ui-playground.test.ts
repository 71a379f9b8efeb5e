// The model playground and the providers page, on a real Weft whose only model provider is the
// loopback stand-in (a custom Provider allowed by WEFT_OUTBOUND_ALLOWED_HOSTS, its key a secret
// of the entity). A stored OpenAI call opens from its detail view, runs streamed with its
// tokens, cost, times and recorded call; messages are edited and reordered; two models answer
// side by side, a model without a key fails in place; an Anthropic call's tools come over as
// OpenAI tools; an agent's chat span opens too; messages saved as a MessagesPrompt version are
// followed with template variables and loaded back by version; the providers page adds a
// provider and a model, says which key is missing and lets an admin set it without ever
// showing it (and tells a non-admin who can). No request leaves Weft; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually, startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { newId } from '../helpers/calls.js';
import { hexId, otlpJson } from '../helpers/agent-spans.js';
import { PLAIN_ANSWER, startModelStandin, USAGE, type ModelStandin } from '../helpers/model-standin.js';
import { startTestApp } from '../helpers/test-app.js';
import { assertClean, launch, openPage, postOk, shot, tid } from './browser.js';
import { op, upsert } from './seed.js';

const ENTITY = 'ui-team';
const PROJECT = `${ENTITY}/playground`;
const MODEL = 'custom::standin::gpt-standin';
const MODEL_2 = 'custom::standin::gpt-standin-2';
const SECRET = `sk-standin-${hexId(12)}`;
const PRICE = { prompt: 0.001, completion: 0.002 };
const weatherTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

let w: WeftServer;
let standin: ModelStandin;
let browser: Browser;
/** A stored OpenAI chat call (no tools: the stand-in answers in plain text). */
let openaiCall: string;
/** A stored Anthropic Messages call offering the weather tool. */
let anthropicCall: string;
/** An agent's chat span, `<trace id>:<span id>`. */
let chatSpan: string;

const post = (path: string, body: unknown) => postOk(w.url, path, body);

before(async () => {
  [standin, browser] = await Promise.all([startModelStandin(), launch()]);
  w = await startWeftServer({ outboundAllowedHosts: [new URL(standin.url).host] });
  const base = { project_id: PROJECT };
  await post('/obj/create', {
    obj: {
      ...base,
      object_id: 'standin',
      builtin_object_class: 'Provider',
      val: { name: 'standin', base_url: `${standin.url}/v1`, api_key_name: 'STANDIN_KEY' },
    },
  });
  for (const name of ['gpt-standin', 'gpt-standin-2'])
    await post('/obj/create', {
      obj: {
        ...base,
        object_id: `standin-${name}`,
        builtin_object_class: 'ProviderModel',
        val: { name, provider: 'standin', max_tokens: 512 },
      },
    });
  await post('/admin/secrets/set', { entity: ENTITY, name: 'STANDIN_KEY', value: SECRET });
  await post('/cost/create', {
    ...base,
    costs: {
      'standin/gpt-standin': {
        prompt_token_cost: PRICE.prompt,
        completion_token_cost: PRICE.completion,
        effective_date: '2020-01-01T00:00:00Z',
      },
    },
  });
  const t0 = Date.UTC(2026, 10, 20, 12);
  openaiCall = newId();
  anthropicCall = newId();
  await upsert(w.url, PROJECT, [
    {
      id: openaiCall,
      trace_id: newId(),
      op: op(PROJECT, 'openai.chat.completions.create'),
      started: t0,
      ended: t0 + 800,
      inputs: {
        model: MODEL,
        messages: [
          { role: 'system', content: 'You are a weather bot.' },
          { role: 'user', content: 'Hello there' },
        ],
        temperature: 0.2,
        max_tokens: 100,
      },
      output: {
        object: 'chat.completion',
        model: 'gpt-standin',
        choices: [{ index: 0, message: { role: 'assistant', content: PLAIN_ANSWER }, finish_reason: 'stop' }],
      },
      summary: { usage: { 'standin/gpt-standin': { prompt_tokens: 7, completion_tokens: 3, requests: 1 } } },
    },
    {
      id: anthropicCall,
      trace_id: newId(),
      op: op(PROJECT, 'anthropic.Messages.create'),
      started: t0 + 1000,
      ended: t0 + 1800,
      inputs: {
        model: MODEL,
        system: [{ type: 'text', text: 'You forecast.' }],
        max_tokens: 256,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
        tools: [weatherTool],
      },
      output: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Sunny.' }] },
    },
  ]);
  const traceId = hexId(16);
  const spanId = hexId(8);
  const r = await fetch(`${w.url}/agents/otel/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: otlpJson({ 'wandb.entity': ENTITY, 'wandb.project': 'playground' }, [
      {
        traceId,
        spanId,
        name: 'chat gpt-standin',
        startMs: t0,
        endMs: t0 + 300,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.conversation.id': 'conv-rome',
          'gen_ai.request.model': MODEL,
          'gen_ai.request.temperature': 0.4,
          'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'You are terse.' }]),
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'Tell me about Rome' }] },
          ]),
        },
      },
    ]),
  });
  assert.equal(r.status, 200, await r.text());
  chatSpan = `${traceId}:${spanId}`;
  await eventually(async () => {
    const q = await post('/agents/spans/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'span_id' }, { $literal: spanId }] } },
    });
    return q.spans.length === 1 ? true : null;
  }, 'the chat span');
});
after(async () => {
  await browser?.close();
  await w?.close();
  await standin?.close();
});

const BASE = () => `${w.url}/ui/${PROJECT}`;
const clean = assertClean;
const contents = (page: Page) =>
  page.$$eval('[data-testid=draft-message]', (els) =>
    els.map((e) => [
      (e.querySelector('[data-testid=message-role]') as HTMLSelectElement).value,
      (e.querySelector('[data-testid=message-content]') as HTMLTextAreaElement).value,
    ]),
  );
/** Light, then dark through the theme toggle (the view keeps its state), then light again. */
async function shotBothThemes(page: Page, name: string) {
  await shot(page, `${name}-light`);
  await tid(page, 'theme-toggle').click();
  await page.locator('html[data-theme=dark]').waitFor({ state: 'attached' });
  await shot(page, `${name}-dark`);
  await tid(page, 'theme-toggle').click();
  await page.locator('html[data-theme=light]').waitFor({ state: 'attached' });
}
/** The body the stand-in got last, after `before` requests. */
const lastSent = (before: number) => {
  assert.ok(standin.calls.length > before, 'the stand-in was called');
  return standin.calls.at(-1)!.body;
};
test('a stored OpenAI call opens in the playground and runs streamed: answer, tokens, cost, times, its call', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/calls/${openaiCall}`);
  await tid(page, 'open-in-playground').waitFor();
  await shot(page, 'call-open-in-playground-light');
  await tid(page, 'open-in-playground').click();
  await page.waitForURL(new RegExp(`/playground\\?call=${openaiCall}`));
  await tid(page, 'draft-message').first().waitFor();
  assert.deepEqual(await contents(page), [
    ['system', 'You are a weather bot.'],
    ['user', 'Hello there'],
  ]);
  assert.equal(await tid(page, 'param-temperature').inputValue(), '0.2');
  assert.equal(await tid(page, 'param-max-tokens').inputValue(), '100');
  assert.equal(await tid(page, 'model-input').inputValue(), MODEL);
  assert.equal(await tid(page, 'secret-missing').count(), 0, 'the stand-in has its key');

  const before = standin.calls.length;
  await tid(page, 'playground-run').click();
  const column = tid(page, 'model-column');
  await column.and(page.locator('[data-status=done]')).waitFor();
  assert.equal(await tid(page, 'answer').innerText(), PLAIN_ANSWER);
  assert.equal(await tid(page, 'run-tokens').innerText(), `${USAGE.plain.input} in · ${USAGE.plain.output} out`);
  await page.waitForFunction(() => document.querySelector('[data-testid=run-cost]')?.textContent?.startsWith('$'));
  const cost = USAGE.plain.input * PRICE.prompt + USAGE.plain.output * PRICE.completion;
  assert.equal(await tid(page, 'run-cost').innerText(), `$${cost.toFixed(3)}`);
  assert.match(await tid(page, 'run-first').innerText(), /^(<1 ms|\d+ ms|[\d.]+ s)$/);
  assert.match(await tid(page, 'run-total').innerText(), /^(<1 ms|\d+ ms|[\d.]+ s)$/);
  const sent = lastSent(before);
  assert.deepEqual(sent.messages, [
    { role: 'system', content: 'You are a weather bot.' },
    { role: 'user', content: 'Hello there' },
  ]);
  assert.equal(sent.temperature, 0.2);
  assert.equal(sent.max_tokens, 100);
  assert.equal(sent.stream, true);
  assert.equal(sent.model, 'gpt-standin');
  assert.equal(standin.calls.at(-1)!.headers.authorization, `Bearer ${SECRET}`);
  await shotBothThemes(page, 'playground-call');

  // The run is a call of the project: its link opens it, with the playground as its source.
  const href = await tid(page, 'run-call').getAttribute('href');
  const callId = /\/calls\/([^/?]+)/.exec(href ?? '')?.[1];
  assert.ok(callId, href ?? 'no link');
  const recorded = (await post('/call/read', { project_id: PROJECT, id: callId })).call;
  assert.equal(recorded.inputs.model, MODEL);
  assert.deepEqual(recorded.output.choices[0].message, { role: 'assistant', content: PLAIN_ANSWER });
  await tid(page, 'run-call').click();
  await page.locator(`[data-testid=call-detail][data-id="${callId}"]`).waitFor();
  await page.goBack();

  // Edit: the user's text, a new user message moved above it, the system message removed.
  await tid(page, 'message-content').nth(1).fill('What is the weather in Oslo?');
  await tid(page, 'add-user').click();
  await tid(page, 'message-content').nth(2).fill('First question');
  await tid(page, 'draft-message').nth(2).getByRole('button', { name: 'Move up' }).click();
  await tid(page, 'draft-message').nth(0).locator('[data-testid=message-remove]').click();
  await tid(page, 'add-assistant').click();
  await tid(page, 'message-content').nth(2).fill('Noted.');
  await tid(page, 'param-temperature').fill('0.7');
  assert.deepEqual(await contents(page), [
    ['user', 'First question'],
    ['user', 'What is the weather in Oslo?'],
    ['assistant', 'Noted.'],
  ]);
  const again = standin.calls.length;
  await page.keyboard.press('Control+Enter');
  await column.and(page.locator('[data-status=done]')).waitFor();
  const edited = lastSent(again);
  assert.deepEqual(edited.messages, [
    { role: 'user', content: 'First question' },
    { role: 'user', content: 'What is the weather in Oslo?' },
    { role: 'assistant', content: 'Noted.' },
  ]);
  assert.equal(edited.temperature, 0.7);
  clean(p);
  await p.context.close();
});

test('two models side by side on the same messages; a model without a key fails in its own column', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${BASE()}/playground?call=${openaiCall}&models=${encodeURIComponent(`${MODEL},${MODEL_2}`)}`);
    await tid(page, 'draft-message').first().waitFor();
    const columns = tid(page, 'model-column');
    assert.equal(await columns.count(), 2);
    const before = standin.calls.length;
    await tid(page, 'playground-run').click();
    await page.locator('[data-testid=model-column][data-status=done]').nth(1).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=run-call]').length === 2);
    for (let i = 0; i < 2; i++)
      assert.equal(await columns.nth(i).locator('[data-testid=answer]').innerText(), PLAIN_ANSWER);
    const models = standin.calls
      .slice(before)
      .map((c) => c.body.model)
      .sort();
    assert.deepEqual(models, ['gpt-standin', 'gpt-standin-2']);
    const links = await page.$$eval('[data-testid=run-call]', (els) => els.map((e) => e.getAttribute('href')));
    assert.notEqual(links[0], links[1], 'one call per model');
    // gpt-standin-2 has no price: said so, not $0.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=run-cost]')].every((e) => e.textContent !== '…'),
    );
    assert.equal(await columns.nth(1).locator('[data-testid=run-cost]').innerText(), 'no price');

    if (theme === 'light') {
      // A third column on a builtin model whose key is not set: said before the run, and its
      // failure shows in its column while the others answer.
      await tid(page, 'add-model').click();
      await page.waitForURL(/models=/);
      assert.equal(await columns.count(), 3);
      const third = columns.nth(2);
      await third.locator('[data-testid=model-input]').fill('gpt-4o');
      await third.locator('[data-testid=model-input]').press('Enter');
      await page.waitForURL((u) => u.searchParams.get('models') === `${MODEL},${MODEL_2},gpt-4o`);
      assert.match(await third.locator('[data-testid=secret-missing]').innerText(), /OPENAI_API_KEY is not set/);
      await tid(page, 'playground-run').click();
      await third.locator('[data-testid=answer-error]').waitFor();
      assert.match(await third.locator('[data-testid=answer-error]').innerText(), /No API key OPENAI_API_KEY/);
      await page.locator('[data-testid=model-column][data-status=done]').nth(2).waitFor();
      assert.equal(await columns.nth(0).locator('[data-testid=answer]').innerText(), PLAIN_ANSWER);
      await shot(page, 'playground-compare-error-light');
      await third.getByRole('button', { name: 'Remove gpt-4o' }).click();
      await page.waitForURL((u) => u.searchParams.get('models') === `${MODEL},${MODEL_2}`);
      assert.equal(await columns.count(), 2);
    } else await shot(page, 'playground-compare-dark');
    clean(p);
    await p.context.close();
  }
});

test("an Anthropic call's system blocks and tools come over in OpenAI's shape; the model calls the tool", async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/playground?call=${anthropicCall}`);
  await tid(page, 'draft-message').first().waitFor();
  assert.deepEqual(await contents(page), [
    ['system', 'You forecast.'],
    ['user', 'What is the weather in Paris?'],
  ]);
  assert.equal(await tid(page, 'param-max-tokens').inputValue(), '256');
  const tools = JSON.parse(await tid(page, 'tools-json').inputValue());
  assert.deepEqual(tools, [
    {
      type: 'function',
      function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.input_schema },
    },
  ]);
  const before = standin.calls.length;
  await tid(page, 'playground-run').click();
  await tid(page, 'answer-tool-call').waitFor();
  assert.equal(await tid(page, 'answer-tool-call').innerText(), 'get_weather {"city":"Paris"}');
  assert.deepEqual(lastSent(before).tools, tools);
  // Invalid tools JSON holds the run back and says why.
  await tid(page, 'tools-json').fill('[{"type": ');
  await tid(page, 'tools-error').waitFor();
  assert.equal(await tid(page, 'playground-run').isDisabled(), true);
  await tid(page, 'tools-json').fill('');
  assert.equal(await tid(page, 'playground-run').isDisabled(), false);
  clean(p);
  await p.context.close();
});

test("an agent's chat span opens in the playground with its instructions, messages and parameters", async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  // From the turn's spans in the agents view.
  await page.goto(`${BASE()}/agents/conversations/conv-rome?turn=${chatSpan.split(':')[0]}`);
  await tid(page, 'span-playground').click();
  await page.waitForURL((u) => u.pathname.endsWith('/playground') && u.searchParams.get('span') === chatSpan);
  await tid(page, 'draft-message').first().waitFor();
  assert.deepEqual(await contents(page), [
    ['system', 'You are terse.'],
    ['user', 'Tell me about Rome'],
  ]);
  assert.equal(await tid(page, 'param-temperature').inputValue(), '0.4');
  assert.equal(await tid(page, 'model-input').inputValue(), MODEL);
  await tid(page, 'playground-run').click();
  await page.locator('[data-testid=model-column][data-status=done]').waitFor();
  assert.equal(await tid(page, 'answer').innerText(), PLAIN_ANSWER);
  clean(p);
  await p.context.close();
});

test('messages saved as a MessagesPrompt version are followed with template variables, and loaded by version', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/playground?call=${openaiCall}`);
  await tid(page, 'draft-message').first().waitFor();
  await tid(page, 'message-content').nth(1).fill('What is the weather in {city}?');
  await tid(page, 'prompt-name').fill('weather-prompt');
  await tid(page, 'prompt-save').click();
  // The playground now follows the saved version, from its own URL: the call is no longer the source.
  await page.waitForURL((u) => u.searchParams.has('prompt') && !u.searchParams.has('call'));
  const ref = new URL(page.url()).searchParams.get('prompt')!;
  assert.match(ref, new RegExp(`^weave:///${PROJECT}/object/weather-prompt:[A-Za-z0-9]+$`));
  await tid(page, 'prompt-message').first().waitFor();
  assert.equal(await tid(page, 'prompt-link').innerText(), 'weather-prompt:v0');
  assert.equal(await tid(page, 'draft-message').count(), 0, 'every message is in the prompt now');
  assert.deepEqual(
    await page.$$eval('[data-testid=template-var]', (els) => els.map((e) => e.getAttribute('data-name'))),
    ['city'],
  );
  const stored = await post('/objs/query', {
    project_id: PROJECT,
    filter: { base_object_classes: ['Prompt'], object_ids: ['weather-prompt'] },
  });
  assert.equal(stored.objs.length, 1);
  assert.equal(stored.objs[0].leaf_object_class, 'MessagesPrompt');
  assert.deepEqual(stored.objs[0].val.messages, [
    { role: 'system', content: 'You are a weather bot.' },
    { role: 'user', content: 'What is the weather in {city}?' },
  ]);

  // Run: the prompt by ref, its variables, and only the messages added after it.
  await tid(page, 'template-var').fill('Paris');
  await tid(page, 'add-user').click();
  await tid(page, 'message-content').fill('Answer in one line.');
  const before = standin.calls.length;
  await tid(page, 'playground-run').click();
  await page.locator('[data-testid=model-column][data-status=done]').waitFor();
  assert.deepEqual(lastSent(before).messages, [
    { role: 'system', content: 'You are a weather bot.' },
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'user', content: 'Answer in one line.' },
  ]);
  const href = await tid(page, 'run-call').getAttribute('href');
  const recorded = (await post('/call/read', { project_id: PROJECT, id: /\/calls\/([^/?]+)/.exec(href!)![1] })).call;
  assert.equal(recorded.inputs.prompt, ref);
  assert.deepEqual(recorded.inputs.template_vars, { city: 'Paris' });
  assert.deepEqual(recorded.inputs.messages, [{ role: 'user', content: 'Answer in one line.' }]);
  await shotBothThemes(page, 'playground-prompt');

  // A second version: the prompt's messages and the one added.
  await tid(page, 'prompt-save').click();
  await page.waitForURL((u) => u.searchParams.get('prompt') !== ref);
  await page.locator('[data-testid=prompt-link]', { hasText: 'weather-prompt:v1' }).waitFor();
  assert.equal(await tid(page, 'prompt-message').count(), 3);

  // Reloaded, the URL brings the version back; the picker loads the older one.
  await page.reload();
  await page.locator('[data-testid=prompt-link]', { hasText: 'weather-prompt:v1' }).waitFor();
  assert.equal(await tid(page, 'draft-message').count(), 0, 'a prompt alone brings no example messages');
  await tid(page, 'prompt-load').click();
  await tid(page, 'prompt-pick').selectOption('weather-prompt');
  await page.locator('[data-testid=prompt-version] option', { hasText: 'v0' }).waitFor({ state: 'attached' });
  assert.deepEqual(await page.$$eval('[data-testid=prompt-version] option', (els) => els.map((e) => e.textContent)), [
    'Version…',
    'v1 (latest)',
    'v0',
  ]);
  await tid(page, 'prompt-version').selectOption({ label: 'v0' });
  await page.waitForURL((u) => u.searchParams.get('prompt') === ref);
  await page.locator('[data-testid=prompt-link]', { hasText: 'weather-prompt:v0' }).waitFor();
  assert.equal(await tid(page, 'prompt-message').count(), 2);
  // "Edit here" takes the prompt's messages into the draft and leaves the prompt.
  await page.getByRole('button', { name: 'Edit here' }).click();
  await page.waitForURL((u) => !u.searchParams.has('prompt'));
  assert.deepEqual(await contents(page), [
    ['system', 'You are a weather bot.'],
    ['user', 'What is the weather in {city}?'],
  ]);
  clean(p);
  await p.context.close();
});

test('the providers page: providers and their keys, a provider and a model added, a key set and never shown', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/calls`);
  await tid(page, 'nav-providers').click();
  await page.waitForURL(`${BASE()}/settings/providers`);
  const card = (name: string) => page.locator(`[data-testid=provider][data-name="${name}"]`);
  await card('standin').waitFor();
  assert.equal(await card('standin').getAttribute('data-kind'), 'custom');
  assert.equal(await card('standin').locator('[data-testid=secret-status]').innerText(), 'STANDIN_KEY is set');
  assert.deepEqual(
    await card('standin')
      .locator('[data-testid=provider-model]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))),
    [MODEL, MODEL_2],
  );
  assert.equal(await card('openai').locator('[data-testid=secret-status]').innerText(), 'OPENAI_API_KEY is missing');

  // The server's reason for a refusal shows in place.
  await tid(page, 'provider-name').fill('gateway');
  await tid(page, 'provider-base-url').fill('ftp://llm.example.com/v1');
  assert.equal(await tid(page, 'provider-secret-name').inputValue(), 'GATEWAY_API_KEY');
  await tid(page, 'provider-create').click();
  await tid(page, 'provider-error').waitFor();
  assert.match(await tid(page, 'provider-error').innerText(), /base_url is not a valid provider URL/);
  p.errors.splice(0); // the refused request's 400 is logged by the browser
  await tid(page, 'provider-base-url').fill('https://llm.example.com/v1');
  await tid(page, 'provider-create').click();
  await card('gateway').waitFor();
  assert.equal(await card('gateway').locator('[data-testid=secret-status]').innerText(), 'GATEWAY_API_KEY is missing');
  await card('gateway').locator('[data-testid=model-name]').fill('llama-3.1-8b');
  await card('gateway').locator('[data-testid=model-max-tokens]').fill('2048');
  await card('gateway').locator('[data-testid=model-create]').click();
  await card('gateway').locator('[data-testid=provider-model][data-id="custom::gateway::llama-3.1-8b"]').waitFor();
  const model = await post('/obj/read', { project_id: PROJECT, object_id: 'gateway-llama-3_1-8b', digest: 'latest' });
  assert.equal(model.obj.val.name, 'llama-3.1-8b');
  assert.equal(model.obj.val.provider, 'gateway');
  assert.equal(model.obj.val.max_tokens, 2048);
  const provider = await post('/obj/read', { project_id: PROJECT, object_id: 'gateway', digest: 'latest' });
  assert.equal(provider.obj.val.api_key_name, 'GATEWAY_API_KEY');
  await shotBothThemes(page, 'providers');

  // The playground says the key is missing, and links here.
  await card('gateway').locator('[data-testid=provider-model]').click();
  await page.waitForURL(/\/playground\?models=custom/);
  await tid(page, 'secret-missing').waitFor();
  assert.match(await tid(page, 'secret-missing').innerText(), /GATEWAY_API_KEY is not set/);
  await tid(page, 'secret-missing').getByRole('link').click();
  await page.waitForURL(`${BASE()}/settings/providers`);

  // An admin sets the key: the value goes in and never comes back.
  const value = `sk-gateway-${hexId(12)}`;
  await card('gateway').locator('[data-testid=secret-open]').click();
  await card('gateway').locator('[data-testid=secret-value]').fill(value);
  await card('gateway').locator('[data-testid=secret-save]').click();
  await card('gateway').locator('[data-testid=secret-status][data-set=true]').waitFor();
  assert.equal(await card('gateway').locator('[data-testid=secret-status]').innerText(), 'GATEWAY_API_KEY is set');
  assert.equal(await card('gateway').locator('[data-testid=secret-value]').count(), 0);
  assert.ok(!(await page.content()).includes(value), 'the key is not in the page');
  clean(p);
  await p.context.close();
});

test('a writer is told that an admin sets the keys; no key prompt', async () => {
  const t = await startTestApp({ keys: [{ user: 'wes', entity: ENTITY, role: 'writer' }] });
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const p = await openPage(browser, url);
    const key = t.keys[0]!.key;
    await p.context.addInitScript((k) => sessionStorage.setItem('weft.apiKey', k), key);
    await p.page.goto(`${url}/ui/${PROJECT}/settings/providers`);
    const openai = p.page.locator('[data-testid=provider][data-name=openai]');
    await openai.locator('[data-testid=secret-admin-only]').waitFor();
    assert.match(
      await openai.locator('[data-testid=secret-admin-only]').innerText(),
      /An admin of ui-team sets it here, or on the server: weft secrets set --entity ui-team OPENAI_API_KEY/,
    );
    assert.equal(await p.page.locator('[data-testid=secret-open]').count(), 0);
    assert.equal(
      await p.page.locator('[data-testid=key-prompt]').count(),
      0,
      'a 403 here is no reason to ask for a key',
    );
    assert.deepEqual(p.external, []);
    // The browser logs the refused /admin/secrets/list (403); nothing else.
    assert.deepEqual(
      p.errors.filter((e) => !/403/.test(e)),
      [],
    );
    await p.context.close();
  } finally {
    await t.close();
  }
});

test('the project nav links the playground; an unknown call says so', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/calls`);
  await tid(page, 'nav-playground').click();
  await page.waitForURL(`${BASE()}/playground`);
  await tid(page, 'draft-message').first().waitFor();
  // The first model of a provider whose key is set is preselected.
  const { providers } = await post('/completions/models', { project_id: PROJECT });
  const ready = providers.find((x: any) => x.secret_set && x.models.length > 0);
  // Chosen once /completions/models has answered: wait for it, then compare.
  const input = tid(page, 'model-input');
  for (let i = 0; i < 300 && (await input.inputValue()) === ''; i++) await page.waitForTimeout(50);
  assert.equal(await input.inputValue(), ready.models[0].id);
  await page.goto(`${BASE()}/playground?call=no-such-call`);
  await tid(page, 'error-banner').waitFor();
  assert.match(await tid(page, 'error-banner').innerText(), /No call no-such-call/);
  clean(p);
  await p.context.close();
});
