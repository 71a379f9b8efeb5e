// A loopback stand-in for the model APIs agent frameworks call: OpenAI Chat Completions
// (POST …/chat/completions) and Responses (POST …/responses), plain JSON or server-sent events,
// Gemini (POST …/models/{m}:generateContent, :streamGenerateContent) and Anthropic Messages
// (POST …/v1/messages, JSON or server-sent events). One policy for all:
// the last input a result of the weather tool -> a final answer built from that result; else a
// weather tool offered -> a call to it with the city of the last user text; else a handoff
// tool (`transfer_to_…` / `handoff_to_…`) offered -> a call to it; Strands' Swarm structured
// output (`strands_structured_output`) -> a handoff to HANDOFF_TARGET, or the final answer as its
// message after a weather result; else a plain answer. Token
// counts are fixed per kind of round (USAGE), so tests can assert exact sums.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export const MODEL = 'gpt-standin';
export const USAGE = {
  tool: { input: 111, output: 11 },
  final: { input: 222, output: 22 },
  handoff: { input: 50, output: 5 },
  plain: { input: 7, output: 3 },
} as const;
export type Round = keyof typeof USAGE;
/** The tokens of a turn that calls the tool once, then answers. */
export const TOOL_TURN = {
  input: USAGE.tool.input + USAGE.final.input,
  output: USAGE.tool.output + USAGE.final.output,
} as const;

/** The forecast the tests' weather tool returns for a city. */
export function forecast(city: string): { city: string; sky: string; celsius: number } {
  return city === 'Paris' ? { city, sky: 'sunny', celsius: 21 } : { city, sky: 'cloudy', celsius: 14 };
}
/** The stand-in's final answer once it has read the tool result carrying `forecast(city)`. */
export const finalAnswer = (city: string) => {
  const f = forecast(city);
  return `In ${city} it is ${f.sky} at ${f.celsius} degrees.`;
};
export const PLAIN_ANSWER = 'I can only talk about the weather.';

export interface StandinCall {
  readonly path: string;
  readonly round: Round;
  readonly body: any;
  readonly headers: IncomingHttpHeaders;
}
export interface ModelStandin {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Every request answered, in order, with the round chosen. */
  readonly calls: StandinCall[];
  close(): Promise<void>;
}

type Obj = Record<string, any>;
interface Decision {
  readonly round: Round;
  /** The tool call to make (round tool or handoff), or the text to answer. */
  readonly tool?: { name: string; args: Obj };
  readonly text?: string;
}

/** Strands' Swarm routes through this structured-output tool: {agentId?, message, context?}. */
const STRUCTURED_OUTPUT = 'strands_structured_output';
/** The agent a routing tool hands off to. */
export const HANDOFF_TARGET = 'weather_agent';
const isHandoff = (n: string) => /^(transfer_to|handoff_to)/.test(n);
const isWeather = (n: string) => n.includes('weather') && !isHandoff(n);
const cityOf = (text: string) => /\bin ([A-Z][a-zA-Z]+)/.exec(text)?.[1] ?? 'Paris';

/**
 * The policy, over a neutral view of a request: the offered tool names, the name and text of
 * the last input when it is a tool result, and the last user text.
 */
function decide(tools: string[], lastResult: { name: string; text: string } | null, userText: string): Decision {
  const routed = tools.includes(STRUCTURED_OUTPUT);
  if (lastResult !== null && isWeather(lastResult.name)) {
    const city = /"city"\s*:\s*"([^"]+)"/.exec(lastResult.text)?.[1] ?? cityOf(userText);
    // A Swarm member ends its turn through its structured output: no agentId, the answer as message.
    if (routed) return { round: 'final', tool: { name: STRUCTURED_OUTPUT, args: { message: finalAnswer(city) } } };
    return { round: 'final', text: finalAnswer(city) };
  }
  const weather = tools.find(isWeather);
  if (weather !== undefined) return { round: 'tool', tool: { name: weather, args: { city: cityOf(userText) } } };
  // A Swarm member without the weather tool hands the question to the weather agent.
  if (routed && lastResult === null)
    return {
      round: 'handoff',
      tool: { name: STRUCTURED_OUTPUT, args: { agentId: HANDOFF_TARGET, message: userText } },
    };
  const handoff = tools.find(isHandoff);
  if (handoff !== undefined && lastResult === null) return { round: 'handoff', tool: { name: handoff, args: {} } };
  return { round: 'plain', text: PLAIN_ANSWER };
}

const textOf = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? c.map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('')
      : '';

let seq = 0;
let completions = 0;
const callId = () => `call_${(++seq).toString().padStart(4, '0')}`;

// --- OpenAI Chat Completions

function chatView(body: Obj) {
  const msgs: Obj[] = body.messages ?? [];
  const tools = (body.tools ?? []).map((t: Obj) => t.function?.name).filter(Boolean);
  const last = msgs[msgs.length - 1];
  let result: { name: string; text: string } | null = null;
  if (last?.role === 'tool') {
    const asked = msgs.flatMap((m) => m.tool_calls ?? []).find((c: Obj) => c.id === last.tool_call_id);
    result = { name: asked?.function?.name ?? '', text: textOf(last.content) };
  }
  const user = [...msgs].reverse().find((m) => m.role === 'user');
  return decide(tools, result, textOf(user?.content));
}

function chatAnswer(body: Obj, d: Decision, res: ServerResponse) {
  const u = USAGE[d.round];
  const usage = { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output };
  const toolCalls = d.tool
    ? [{ id: callId(), type: 'function', function: { name: d.tool.name, arguments: JSON.stringify(d.tool.args) } }]
    : undefined;
  const finish = d.tool ? 'tool_calls' : 'stop';
  // Each completion its own id: LangGraph's message reducer replaces a message of the same id.
  const base = { id: `chatcmpl-${++completions}`, created: 1_790_000_000, model: MODEL };
  if (!body.stream) {
    const message = { role: 'assistant', content: d.text ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    json(res, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage });
    return;
  }
  sse(res);
  const chunk = (delta: Obj, finish_reason: string | null) =>
    event(res, null, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] });
  chunk({ role: 'assistant', content: '' }, null);
  if (d.text !== undefined) chunk({ content: d.text }, null);
  if (toolCalls) chunk({ tool_calls: toolCalls.map((c, index) => ({ index, ...c })) }, null);
  chunk({}, finish);
  if (body.stream_options?.include_usage)
    event(res, null, { ...base, object: 'chat.completion.chunk', choices: [], usage });
  res.end('data: [DONE]\n\n');
}

// --- OpenAI Responses

function responsesView(body: Obj) {
  const input: Obj[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  const tools = (body.tools ?? []).map((t: Obj) => t.name).filter(Boolean);
  const last = input[input.length - 1];
  let result: { name: string; text: string } | null = null;
  if (last?.type === 'function_call_output') {
    const asked = input.find((i) => i.type === 'function_call' && i.call_id === last.call_id);
    result = { name: asked?.name ?? '', text: textOf(last.output) };
  }
  const user = [...input].reverse().find((m) => m.role === 'user');
  return decide(tools, result, textOf(user?.content));
}

function responsesAnswer(body: Obj, d: Decision, res: ServerResponse) {
  const u = USAGE[d.round];
  const id = `resp_${++seq}`;
  const item = d.tool
    ? {
        type: 'function_call',
        id: `fc_${seq}`,
        call_id: callId(),
        name: d.tool.name,
        arguments: JSON.stringify(d.tool.args),
        status: 'completed',
      }
    : {
        type: 'message',
        id: `msg_${seq}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: d.text, annotations: [] }],
      };
  const response = (status: string, output: Obj[]) => ({
    id,
    object: 'response',
    created_at: 1_790_000_000,
    status,
    model: MODEL,
    output,
    parallel_tool_calls: true,
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    usage:
      status === 'completed'
        ? {
            input_tokens: u.input,
            output_tokens: u.output,
            total_tokens: u.input + u.output,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          }
        : null,
  });
  if (!body.stream) {
    json(res, response('completed', [item]));
    return;
  }
  sse(res);
  let n = 0;
  const send = (type: string, data: Obj) => event(res, type, { type, sequence_number: n++, ...data });
  send('response.created', { response: response('in_progress', []) });
  send('response.in_progress', { response: response('in_progress', []) });
  if (item.type === 'function_call') {
    send('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
    send('response.function_call_arguments.delta', { output_index: 0, item_id: item.id, delta: item.arguments });
    send('response.function_call_arguments.done', { output_index: 0, item_id: item.id, arguments: item.arguments });
  } else {
    send('response.output_item.added', { output_index: 0, item: { ...item, content: [], status: 'in_progress' } });
    const part = { type: 'output_text', text: '', annotations: [] };
    send('response.content_part.added', { output_index: 0, item_id: item.id, content_index: 0, part });
    send('response.output_text.delta', { output_index: 0, item_id: item.id, content_index: 0, delta: d.text });
    send('response.output_text.done', { output_index: 0, item_id: item.id, content_index: 0, text: d.text });
    const done = { ...part, text: d.text };
    send('response.content_part.done', { output_index: 0, item_id: item.id, content_index: 0, part: done });
  }
  send('response.output_item.done', { output_index: 0, item });
  send('response.completed', { response: response('completed', [item]) });
  res.end();
}

// --- Gemini generateContent

function geminiView(body: Obj) {
  const contents: Obj[] = body.contents ?? [];
  const tools = (body.tools ?? []).flatMap((t: Obj) => (t.functionDeclarations ?? []).map((f: Obj) => f.name));
  const lastParts: Obj[] = contents[contents.length - 1]?.parts ?? [];
  const response = lastParts.find((p) => p.functionResponse)?.functionResponse;
  const result = response ? { name: response.name, text: JSON.stringify(response.response) } : null;
  const user = [...contents].reverse().find((c) => c.role === 'user' && (c.parts ?? []).some((p: Obj) => p.text));
  return decide(tools, result, textOf(user?.parts));
}

function geminiAnswer(stream: boolean, d: Decision, res: ServerResponse) {
  const u = USAGE[d.round];
  const part = d.tool ? { functionCall: { name: d.tool.name, args: d.tool.args } } : { text: d.text };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output },
    modelVersion: MODEL,
    responseId: `gem-${++seq}`,
  };
  if (!stream) return json(res, answer);
  sse(res);
  event(res, null, answer);
  res.end();
}

// --- Anthropic Messages

function messagesView(body: Obj) {
  const msgs: Obj[] = body.messages ?? [];
  const tools = (body.tools ?? []).map((t: Obj) => t.name).filter(Boolean);
  const blocks = (m: Obj | undefined): Obj[] =>
    typeof m?.content === 'string' ? [{ type: 'text', text: m.content }] : (m?.content ?? []);
  const last = msgs[msgs.length - 1];
  const answered = blocks(last).find((b) => b.type === 'tool_result');
  let result: { name: string; text: string } | null = null;
  if (last?.role === 'user' && answered) {
    const asked = msgs.flatMap(blocks).find((b) => b.type === 'tool_use' && b.id === answered.tool_use_id);
    result = { name: asked?.name ?? '', text: textOf(answered.content) };
  }
  // The user's text: the last user message with a text block that is not a tool result's.
  const user = [...msgs].reverse().find((m) => m.role === 'user' && blocks(m).some((b) => b.type === 'text'));
  const text = blocks(user)
    .filter((b) => b.type === 'text' && !String(b.text).startsWith('<system-reminder>'))
    .map((b) => b.text)
    .join('');
  return decide(tools, result, text);
}

function messagesAnswer(body: Obj, d: Decision, res: ServerResponse) {
  const u = USAGE[d.round];
  const id = `msg_${++completions}`;
  const block = d.tool
    ? { type: 'tool_use', id: `toolu_${callId()}`, name: d.tool.name, input: d.tool.args }
    : { type: 'text', text: d.text ?? '' };
  const stop = d.tool ? 'tool_use' : 'end_turn';
  const message = { id, type: 'message', role: 'assistant', model: body.model ?? MODEL, stop_sequence: null };
  if (!body.stream) {
    json(res, {
      ...message,
      content: [block],
      stop_reason: stop,
      usage: { input_tokens: u.input, output_tokens: u.output },
    });
    return;
  }
  sse(res);
  event(res, 'message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { input_tokens: u.input, output_tokens: 1 } },
  });
  const start = d.tool ? { ...block, input: {} } : { type: 'text', text: '' };
  event(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: start });
  const delta = d.tool
    ? { type: 'input_json_delta', partial_json: JSON.stringify(d.tool.args) }
    : { type: 'text_delta', text: d.text ?? '' };
  event(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta });
  event(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  event(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: u.output },
  });
  event(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

// --- plumbing

function json(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
function sse(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}
function event(res: ServerResponse, type: string | null, data: unknown) {
  res.write(`${type === null ? '' : `event: ${type}\n`}data: ${JSON.stringify(data)}\n\n`);
}

async function readBody(req: IncomingMessage): Promise<Obj> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw === '' ? {} : JSON.parse(raw);
}

export async function startModelStandin(): Promise<ModelStandin> {
  const calls: StandinCall[] = [];
  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((body) => {
        const path = (req.url ?? '').split('?')[0]!;
        if (req.method === 'POST' && path.endsWith('/chat/completions')) {
          const d = chatView(body);
          calls.push({ path, round: d.round, body, headers: req.headers });
          return chatAnswer(body, d, res);
        }
        if (req.method === 'POST' && path.endsWith('/responses')) {
          const d = responsesView(body);
          calls.push({ path, round: d.round, body, headers: req.headers });
          return responsesAnswer(body, d, res);
        }
        if (req.method === 'POST' && path.endsWith('/v1/messages/count_tokens'))
          return json(res, { input_tokens: 100 });
        if (req.method === 'POST' && path.endsWith('/v1/messages')) {
          const d = messagesView(body);
          calls.push({ path, round: d.round, body, headers: req.headers });
          return messagesAnswer(body, d, res);
        }
        const gemini = /\/models\/[^/:]+:(generateContent|streamGenerateContent)$/.exec(path);
        if (req.method === 'POST' && gemini) {
          const d = geminiView(body);
          calls.push({ path, round: d.round, body, headers: req.headers });
          return geminiAnswer(gemini[1] === 'streamGenerateContent', d, res);
        }
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `the stand-in has no ${req.method} ${path}` } }));
      })
      .catch((err: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: err.message } }));
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
