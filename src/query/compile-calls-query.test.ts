import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidFieldError } from '../api/errors.js';
import { compileCallsQuery } from './compile-calls-query.js';

const P = 'e/p';

test('defaults: no where, started_at asc + id tiebreak, all columns', () => {
  const q = compileCallsQuery({ project_id: P });
  assert.deepEqual(q, {
    projectId: P,
    where: null,
    limit: null,
    offset: null,
    columns: null,
    includeStorageSize: false,
    includeTotalStorageSize: false,
    sort: [
      { field: { kind: 'column', name: 'started_at', type: 'datetime' }, direction: 'asc' },
      { field: { kind: 'column', name: 'id', type: 'string' }, direction: 'asc' },
    ],
  });
  assert.deepEqual(compileCallsQuery({ project_id: P, sort_by: [] }).sort, []);
  assert.deepEqual(compileCallsQuery({ project_id: P, sort_by: [{ field: 'id', direction: 'desc' }] }).sort, [
    { field: { kind: 'column', name: 'id', type: 'string' }, direction: 'desc' },
  ]);
  assert.deepEqual(
    compileCallsQuery({ project_id: P, sort_by: [{ field: 'inputs.a.b', direction: 'desc' }] }).sort[0],
    {
      field: { kind: 'json', column: 'inputs', path: ['a', 'b'] },
      direction: 'desc',
    },
  );
  const paged = compileCallsQuery({
    project_id: P,
    limit: 10,
    offset: 20,
    include_storage_size: true,
    include_total_storage_size: true,
  });
  assert.deepEqual(
    [paged.limit, paged.offset, paged.includeStorageSize, paged.includeTotalStorageSize],
    [10, 20, true, true],
  );
});

test('unknown sort fields and columns are 422s', () => {
  assert.throws(
    () =>
      compileCallsQuery({
        project_id: P,
        sort_by: [
          { field: 'id', direction: 'asc' },
          { field: 'bogus', direction: 'asc' },
        ],
      }),
    (e: unknown) =>
      e instanceof InvalidFieldError && JSON.stringify(e.extra.detail).includes('["body","sort_by",1,"field"]'),
  );
  assert.throws(
    () => compileCallsQuery({ project_id: P, columns: ['id', 'bogus.x'] }),
    (e: unknown) => e instanceof InvalidFieldError && /bogus\.x/.test(e.message),
  );
});

test('columns: top-level names, required ones added, summary brings what derivation needs', () => {
  assert.deepEqual(compileCallsQuery({ project_id: P, columns: ['inputs.x', 'output'] }).columns, [
    'id',
    'project_id',
    'op_name',
    'trace_id',
    'started_at',
    'inputs',
    'output',
  ]);
  assert.deepEqual(
    compileCallsQuery({ project_id: P, columns: ['summary.weave.status', 'storage_size_bytes'] }).columns,
    ['id', 'project_id', 'op_name', 'display_name', 'trace_id', 'started_at', 'ended_at', 'exception', 'summary'],
  );
  // include_costs answers under summary.weave.costs, priced from summary.usage: the summary comes along.
  assert.deepEqual(compileCallsQuery({ project_id: P, columns: [], include_costs: true }).columns, [
    'id',
    'project_id',
    'op_name',
    'display_name',
    'trace_id',
    'started_at',
    'ended_at',
    'exception',
    'summary',
  ]);
});

// A list's bound (1000 entries, Weave's) is the request schema's: test/request-bounds.test.ts.
test('filter lists: an empty list is no constraint (as in Weave)', () => {
  for (const key of ['op_names', 'input_refs', 'output_refs', 'call_ids', 'trace_ids', 'wb_run_ids'] as const) {
    assert.equal(compileCallsQuery({ project_id: P, filter: { [key]: [] } }).where, null);
  }
});

test('filter and query combine with AND; wildcards become prefixes', () => {
  const q = compileCallsQuery({
    project_id: P,
    filter: {
      op_names: ['a', 'weave:///e/p/op/b:*'],
      input_refs: ['weave:///e/p/object/d:*', 'r1'],
      trace_roots_only: true,
    },
    query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: 'x' }] } },
  });
  const opName = { kind: 'field', field: { kind: 'column', name: 'op_name', type: 'string' } };
  assert.deepEqual(q.where, {
    kind: 'and',
    items: [
      {
        kind: 'or',
        items: [
          { kind: 'in', left: opName, items: [{ kind: 'literal', value: 'a' }] },
          { kind: 'startsWith', input: opName, prefix: 'weave:///e/p/op/b:' },
        ],
      },
      { kind: 'arrayHasAny', column: 'input_refs', values: ['r1'], prefixes: ['weave:///e/p/object/d:'] },
      { kind: 'isNull', input: { kind: 'field', field: { kind: 'column', name: 'parent_id', type: 'string' } } },
      {
        kind: 'compare',
        op: 'eq',
        left: { kind: 'field', field: { kind: 'column', name: 'id', type: 'string' } },
        right: { kind: 'literal', value: 'x' },
      },
    ],
  });
  assert.equal(compileCallsQuery({ project_id: P, filter: { trace_roots_only: false } }).where, null);
});
