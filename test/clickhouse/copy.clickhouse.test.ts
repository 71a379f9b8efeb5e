// `weft copy` as a user who outgrows SQLite runs it: from a SQLite data directory to ClickHouse
// (chdb in process here) and back, as child processes. What each API answers afterwards is
// what the source answered; a second run adds nothing; a checkpoint makes a rerun skip the
// steps already done, and the count check catches what is missing.
import { hexId, otlpJson } from '../helpers/agent-spans.js';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { end, endItem, start, startItem } from '../helpers/calls.js';
import { CHILD_ENV, ROOT, serve, tempDirs } from '../helpers/weft-process.js';

const dirs = tempDirs('weft-copy-');
/** The servers' secrets key: a secret copied sealed opens on the target under the same key. */
const KEY = randomBytes(32).toString('base64');
const SECRET = `sk-copied-${randomBytes(8).toString('hex')}`;
/** A provider that answers whether it was sent the secret as the key. */
const echo = createServer((req, res) => {
  req.resume().on('end', () => {
    const content = req.headers.authorization === `Bearer ${SECRET}` ? 'the right key' : 'a wrong key';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      }),
    );
  });
});
const echoReady = new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
const echoHost = () => `127.0.0.1:${(echo.address() as AddressInfo).port}`;
after(() => {
  dirs.removeAll();
  echo.close();
});

function weft(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env: CHILD_ENV });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((res) => child.on('exit', (code) => res({ code, out, err })));
}

type Post = (path: string, body: unknown) => Promise<{ status: number; body: any; raw: Buffer }>;

const viaFetch =
  (url: string): Post =>
  async (path, body) => {
    const r = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const raw = Buffer.from(await r.arrayBuffer());
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      parsed = null;
    }
    return { status: r.status, body: parsed, raw };
  };

async function onServer<T>(args: string[], body: (post: Post) => Promise<T>): Promise<T> {
  const s = await serve(args);
  assert.ok(s.port, s.stderr);
  try {
    return await body(viaFetch(`http://127.0.0.1:${s.port}`));
  } finally {
    s.stop();
    await s.exited;
  }
}

const P1 = 'team/alpha';
const P2 = 'team/beta';

/** Everything the copy must carry, written through HTTP. */
async function seed(t: TestApp): Promise<{ fileDigest: string; tableDigest: string }> {
  const root = start({ project_id: P1, inputs: { q: 'hello', n: 1 } });
  const child = start({ project_id: P1, trace_id: root.trace_id, parent_id: root.id, inputs: { step: 1 } });
  const running = start({ project_id: P1 });
  const doomed = start({ project_id: P1 });
  const batch = [
    startItem(root),
    startItem(child),
    startItem(running),
    startItem(doomed),
    endItem(end(root.id, { project_id: P1, output: { a: 'world' } })),
    endItem(end(child.id, { project_id: P1, exception: 'boom' })),
    endItem(end(doomed.id, { project_id: P1 })),
  ];
  assert.equal((await t.post('/call/upsert_batch', { batch })).status, 200);
  assert.equal(
    (await t.post('/call/update', { project_id: P1, call_id: root.id, display_name: 'renamed root' })).status,
    200,
  );
  assert.equal((await t.post('/calls/delete', { project_id: P1, call_ids: [doomed.id] })).status, 200);
  const other = start({ project_id: P2, inputs: { x: 2 } });
  assert.equal(
    (await t.post('/call/upsert_batch', { batch: [startItem(other), endItem(end(other.id, { project_id: P2 }))] }))
      .status,
    200,
  );

  const table = await t.post('/table/create', { table: { project_id: P1, rows: [{ a: 1 }, { a: 2 }, { a: 1 }] } });
  assert.equal(table.status, 200, table.text);
  const tableDigest = table.body.digest as string;
  for (const temperature of [0.1, 0.2]) {
    assert.equal(
      (
        await t.post('/obj/create', {
          obj: {
            project_id: P1,
            object_id: 'model',
            val: { temperature, rows: `weave:///${P1}/table/${tableDigest}` },
          },
        })
      ).status,
      200,
    );
  }
  const v0 = (await t.post('/obj/read', { project_id: P1, object_id: 'model', digest: 'v0' })).body.obj
    .digest as string;
  assert.equal(
    (
      await t.post('/obj/create', {
        obj: {
          project_id: P1,
          object_id: 'model',
          val: { temperature: 0.1, rows: `weave:///${P1}/table/${tableDigest}` },
        },
      })
    ).status,
    200,
    're-asserting v0 makes it latest',
  );
  assert.equal(
    (
      await t.app.inject({
        method: 'PUT',
        url: `/objs/model/versions/${v0}/tags`,
        payload: { project_id: P1, tags: ['prod'] },
      })
    ).statusCode,
    200,
  );
  const file = new FormData();
  file.append('project_id', P1);
  file.append('file', new Blob([Buffer.from('file bytes '.repeat(1000))]), 'notes.txt');
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const up = await fetch(`${url}/file/create`, { method: 'POST', body: file });
  assert.equal(up.status, 200);
  const fileDigest = ((await up.json()) as { digest: string }).digest;
  assert.equal(
    (
      await t.post('/feedback/create', {
        project_id: P1,
        weave_ref: `weave:///${P1}/call/${root.id}`,
        feedback_type: 'wandb.reaction.1',
        payload: { emoji: '👍' },
      })
    ).status,
    200,
  );
  assert.equal(
    (
      await t.post('/cost/create', {
        project_id: P1,
        costs: { 'my-model': { prompt_token_cost: 1, completion_token_cost: 2 } },
      })
    ).status,
    200,
  );
  assert.equal((await t.post('/project/ttl_settings/update', { project_id: P2, retention_days: 30 })).status, 200);
  const traceId = hexId(16);
  const agentSpan = hexId(8);
  const agentSpans = otlpJson({ 'wandb.entity': 'team', 'wandb.project': 'alpha' }, [
    {
      traceId,
      spanId: agentSpan,
      name: 'invoke_agent helper',
      startMs: 1_764_000_000_000,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper', 'app.team': 'x' },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: agentSpan,
      name: 'chat gpt-4o',
      startMs: 1_764_000_000_001,
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 5 },
    },
  ]);
  assert.equal((await t.postRaw('/agents/otel/v1/traces', agentSpans, 'application/json')).status, 200);
  assert.equal((await t.post('/admin/secrets/set', { entity: 'team', name: 'ECHO_KEY', value: SECRET })).status, 200);
  for (const [object_id, cls, val] of [
    ['echo', 'Provider', { base_url: `http://${echoHost()}/v1`, api_key_name: 'ECHO_KEY' }],
    ['echo-m', 'ProviderModel', { name: 'm', provider: 'echo', max_tokens: 9 }],
  ] as const) {
    const r = await t.post('/obj/create', { obj: { project_id: P2, object_id, val, builtin_object_class: cls } });
    assert.equal(r.status, 200, r.text);
  }
  return { fileDigest, tableDigest };
}

/** What the APIs answer about everything seeded, in a form two engines can agree on. */
async function snapshot(post: Post, refs: { fileDigest: string; tableDigest: string }) {
  const calls = async (project: string) =>
    (await post('/calls/query', { project_id: project, sort_by: [{ field: 'id', direction: 'asc' }] })).body.calls;
  const objs = (
    await post('/objs/query', {
      project_id: P1,
      filter: { latest_only: false },
      include_tags_and_aliases: true,
      sort_by: [{ field: 'created_at', direction: 'asc' }],
    })
  ).body.objs.map((o: any) => ({
    object_id: o.object_id,
    digest: o.digest,
    is_latest: o.is_latest,
    val: o.val,
    tags: o.tags,
  }));
  return {
    calls: [await calls(P1), await calls(P2)],
    objs,
    table: (await post('/table/query', { project_id: P1, digest: refs.tableDigest })).body.rows,
    file: (await post('/file/content', { project_id: P1, digest: refs.fileDigest })).raw.toString('base64'),
    feedback: (
      await post('/feedback/query', {
        project_id: P1,
        fields: ['id', 'weave_ref', 'feedback_type', 'payload', 'created_at', 'wb_user_id'],
      })
    ).body.result,
    costs: (
      await post('/cost/query', {
        project_id: P1,
        fields: ['id', 'llm_id', 'prompt_token_cost', 'completion_token_cost', 'pricing_level'],
      })
    ).body.results.filter((c: any) => c.pricing_level === 'project'),
    ttl: (await post('/project/ttl_settings', { project_id: P2 })).body,
    spans: (
      await post('/agents/spans/query', {
        project_id: P1,
        include_details: true,
        sort_by: [{ field: 'span_id', direction: 'asc' }],
      })
    ).body,
    agents: (await post('/agents/query', { project_id: P1 })).body,
    secrets: (await post('/admin/secrets/list', { entity: 'team' })).body.secrets.map((x: any) => x.name),
    answer: (
      await post('/completions/create', {
        project_id: P2,
        inputs: { model: 'custom::echo::m', messages: [{ role: 'user', content: 'which key?' }] },
        track_llm_call: false,
      })
    ).body.response,
  };
}

test('weft copy moves everything from SQLite to ClickHouse and back; reruns add nothing; a checkpoint resumes', {
  timeout: 240_000,
}, async () => {
  await echoReady;
  const t = await startTestApp({ secretsKey: KEY, outboundAllowedHosts: [echoHost()] });
  const ch = join(dirs.make(), 'ch');
  const keyArgs = ['--secrets-key', KEY, '--outbound-allowed-hosts', echoHost()];
  const back = dirs.make();
  try {
    const refs = await seed(t);
    const source = await snapshot(async (path, body) => {
      const r = await t.post(path, body);
      return { status: r.status, body: r.body, raw: Buffer.from(r.text, 'latin1') };
    }, refs);
    assert.equal(source.calls[0].length, 3, 'the deleted call is not there to copy');
    assert.equal(source.objs.length, 2);
    assert.equal(source.spans.total_count, 2);
    assert.equal(source.agents.agents[0].total_input_tokens, 5);
    assert.deepEqual(source.secrets, ['ECHO_KEY']);
    assert.equal(source.answer.choices[0].message.content, 'the right key');

    const first = await weft(['copy', '--from', `sqlite:${t.dataDir}`, '--to', `clickhouse:chdb:${ch}`]);
    assert.equal(first.code, 0, first.err);
    assert.match(first.err, /2 projects copied; every count matches/);
    assert.match(first.out, /team\/alpha\tcalls\t3\t3\n/);
    const chArgs = ['--engine', 'clickhouse', '--clickhouse-url', `chdb:${ch}`, ...keyArgs];
    const onClickHouse = await onServer(chArgs, (post) => snapshot(post, refs));
    assert.deepEqual(
      { ...onClickHouse, file: onClickHouse.file.length },
      { ...source, file: onClickHouse.file.length },
    );
    assert.equal(onClickHouse.file, Buffer.from('file bytes '.repeat(1000)).toString('base64'));

    const again = await weft(['copy', '--from', `sqlite:${t.dataDir}`, '--to', `clickhouse:chdb:${ch}`]);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /team\/alpha\tcalls\t3\t3\n/, 'nothing doubled');
    assert.match(again.out, /team\/alpha\tprices\t1\t1\n/);
    assert.match(again.out, /team\/alpha\tfeedback\t1\t1\n/);
    assert.match(again.out, /team\/alpha\tspans\t2\t2\n/);
    assert.match(again.out, /team\/beta\tsecrets\t1\t1\n/);

    const home = await weft(['copy', '--from', `clickhouse:chdb:${ch}`, '--to', `sqlite:${back}`]);
    assert.equal(home.code, 0, home.err);
    const onSqlite = await onServer(['--data-dir', back, ...keyArgs], (post) => snapshot(post, refs));
    assert.deepEqual({ ...onSqlite, file: onSqlite.file.length }, { ...source, file: onSqlite.file.length });

    // A checkpoint saying beta's calls were done (as an interrupted run would leave it): the
    // rerun skips that step, so the count check finds them missing; without it, all is copied.
    const fresh = join(dirs.make(), 'ch2');
    const checkpoint = join(dirs.make(), 'checkpoint.json');
    writeFileSync(checkpoint, JSON.stringify({ done: [`${P2}\u0000calls`] }));
    const resumed = await weft([
      'copy',
      '--from',
      `sqlite:${t.dataDir}`,
      '--to',
      `clickhouse:chdb:${fresh}`,
      '--checkpoint',
      checkpoint,
    ]);
    assert.equal(resumed.code, 1);
    assert.match(resumed.err, /resuming \(1 steps done/);
    assert.match(resumed.out, /team\/beta\tcalls\t1\t0\tMISSING/);
    writeFileSync(checkpoint, JSON.stringify({ done: [] }));
    const completed = await weft([
      'copy',
      '--from',
      `sqlite:${t.dataDir}`,
      '--to',
      `clickhouse:chdb:${fresh}`,
      '--checkpoint',
      checkpoint,
    ]);
    assert.equal(completed.code, 0, completed.err);

    // --only: some resources, counted alone.
    const some = await weft([
      'copy',
      '--from',
      `sqlite:${t.dataDir}`,
      '--to',
      `clickhouse:chdb:${join(dirs.make(), 'ch3')}`,
      '--only',
      'calls,feedback',
    ]);
    assert.equal(some.code, 0, some.err);
    assert.match(some.out, /team\/alpha\tcalls\t3\t3\n/);
    assert.doesNotMatch(some.out, /\tobjects\t/);
  } finally {
    await t.close();
  }
});

test('weft copy: usage mistakes exit 2, a store that cannot be opened exits 1', async () => {
  const help = await weft(['copy', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /usage: weft copy --from STORE --to STORE/);
  for (const args of [
    ['copy'],
    ['copy', '--from', 'sqlite:/tmp/x', '--to', 'postgres:db'],
    ['copy', '--from', 'sqlite:a', '--to', 'sqlite:a'],
    ['copy', '--bogus'],
    ['copy', '--from', 'sqlite:a', '--to', 'sqlite:b', '--only', 'calls,keys'],
  ]) {
    const r = await weft(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /usage: weft copy/);
  }
  const empty = dirs.make();
  const missing = await weft(['copy', '--from', `sqlite:${empty}`, '--to', `sqlite:${dirs.make()}`]);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /there is no Weft database in .* \(no weft\.sqlite\): check --from/);
  assert.ok(!existsSync(join(empty, 'weft.sqlite')), 'the source is not created');
  const src = await startTestApp();
  const down = await weft([
    'copy',
    '--from',
    `sqlite:${src.dataDir}`,
    '--to',
    'clickhouse:http://127.0.0.1:1/weft',
  ]).finally(() => src.close());
  assert.equal(down.code, 1);
  assert.match(down.err, /cannot reach ClickHouse at http:\/\/127\.0\.0\.1:1/);
});
