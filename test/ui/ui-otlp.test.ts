// A trace exported with OpenTelemetry (GenAI conventions, protobuf) in the browser: the calls
// list shows its root, the trace view its spans, and the call panel the messages with their
// parts (text and tool calls), the usage and the failed tool's exception.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { postOtlp, record, SpanStatusCode, tree } from '../helpers/otlp.js';
import { launch, openPage, shot } from './browser.js';

let w: WeftServer;
let browser: Browser;
before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const messages = (m: unknown) => JSON.stringify(m);

test('an OTLP trace: root in the list, spans in the tree, chat parts, usage and the failed tool', async () => {
  const rec = record({ 'service.name': 'weather-agent', 'wandb.entity': 'otel', 'wandb.project': 'agent' }, (tracer) =>
    tree(
      tracer,
      'invoke_agent weather',
      { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather' },
      (open) => {
        open('chat claude-sonnet-4-5', {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'anthropic',
          'gen_ai.request.model': 'claude-sonnet-4-5',
          'gen_ai.input.messages': messages([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
          ]),
          'gen_ai.output.messages': messages([
            {
              role: 'assistant',
              parts: [
                { type: 'text', content: 'Let me check.' },
                { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
              ],
              finish_reason: 'tool_call',
            },
          ]),
          'gen_ai.usage.input_tokens': 1500,
          'gen_ai.usage.output_tokens': 40,
          'gen_ai.usage.cache_read.input_tokens': 1000,
        });
        open(
          'execute_tool get_weather',
          { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather' },
          (s) => {
            s.recordException({ name: 'TimeoutError', message: 'weather service timed out' });
            s.setStatus({ code: SpanStatusCode.ERROR });
          },
        );
      },
    ),
  );
  assert.equal((await postOtlp(w.t, rec.protobuf)).status, 200);
  const root = rec.ids.get('invoke_agent weather')!.spanId;
  const chat = rec.ids.get('chat claude-sonnet-4-5')!.spanId;
  const tool = rec.ids.get('execute_tool get_weather')!.spanId;

  const { page, context, errors, external } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/otel/agent/calls`);
  await page.locator(`[data-testid=call-row][data-id="${root}"]`).waitFor();
  assert.match(await page.locator(`[data-testid=call-row][data-id="${root}"]`).innerText(), /invoke_agent weather/);

  await page.goto(`${w.url}/ui/otel/agent/calls/${root}?call=${chat}`);
  await page
    .locator(`[data-testid=call-detail][data-id="${chat}"]`)
    .waitFor()
    .catch(async (e) => {
      // Seen once in CI under load (not reproduced alone): what the page showed instead.
      console.log(
        '# no detail of the chat span at',
        page.url(),
        JSON.stringify((await page.locator('main').innerText()).slice(0, 800)),
        JSON.stringify(errors),
      );
      throw e;
    });
  assert.equal(await page.locator('[data-testid=tree-row]').count(), 3);
  assert.match(
    await page.locator('[data-testid=conversation] [data-testid=chat] [data-role=user]').innerText(),
    /Weather in Paris\?/,
  );
  // The model call reads as one conversation: the answer is its response turn.
  const answer = page.locator('[data-testid=conversation] [data-response][data-role=assistant]');
  assert.match(await answer.innerText(), /Let me check\./);
  assert.match(await answer.locator('[data-testid=tool-call]').innerText(), /get_weather[\s\S]*Paris/);
  await shot(page, 'otlp-chat-light');
  await page.locator('[data-testid=tab-summary]').click();
  await page.waitForURL(/tab=summary/);
  assert.match(
    await page.locator('[data-testid=usage]').innerText(),
    /claude-sonnet-4-5\s+1\s+1,?500\s+1,?000\s+40\s+1,?540\s+\$0\.00\d+/,
  );

  await page.goto(`${w.url}/ui/otel/agent/calls/${root}?call=${tool}`);
  await page.locator('[data-testid=exception]').waitFor();
  assert.match(await page.locator('[data-testid=exception]').innerText(), /TimeoutError: weather service timed out/);
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(`${w.url}/ui/otel/agent/calls/${root}?call=${chat}`);
  await dark.page.locator('[data-testid=conversation] [data-testid=tool-call]').waitFor();
  await shot(dark.page, 'otlp-chat-dark');
  await dark.context.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});
