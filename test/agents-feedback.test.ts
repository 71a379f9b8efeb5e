// Feedback on agent data through HTTP: agent_turn / agent_span / agent_conversation refs accepted
// by /feedback/create, /feedback/batch/create and /feedback/replace (stored canonical, span_*
// filled from the turn's root), folded into /agents/traces/chat and /agents/conversations/chat
// with include_feedback, and the markers of /agents/conversations/spans; then every error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
const [ENTITY, NAME] = PROJECT.split('/') as [string, string];
const RESOURCE = { 'wandb.entity': ENTITY, 'wandb.project': NAME };
const REF = (tail: string, project = PROJECT) => `weave:///${project}/${tail}`;

before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const parts = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

interface Turn {
  readonly traceId: string;
  readonly rootId: string;
  readonly toolId: string;
  readonly spans: TestSpan[];
}

/** A turn of agent `support` v2 (root OK): a model call, then a tool. */
function turn(conversation: string, question: string, startMs: number): Turn {
  const traceId = hexId(16);
  const rootId = hexId(8);
  const toolId = hexId(8);
  const conv = { 'gen_ai.conversation.id': conversation };
  const spans: TestSpan[] = [
    {
      traceId,
      spanId: rootId,
      name: 'invoke_agent support',
      startMs,
      endMs: startMs + 1000,
      status: 1,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support',
        'gen_ai.agent.version': 'v2',
        'gen_ai.input.messages': parts('user', question),
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: rootId,
      name: 'chat gpt-4o',
      startMs: startMs + 10,
      endMs: startMs + 200,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.output.messages': parts('assistant', `answer to ${question}`),
      },
    },
    {
      traceId,
      spanId: toolId,
      parentSpanId: rootId,
      name: 'execute_tool lookup',
      startMs: startMs + 300,
      endMs: startMs + 400,
      attributes: { ...conv, 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' },
    },
  ];
  return { traceId, rootId, toolId, spans };
}

async function send(...turns: Turn[]) {
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson(
      RESOURCE,
      turns.flatMap((x) => x.spans),
    ),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
}

async function ok(path: string, body: Record<string, unknown>) {
  const r = await t.post(path, body);
  assert.equal(r.status, 200, `${path} ${JSON.stringify(body)} -> ${r.text}`);
  return r.body;
}

const create = (body: Record<string, unknown>) =>
  ok('/feedback/create', { project_id: PROJECT, payload: {}, ...body }) as Promise<{ id: string }>;

async function feedbackRow(id: string) {
  const res = await ok('/feedback/query', {
    project_id: PROJECT,
    query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } },
  });
  assert.equal(res.result.length, 1);
  return res.result[0];
}

const reaction = (ref: string, emoji: string) =>
  create({ weave_ref: ref, feedback_type: 'wandb.reaction.1', payload: { emoji } });

test('feedback on a turn gets the span_* columns of its root; the client wins where it set them', async () => {
  const x = turn(`conv-${hexId(4)}`, 'hello?', Date.UTC(2026, 10, 28, 9));
  await send(x);
  const { id } = await create({
    weave_ref: REF(`agent_turn/${x.traceId}`),
    feedback_type: 'wandb.agent_user_feedback',
    scorer_tags: ['helpful'],
    // The SDK's defaults, as every Weave client serializes them; wb_user_id is never the client's.
    span_agent_name: '',
    span_agent_version: '',
    span_status_code: 'UNSET',
    span_trace_id: '',
    span_conversation_id: '',
    wb_user_id: 'someone-else',
  });
  const row = await feedbackRow(id);
  assert.deepEqual(
    {
      weave_ref: row.weave_ref,
      span_agent_name: row.span_agent_name,
      span_agent_version: row.span_agent_version,
      span_status_code: row.span_status_code,
      span_trace_id: row.span_trace_id,
      span_conversation_id: row.span_conversation_id,
    },
    {
      weave_ref: REF(`agent_turn/${x.traceId}`),
      span_agent_name: 'support',
      span_agent_version: 'v2',
      span_status_code: 'OK',
      span_trace_id: x.traceId,
      span_conversation_id: x.spans[0]!.attributes!['gen_ai.conversation.id'],
    },
  );
  assert.notEqual(row.wb_user_id, 'someone-else');

  const own = await create({
    weave_ref: REF(`agent_turn/${x.traceId}`),
    feedback_type: 'wandb.agent_monitor',
    scorer_ratings: { _rating_: 0.5 },
    span_agent_name: 'judge-says',
    span_status_code: 'ERROR',
  });
  const ownRow = await feedbackRow(own.id);
  assert.equal(ownRow.span_agent_name, 'judge-says');
  assert.equal(ownRow.span_status_code, 'ERROR');
  assert.equal(ownRow.span_agent_version, 'v2');
});

test('feedback before its turn arrives, on a step, and on a conversation keeps the defaults', async () => {
  const unseen = hexId(16);
  const a = await create({ weave_ref: REF(`agent_turn/${unseen}`), feedback_type: 'custom' });
  const rowA = await feedbackRow(a.id);
  assert.deepEqual(
    [rowA.span_agent_name, rowA.span_agent_version, rowA.span_status_code, rowA.span_trace_id],
    ['', '', 'UNSET', unseen],
  );
  // A turn whose root never arrived: the latest span to end stands in for it (as in the chat header).
  const orphanTrace = hexId(16);
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson(RESOURCE, [
      {
        traceId: orphanTrace,
        spanId: hexId(8),
        parentSpanId: hexId(8),
        name: 'chat a',
        startMs: 1e12,
        endMs: 1e12 + 5,
        status: 1,
      },
      {
        traceId: orphanTrace,
        spanId: hexId(8),
        parentSpanId: hexId(8),
        name: 'chat b',
        startMs: 1e12,
        endMs: 1e12 + 9,
        status: 2,
      },
    ]),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
  const o = await create({ weave_ref: REF(`agent_turn/${orphanTrace}`), feedback_type: 'custom' });
  assert.equal((await feedbackRow(o.id)).span_status_code, 'ERROR');
  const b = await create({ weave_ref: REF(`agent_span/${hexId(8)}`), feedback_type: 'custom' });
  const rowB = await feedbackRow(b.id);
  assert.deepEqual([rowB.span_agent_name, rowB.span_status_code, rowB.span_trace_id], ['', 'UNSET', '']);
  const c = await create({ weave_ref: REF('agent_conversation/conv-z'), feedback_type: 'custom' });
  const rowC = await feedbackRow(c.id);
  assert.deepEqual([rowC.span_agent_name, rowC.span_status_code, rowC.span_conversation_id], ['', 'UNSET', 'conv-z']);
});

test('batch/create and replace take agent refs; a conversation ref is stored in canonical form', async () => {
  const tail = hexId(3);
  const conv = `team/a b(${tail})`;
  const x = turn(conv, 'batch?', Date.UTC(2026, 10, 28, 10));
  await send(x);
  const res = await ok('/feedback/batch/create', {
    batch: [
      {
        project_id: PROJECT,
        id: `fb-${hexId(4)}`,
        weave_ref: REF(`agent_turn/${x.traceId}`),
        feedback_type: 'wandb.agent_user_feedback',
        scorer_tags: ['👍'],
        payload: {},
      },
      {
        project_id: PROJECT,
        id: `fb-${hexId(4)}`,
        // Unquoted, as a hand-written ref might be: stored as Weave quotes it.
        weave_ref: REF(`agent_conversation/${conv}`),
        feedback_type: 'wandb.note.1',
        payload: { note: 'good conversation' },
      },
    ],
  });
  const [turnRow, convRow] = await Promise.all(res.res.map((r: { id: string }) => feedbackRow(r.id)));
  assert.equal(turnRow.span_agent_name, 'support');
  const quoted = `team/a%20b%28${tail}%29`;
  assert.equal(convRow.weave_ref, REF(`agent_conversation/${quoted}`));
  assert.equal(convRow.span_conversation_id, conv);

  const replaced = await ok('/feedback/replace', {
    project_id: PROJECT,
    feedback_id: res.res[0].id,
    weave_ref: REF(`agent_turn/${x.traceId}`),
    feedback_type: 'wandb.agent_monitor',
    scorer_tags: ['polite'],
    payload: {},
  });
  const row = await feedbackRow(replaced.id);
  assert.deepEqual([row.scorer_tags, row.span_agent_name, row.span_status_code], [['polite'], 'support', 'OK']);

  const chat = await ok('/agents/conversations/chat', {
    project_id: PROJECT,
    conversation_id: conv,
    include_feedback: true,
  });
  assert.deepEqual(
    chat.feedback.map((f: { payload: { note: string } }) => f.payload.note),
    ['good conversation'],
  );
  assert.deepEqual(
    chat.turns[0].feedback.map((f: { scorer_tags: string[] }) => f.scorer_tags),
    [['polite']],
  );
});

const FEEDBACK_KEYS = [
  'annotation_ref',
  'call_ref',
  'created_at',
  'creator',
  'feedback_type',
  'id',
  'payload',
  'runnable_ref',
  'scorer_rating_confidences',
  'scorer_rating_reasons',
  'scorer_ratings',
  'scorer_tag_confidences',
  'scorer_tag_reasons',
  'scorer_tags',
  'trigger_ref',
  'wb_user_id',
  'weave_ref',
];

test('/agents/traces/chat with include_feedback: turn-level and step-level feedback as AgentChatFeedback', async () => {
  const x = turn(`conv-${hexId(4)}`, 'rate me', Date.UTC(2026, 10, 28, 11));
  await send(x);
  const turnRef = REF(`agent_turn/${x.traceId}`);
  await reaction(turnRef, '👍');
  const monitor = await create({
    weave_ref: turnRef,
    feedback_type: 'wandb.agent_monitor',
    creator: 'judge',
    runnable_ref: REF('op/quality_scorer:v1'),
    call_ref: REF(`call/${x.traceId}`),
    trigger_ref: REF('object/quality_monitor:v1'),
    scorer_tags: ['helpful'],
    scorer_tag_reasons: { helpful: 'answered' },
    scorer_ratings: { _rating_: 0.8 },
    scorer_rating_reasons: { _rating_: 'clear' },
    scorer_rating_confidences: { _rating_: 0.9 },
    payload: { output: { value: 0.8 } },
  });
  await reaction(REF(`agent_span/${x.toolId}`), '🔥');
  // Another turn's feedback stays there.
  await reaction(REF(`agent_turn/${hexId(16)}`), '👎');

  const chat = await ok('/agents/traces/chat', { project_id: PROJECT, trace_id: x.traceId, include_feedback: true });
  assert.equal(chat.feedback.length, 2);
  const [thumb, judged] = chat.feedback;
  assert.equal(thumb.payload.emoji, '👍');
  assert.equal(thumb.feedback_type, 'wandb.reaction.1');
  assert.deepEqual(Object.keys(judged).sort(), FEEDBACK_KEYS);
  assert.deepEqual(
    { ...judged, created_at: typeof judged.created_at },
    {
      id: monitor.id,
      feedback_type: 'wandb.agent_monitor',
      weave_ref: turnRef,
      payload: { output: { value: 0.8 } },
      creator: 'judge',
      created_at: 'string',
      wb_user_id: thumb.wb_user_id,
      runnable_ref: REF('op/quality_scorer:v1'),
      call_ref: REF(`call/${x.traceId}`),
      trigger_ref: REF('object/quality_monitor:v1'),
      annotation_ref: null,
      scorer_tags: ['helpful'],
      scorer_tag_reasons: { helpful: 'answered' },
      scorer_tag_confidences: {},
      scorer_ratings: { _rating_: 0.8 },
      scorer_rating_reasons: { _rating_: 'clear' },
      scorer_rating_confidences: { _rating_: 0.9 },
    },
  );
  const withFeedback = chat.messages.filter((m: { feedback?: unknown }) => m.feedback !== undefined);
  assert.equal(withFeedback.length, 1);
  assert.equal(withFeedback[0].span_id, x.toolId);
  assert.equal(withFeedback[0].type, 'tool_call');
  assert.equal(withFeedback[0].feedback[0].payload.emoji, '🔥');

  const plain = await ok('/agents/traces/chat', { project_id: PROJECT, trace_id: x.traceId });
  assert.equal(plain.feedback ?? null, null);
  assert.ok(plain.messages.every((m: { feedback?: unknown }) => m.feedback === undefined));

  const none = turn(`conv-${hexId(4)}`, 'no feedback', Date.UTC(2026, 10, 28, 11, 30));
  await send(none);
  const empty = await ok('/agents/traces/chat', {
    project_id: PROJECT,
    trace_id: none.traceId,
    include_feedback: true,
  });
  assert.deepEqual(empty.feedback, [], 'asked for and none: an empty list');
});

test('/agents/conversations/chat folds conversation, turn and step feedback', async () => {
  const conv = `conv-${hexId(4)}`;
  const a = turn(conv, 'one', Date.UTC(2026, 10, 28, 12));
  const b = turn(conv, 'two', Date.UTC(2026, 10, 28, 12, 5));
  await send(a, b);
  await reaction(REF(`agent_conversation/${conv}`), '💬');
  await reaction(REF(`agent_turn/${b.traceId}`), '👍');
  await reaction(REF(`agent_span/${a.toolId}`), '🔥');
  const chat = await ok('/agents/conversations/chat', {
    project_id: PROJECT,
    conversation_id: conv,
    include_feedback: true,
  });
  assert.deepEqual(
    chat.feedback.map((f: { payload: { emoji: string } }) => f.payload.emoji),
    ['💬'],
  );
  assert.deepEqual(
    chat.turns.map((x: { feedback: { payload: { emoji: string } }[] }) => x.feedback.map((f) => f.payload.emoji)),
    [[], ['👍']],
  );
  const steps = chat.turns[0].messages.filter((m: { feedback?: unknown }) => m.feedback !== undefined);
  assert.deepEqual(
    steps.map((m: { span_id: string }) => m.span_id),
    [a.toolId],
  );
  const plain = await ok('/agents/conversations/chat', { project_id: PROJECT, conversation_id: conv });
  assert.equal(plain.feedback ?? null, null);
  assert.ok(plain.turns.every((x: { feedback?: unknown }) => x.feedback === undefined));
});

test('/agents/conversations/spans carries the tags and ratings of agent feedback as markers', async () => {
  const conv = `conv-${hexId(4)}`;
  const other = `conv-${hexId(4)}`;
  const a = turn(conv, 'one', Date.UTC(2026, 10, 28, 13));
  const b = turn(conv, 'two', Date.UTC(2026, 10, 28, 13, 5));
  const c = turn(other, 'elsewhere', Date.UTC(2026, 10, 28, 13, 6));
  await send(a, b, c);
  // A human thumbs-up (with a skin tone: shown detoned) on turn a, a scorer on turn b, a
  // conversation-level monitor, and rows that are not markers (a reaction, a note).
  await create({
    weave_ref: REF(`agent_turn/${a.traceId}`),
    feedback_type: 'wandb.agent_user_feedback',
    scorer_tags: ['👍🏽'],
  });
  await create({
    weave_ref: REF(`agent_turn/${b.traceId}`),
    feedback_type: 'wandb.agent_monitor',
    scorer_tags: ['helpful'],
    scorer_ratings: { quality: 0.8 },
    scorer_rating_reasons: { quality: 'clear answer' },
    scorer_rating_confidences: { quality: 0.7 },
  });
  await create({
    weave_ref: REF(`agent_conversation/${conv}`),
    feedback_type: 'wandb.agent_monitor',
    scorer_ratings: { _rating_: 0.25 },
  });
  await reaction(REF(`agent_turn/${a.traceId}`), '👍');
  await create({
    weave_ref: REF(`agent_turn/${c.traceId}`),
    feedback_type: 'wandb.agent_user_feedback',
    scorer_tags: ['x'],
  });

  const res = await ok('/agents/conversations/spans', { project_id: PROJECT, conversation_ids: [conv, 'conv-none'] });
  const [mine, none] = res.conversations;
  assert.equal(mine.spans.length, 6);
  assert.deepEqual(mine.spans_feedback, [
    {
      trace_id: null,
      feedback_type: 'wandb.agent_monitor',
      tags: [],
      ratings: [{ name: '_rating_', value: 0.25, reason: null, confidence: null }],
    },
    { trace_id: a.traceId, feedback_type: 'wandb.agent_user_feedback', tags: ['👍'], ratings: [] },
    {
      trace_id: b.traceId,
      feedback_type: 'wandb.agent_monitor',
      tags: ['helpful'],
      ratings: [{ name: 'quality', value: 0.8, reason: 'clear answer', confidence: 0.7 }],
    },
  ]);
  assert.deepEqual(none, { conversation_id: 'conv-none', spans: [], spans_feedback: [] });
});

test('errors: refs to another project, malformed agent refs, agent refs where they do not belong', async () => {
  const base = { project_id: PROJECT, feedback_type: 'custom', payload: {} };
  const paths = ['/feedback/create', '/feedback/replace', '/feedback/batch/create'] as const;
  const post = (path: (typeof paths)[number], body: Record<string, unknown>) =>
    t.post(
      path,
      path === '/feedback/batch/create'
        ? { batch: [body] }
        : path === '/feedback/replace'
          ? { ...body, feedback_id: 'f' }
          : body,
    );
  const expect4xx = async (body: Record<string, unknown>, reason: RegExp) => {
    for (const path of paths) {
      const r = await post(path, body);
      assert.ok(r.status >= 400 && r.status < 500, `${path} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
      if (r.status === 400) assert.match(r.body.reason, reason, `${path} ${r.text}`);
    }
  };
  for (const kind of ['agent_turn', 'agent_span', 'agent_conversation'])
    await expect4xx(
      { ...base, weave_ref: REF(`${kind}/x1`, 'other-entity/other-project') },
      /does not match project id/,
    );
  for (const bad of [
    'agent_turn/',
    'agent_turn',
    'agent_turn/a/b',
    'agent_span/a/b',
    'agent_turns/abc',
    'agent_conversation/%E0%A4%A',
  ])
    await expect4xx({ ...base, weave_ref: REF(bad) }, /Invalid ref/);
  await expect4xx(
    {
      ...base,
      feedback_type: 'wandb.runnable.judge',
      runnable_ref: REF('op/judge:d'),
      call_ref: REF('agent_turn/abc'),
      payload: { output: 1 },
    },
    /call_ref must be a call ref/,
  );
  // An agent monitor may name its scorer, monitor and call; a plain feedback may not.
  await expect4xx({ ...base, weave_ref: REF('agent_turn/abc'), trigger_ref: REF('object/m:v1') }, /not allowed/);
  await expect4xx(
    {
      ...base,
      weave_ref: REF('agent_turn/abc'),
      feedback_type: 'wandb.agent_monitor',
      trigger_ref: REF('agent_turn/abc'),
    },
    /trigger_ref must be an object ref/,
  );
  // Agent refs have no value to read.
  const read = await t.post('/refs/read_batch', { refs: [REF('agent_turn/abc')] });
  assert.equal(read.status, 400, read.text);
});

test('errors: malformed chat and span bodies', async () => {
  for (const [path, body] of [
    ['/agents/traces/chat', { project_id: PROJECT, trace_id: 'abc', include_feedback: 'yes' }],
    ['/agents/conversations/chat', { project_id: PROJECT, conversation_id: 'c', include_feedback: 1 }],
    ['/agents/conversations/spans', { project_id: PROJECT, conversation_ids: 'c' }],
    ['/feedback/create', { project_id: PROJECT, weave_ref: REF('agent_turn/abc'), feedback_type: 'custom' }],
  ] as const) {
    const r = await t.post(path, body);
    assert.equal(r.status, 422, `${path} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
  }
});
