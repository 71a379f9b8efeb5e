// The playground's pure modules (ui/src/playground): a recorded call's inputs as a draft, for
// OpenAI Chat Completions, OpenAI Responses, Anthropic Messages and Gemini; an agent chat span
// as a draft; the request built from a draft; the stream's lines folded into an answer; the
// URL's state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callToPlayground } from '../ui/src/playground/callToPlayground.js';
import { spanToPlayground } from '../ui/src/playground/spanToPlayground.js';
import {
  completionInputs,
  EMPTY_PARAMS,
  emptyDraft,
  placeholders,
  type PlaygroundDraft,
} from '../ui/src/playground/playgroundDraft.js';
import { applyLine, EMPTY_ANSWER, hasOutput } from '../ui/src/playground/streamAnswer.js';
import { modelList, parsePlaygroundSearch } from '../ui/src/playground/playgroundSearch.js';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

test('OpenAI Chat Completions: every role, tool calls, image parts, parameters and tools', () => {
  const d = callToPlayground({
    self: { _type: 'Completions' },
    model: 'gpt-4o-mini',
    messages: [
      { role: 'developer', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' },
    ],
    temperature: 0.3,
    max_completion_tokens: 200,
    top_p: 0.9,
    stop: 'END',
    seed: 7,
    response_format: { type: 'json_object' },
    tools: [weather],
    stream: true,
  });
  assert.deepEqual(d, {
    messages: [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: 'What is this?',
        parts: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } }],
      },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      { role: 'tool', content: '{"sky":"sunny"}', tool_call_id: 'call_1' },
    ],
    model: 'gpt-4o-mini',
    params: {
      temperature: 0.3,
      max_tokens: 200,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      response_format: { type: 'json_object' },
    },
    tools: [weather],
    prompt: null,
    templateVars: {},
  } satisfies PlaygroundDraft);
});

test('OpenAI: kwargs-wrapped inputs, the older functions, text response format, parsed arguments', () => {
  const d = callToPlayground({
    kwargs: {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'x', tool_calls: [{ id: 'c', function: { name: 'f', arguments: { a: 1 } } }] },
      ],
      functions: [weather.function],
      response_format: { type: 'text' },
      max_tokens: 5,
    },
  })!;
  assert.equal(d.model, 'gpt-4o');
  assert.deepEqual(d.messages[1], {
    role: 'assistant',
    content: 'x',
    tool_calls: [{ id: 'c', name: 'f', arguments: '{"a":1}' }],
  });
  assert.deepEqual(d.tools, [weather]);
  assert.equal(d.params.response_format, null);
  assert.equal(d.params.max_tokens, 5);
});

test('a playground call: its prompt and template variables come back; a prompt alone is enough', () => {
  const d = callToPlayground({
    model: 'custom::standin::gpt-standin',
    messages: [{ role: 'user', content: 'And in {city}?' }],
    prompt: 'weave:///e/p/object/weather:abc',
    template_vars: { city: 'Paris', days: 3 },
  })!;
  assert.equal(d.prompt, 'weave:///e/p/object/weather:abc');
  assert.deepEqual(d.templateVars, { city: 'Paris', days: '3' });
  const alone = callToPlayground({ model: 'gpt-4o', prompt: 'weather:v2', template_vars: null })!;
  assert.deepEqual(alone.messages, []);
  assert.equal(alone.prompt, 'weather:v2');
});

test('Anthropic Messages: system blocks, tool_use and tool_result, images, tools with input_schema', () => {
  const d = callToPlayground({
    model: 'claude-sonnet-4-5',
    system: [
      { type: 'text', text: 'You forecast.' },
      { type: 'text', text: 'Briefly.' },
    ],
    max_tokens: 1024,
    stop_sequences: ['\n\nHuman:'],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'BBB' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 's' },
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }] },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ],
    tools: [
      { name: 'get_weather', description: 'The weather in a city', input_schema: weather.function.parameters },
      { type: 'web_search_20250305', name: 'web_search' },
    ],
  })!;
  assert.deepEqual(d.messages, [
    { role: 'system', content: 'You forecast.\nBriefly.' },
    {
      role: 'user',
      content: 'Weather in Paris?',
      parts: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,BBB' } }],
    },
    {
      role: 'assistant',
      content: 'Let me look.',
      tool_calls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    },
    { role: 'tool', content: 'sunny', tool_call_id: 'toolu_1' },
    { role: 'user', content: 'And tomorrow?' },
  ]);
  assert.deepEqual(d.tools, [weather]);
  assert.deepEqual(d.params, { ...EMPTY_PARAMS, max_tokens: 1024, stop: ['\n\nHuman:'] });
  assert.equal(d.model, 'claude-sonnet-4-5');
});

test('Anthropic: a plain string system and a tool result alone make no empty user message', () => {
  const d = callToPlayground({
    model: 'claude-haiku-4-5',
    system: 'Be kind.',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'done' }] },
    ],
  })!;
  assert.deepEqual(
    d.messages.map((m) => [m.role, m.content]),
    [
      ['system', 'Be kind.'],
      ['user', 'hi'],
      ['assistant', ''],
      ['tool', 'done'],
    ],
  );
});

test('Gemini (google-genai): contents with parts, function calls and responses, config', () => {
  const d = callToPlayground({
    model: 'models/gemini-2.5-flash',
    contents: [
      {
        role: 'user',
        parts: [{ text: 'Weather in Paris?' }, { inline_data: { mime_type: 'image/png', data: 'CCC' } }],
      },
      { role: 'model', parts: [{ function_call: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ function_response: { name: 'get_weather', response: { sky: 'sunny' } } }] },
      { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'Sunny.' }] },
    ],
    config: {
      system_instruction: 'You forecast.',
      temperature: 0.2,
      max_output_tokens: 300,
      top_p: 0.8,
      stop_sequences: ['STOP'],
      seed: 3,
      response_mime_type: 'application/json',
      tools: [{ function_declarations: [weather.function] }],
    },
  })!;
  assert.deepEqual(d.messages, [
    { role: 'system', content: 'You forecast.' },
    {
      role: 'user',
      content: 'Weather in Paris?',
      parts: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,CCC' } }],
    },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    },
    { role: 'tool', content: '{"sky":"sunny"}', tool_call_id: 'call_1' },
    { role: 'assistant', content: 'Sunny.' },
  ]);
  assert.equal(d.model, 'gemini-2.5-flash');
  assert.deepEqual(d.params, {
    temperature: 0.2,
    max_tokens: 300,
    top_p: 0.8,
    stop: ['STOP'],
    seed: 3,
    response_format: { type: 'json_object' },
  });
  assert.deepEqual(d.tools, [weather]);
});

test('Gemini (google-generativeai): a string, camelCase fields, generation_config, the model of self', () => {
  const d = callToPlayground({
    self: { model_name: 'models/gemini-1.5-pro' },
    contents: 'Hello there',
    generation_config: { temperature: 1, maxOutputTokens: 50 },
    systemInstruction: { parts: [{ text: 'Be terse.' }] },
  })!;
  assert.deepEqual(d.messages, [
    { role: 'system', content: 'Be terse.' },
    { role: 'user', content: 'Hello there' },
  ]);
  assert.equal(d.model, 'gemini-1.5-pro');
  assert.equal(d.params.temperature, 1);
  assert.equal(d.params.max_tokens, 50);
  // A list of strings is one user turn of several parts.
  assert.deepEqual(callToPlayground({ model: 'gemini-2.5-pro', contents: ['a', 'b'] })!.messages, [
    { role: 'user', content: 'a\nb' },
  ]);
});

test('OpenAI Responses: instructions, input items, function calls and outputs, flat tools, text format', () => {
  const d = callToPlayground({
    model: 'gpt-4.1',
    instructions: 'Be brief.',
    input: [
      { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
      { type: 'reasoning', id: 'r1', summary: [] },
      { type: 'function_call', call_id: 'fc1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'fc1', output: 'sunny' },
    ],
    tools: [{ type: 'function', ...weather.function }, { type: 'web_search' }],
    max_output_tokens: 99,
    text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } },
  })!;
  assert.deepEqual(d.messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'fc1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
    { role: 'tool', content: 'sunny', tool_call_id: 'fc1' },
  ]);
  assert.deepEqual(d.tools, [weather]);
  assert.equal(d.params.max_tokens, 99);
  assert.deepEqual(d.params.response_format, {
    type: 'json_schema',
    json_schema: { name: 'answer', schema: { type: 'object' } },
  });
  assert.deepEqual(callToPlayground({ model: 'gpt-4.1', input: 'hi' })!.messages, [{ role: 'user', content: 'hi' }]);
});

test('inputs that are no model request are null', () => {
  for (const inputs of [null, 'text', [], {}, { question: 'hi' }, { messages: 'not a list' }])
    assert.equal(callToPlayground(inputs), null, JSON.stringify(inputs));
});

test('an agent chat span: instructions, semconv parts, OpenAI-shaped tool calls, request parameters', () => {
  const d = spanToPlayground({
    trace_id: 't',
    span_id: 's',
    request_model: 'gpt-standin',
    request_temperature: 0.5,
    request_max_tokens: 64,
    request_stop_sequences: ['x'],
    system_instructions: ['You forecast.'],
    input_messages: [
      { role: 'user', content: 'Weather in Paris?', finish_reason: null },
      {
        role: 'assistant',
        content: JSON.stringify([{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }]),
        finish_reason: null,
      },
      {
        role: 'tool',
        content: JSON.stringify([{ type: 'tool_call_response', id: 'c1', response: { sky: 'sunny' } }]),
        finish_reason: null,
      },
      {
        role: 'assistant',
        content: JSON.stringify({
          content: 'Checking',
          tool_calls: [{ id: 'c2', function: { name: 'f', arguments: '{}' } }],
        }),
        finish_reason: null,
      },
    ],
    tool_definitions: JSON.stringify([{ type: 'function', ...weather.function }]),
  });
  assert.deepEqual(d.messages, [
    { role: 'system', content: 'You forecast.' },
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
    { role: 'tool', content: '{"sky":"sunny"}', tool_call_id: 'c1' },
    { role: 'assistant', content: 'Checking', tool_calls: [{ id: 'c2', name: 'f', arguments: '{}' }] },
  ]);
  assert.equal(d.model, 'gpt-standin');
  assert.deepEqual(d.params, { ...EMPTY_PARAMS, temperature: 0.5, max_tokens: 64, stop: ['x'] });
  assert.deepEqual(d.tools, [weather]);
});

test('the request: OpenAI messages, only the parameters set, the prompt and its variables', () => {
  const draft: PlaygroundDraft = {
    ...emptyDraft(),
    messages: [
      { role: 'user', content: 'look', parts: [{ type: 'image_url', image_url: { url: 'u' } }] },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c', name: 'f', arguments: '{}' }] },
      { role: 'tool', content: 'ok', tool_call_id: 'c' },
    ],
    params: { ...EMPTY_PARAMS, temperature: 0, stop: ['a'] },
  };
  assert.deepEqual(completionInputs(draft, 'gpt-4o'), {
    model: 'gpt-4o',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'u' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ],
    temperature: 0,
    stop: ['a'],
  });
  const withPrompt = completionInputs(
    { ...draft, messages: [], prompt: 'weave:///e/p/object/x:d', templateVars: { city: 'Paris' } },
    'm',
  );
  assert.deepEqual(withPrompt, {
    model: 'm',
    messages: [],
    temperature: 0,
    stop: ['a'],
    prompt: 'weave:///e/p/object/x:d',
    template_vars: { city: 'Paris' },
  });
});

test('template variables: in order, not in assistant messages, braces doubled are literal', () => {
  assert.deepEqual(
    placeholders([
      { role: 'system', content: 'You forecast {city} for {days:d} days. {{literal}}' },
      { role: 'assistant', content: 'About {ignored}?' },
      { role: 'user', content: [{ type: 'text', text: 'In {city}, {unit!r}' }] },
    ]),
    ['city', 'days', 'unit'],
  );
});

test('the stream: _meta, text and tool-call deltas, usage, and an error line', () => {
  const lines = [
    { _meta: { weave_call_id: 'call-1', trace_id: 'trace-1' } },
    { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
    { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hel' } }] },
    { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'lo' } }] },
    {
      choices: [
        { index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'get_', arguments: '{"ci' } }] } },
      ],
    },
    {
      choices: [
        { index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'weather', arguments: 'ty":1}' } }] } },
      ],
    },
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    { choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } },
  ];
  const a = lines.reduce(applyLine, EMPTY_ANSWER);
  assert.deepEqual(a, {
    callId: 'call-1',
    traceId: 'trace-1',
    text: 'Hello',
    toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":1}' }],
    finishReason: 'tool_calls',
    usage: { prompt_tokens: 7, completion_tokens: 3 },
    error: null,
  });
  assert.deepEqual(
    lines.map((l) => hasOutput(l)),
    [false, false, true, true, true, true, false, false],
  );
  assert.equal(applyLine(a, { error: 'No API key STANDIN_KEY found' }).error, 'No API key STANDIN_KEY found');
  assert.equal(applyLine(EMPTY_ANSWER, { error: { message: 'boom' } }).error, 'boom');
});

test('the URL: a call, a span as trace:span, a prompt, up to four models', () => {
  assert.deepEqual(parsePlaygroundSearch({ call: ' c1 ', span: 'bad', prompt: 'p', models: 'a, b,,c,d,e' }), {
    call: 'c1',
    prompt: 'p',
    models: 'a,b,c,d',
  });
  assert.deepEqual(parsePlaygroundSearch({ span: 't1:s1', models: ['x', 'y'] }), { span: 't1:s1', models: 'x,y' });
  assert.deepEqual(parsePlaygroundSearch({ models: 42 }), {});
  assert.deepEqual(modelList('custom::p::m,gpt-4o'), ['custom::p::m', 'gpt-4o']);
});
