// Weave's other builtin object classes on POST /obj/create from their bare fields, as Weave's UI
// sends them: AnnotationSpec, LLMStructuredCompletionModel, SavedView and Leaderboard. Each is
// validated (a 400 naming what is wrong; an AnnotationSpec's field_schema must compile as a JSON
// Schema; nothing stored) and stored as Weave stores it: the class envelope, every field with its
// default, nested models with their own envelope (weave-objects.md §0.3, §3, §6-8).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const create = (object_id: string, val: unknown, builtin_object_class: string) =>
  t.post('/obj/create', { obj: { project_id: P, object_id, val, builtin_object_class } });
const stored = async (object_id: string, digest: string) => {
  const r = await t.post('/obj/read', { project_id: P, object_id, digest });
  assert.equal(r.status, 200, r.text);
  return r.body.obj;
};
const envelope = (cls: string, fields: Record<string, unknown>) => ({
  _type: cls,
  ...fields,
  _class_name: cls,
  _bases: ['BaseObject', 'BaseModel'],
});

test('AnnotationSpec: defaults filled, base and leaf class its own', async () => {
  const r = await create(
    'quality',
    { name: 'quality', field_schema: { type: 'integer', minimum: 1, maximum: 5 } },
    'AnnotationSpec',
  );
  assert.equal(r.status, 200, r.text);
  const obj = await stored('quality', r.body.digest);
  assert.deepEqual(
    obj.val,
    envelope('AnnotationSpec', {
      name: 'quality',
      description: null,
      field_schema: { type: 'integer', minimum: 1, maximum: 5 },
      unique_among_creators: false,
      op_scope: null,
    }),
  );
  assert.deepEqual([obj.base_object_class, obj.leaf_object_class], ['AnnotationSpec', 'AnnotationSpec']);
});

test('LLMStructuredCompletionModel: default_params as its own model, every parameter null by default', async () => {
  const r = await create(
    'grader',
    { name: 'grader', llm_model_id: 'gpt-4o-mini', default_params: { temperature: 0, response_format: 'json_object' } },
    'LLMStructuredCompletionModel',
  );
  assert.equal(r.status, 200, r.text);
  const { val } = await stored('grader', r.body.digest);
  assert.equal(val.llm_model_id, 'gpt-4o-mini');
  assert.deepEqual(val.default_params, {
    _type: 'LLMStructuredCompletionModelDefaultParams',
    messages_template: null,
    prompt: null,
    temperature: 0,
    top_p: null,
    max_tokens: null,
    presence_penalty: null,
    frequency_penalty: null,
    stop: null,
    n_times: null,
    functions: null,
    response_format: 'json_object',
    _class_name: 'LLMStructuredCompletionModelDefaultParams',
    _bases: ['BaseModel'],
  });
});

test('SavedView and Leaderboard: their fields, a leaderboard column with its own envelope', async () => {
  const view = await create(
    'errors-view',
    {
      view_type: 'traces',
      label: 'Errors',
      definition: { query: { $expr: { $eq: [{ $getField: 'status' }, { $literal: 'error' }] } } },
    },
    'SavedView',
  );
  assert.equal(view.status, 200, view.text);
  const v = (await stored('errors-view', view.body.digest)).val;
  assert.deepEqual([v._type, v.view_type, v.label, v.name], ['SavedView', 'traces', 'Errors', null]);
  const evalRef = `weave:///${P}/object/my-eval:abc`;
  const board = await create(
    'board',
    { name: 'board', columns: [{ evaluation_object_ref: evalRef, scorer_name: 'exact', summary_metric_path: 'mean' }] },
    'Leaderboard',
  );
  assert.equal(board.status, 200, board.text);
  assert.deepEqual((await stored('board', board.body.digest)).val.columns, [
    {
      _type: 'LeaderboardColumn',
      evaluation_object_ref: evalRef,
      scorer_name: 'exact',
      summary_metric_path: 'mean',
      should_minimize: null,
      _class_name: 'LeaderboardColumn',
      _bases: ['BaseModel'],
    },
  ]);
});

test('each invalid value is a 400 naming what is wrong, and nothing is stored', async () => {
  const cases: [string, unknown, RegExp][] = [
    ['AnnotationSpec', { field_schema: { type: 'nonsense' } }, /field_schema/],
    ['AnnotationSpec', { field_schema: 5 }, /field_schema/],
    ['AnnotationSpec', { unique_among_creators: 'yes' }, /unique_among_creators/],
    ['LLMStructuredCompletionModel', { default_params: {} }, /llm_model_id/],
    [
      'LLMStructuredCompletionModel',
      { llm_model_id: 'x', default_params: { response_format: 'xml' } },
      /response_format/,
    ],
    ['SavedView', { view_type: 'traces', definition: {} }, /label/],
    [
      'Leaderboard',
      { columns: [{ evaluation_object_ref: 'my-eval', scorer_name: 's', summary_metric_path: 'm' }] },
      /evaluation_object_ref/,
    ],
    ['Leaderboard', {}, /columns/],
  ];
  for (const [cls, val, re] of cases) {
    const r = await create('bad-one', val, cls);
    assert.equal(r.status, 400, `${cls} ${JSON.stringify(val)}: ${r.text}`);
    assert.match(r.body.reason, re);
  }
  const versions = await t.post('/objs/query', { project_id: P, filter: { object_ids: ['bad-one'] } });
  assert.deepEqual(versions.body.objs, []);
});
