import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidFieldError, InvalidRequestError } from '../api/errors.js';
import { callsFieldCatalog } from './calls-fields.js';
import { compileQuery } from './compile-query.js';
import type { Expr } from './plan.js';

const compile = ($expr: unknown) => compileQuery({ $expr: $expr as Record<string, unknown> }, callsFieldCatalog);
const f = (name: string) => ({ $getField: name });
const l = (value: unknown) => ({ $literal: value });

test('malformed structures are 400s naming the place', () => {
  const cases: [unknown, RegExp][] = [
    [{}, /\$expr: expected exactly one operator key, got none/],
    [{ $eq: [f('id'), l('a')], $gt: [f('id'), l('a')] }, /exactly one operator key, got \$eq, \$gt/],
    [{ $and: [] }, /Empty AND operation/],
    [{ $or: [] }, /Empty OR operation/],
    [{ $and: {} }, /\$expr\.\$and: expected an array of operands/],
    [{ $not: [] }, /\$expr\.\$not: expected exactly 1 operand, got 0/],
    [{ $not: [{ $eq: [f('id'), l('a')] }, { $eq: [f('id'), l('b')] }] }, /expected exactly 1 operand, got 2/],
    [{ $eq: [f('id')] }, /\$expr\.\$eq: expected exactly 2 operands, got 1/],
    [{ $gte: [f('id'), l('a'), l('b')] }, /expected exactly 2 operands, got 3/],
    [{ $in: [f('id'), l('a')] }, /\$expr\.\$in\[1\]: expected an array of operands/],
    [{ $in: [f('id')] }, /expected exactly 2 operands/],
    [{ $contains: { input: f('id') } }, /\$expr\.\$contains: missing "substr"/],
    [{ $contains: { input: f('id'), substr: l(5) } }, /\$contains\.substr: the substring must be a string/],
    [
      { $contains: { input: f('id'), substr: l('a'), case_insensitive: 'yes' } },
      /case_insensitive: expected a boolean/,
    ],
    [{ $contains: { input: f('id'), substr: l('a'), extra: 1 } }, /unexpected key "extra"/],
    [{ $convert: { input: f('id'), to: 'double' } }, /expected an operation/],
    [{ $literal: true }, /expected an operation/],
    [
      { $eq: [{ $convert: { input: f('id'), to: 'float' } }, l(1)] },
      /\$expr\.\$eq\[0\]\.\$convert\.to: expected one of/,
    ],
    [{ $eq: [{ $convert: { input: f('id') } }, l(1)] }, /missing "to"/],
    [{ $eq: [f(''), l(1)] }, /\$getField: expected a non-empty field name/],
    [{ $eq: [{ $getField: 5 }, l(1)] }, /\$getField: expected a non-empty field name/],
    [{ $eq: [l({ a: 1 }), l(1)] }, /\$expr\.\$eq\[0\]\.\$literal: only string, number, boolean and null literals/],
    [{ $eq: [l([1]), l(1)] }, /only string, number/],
    [{ $eq: [{ $regex: 'x' }, l(1)] }, /\$expr\.\$eq\[0\]: unknown operator "\$regex"/],
    [
      { $and: [{ $eq: [f('id'), 'bare'] }] },
      /\$expr\.\$and\[0\]\.\$eq\[1\]: expected an object with one operator key, got a string/,
    ],
    [{ $eq: [f('started_at'), l('yesterday')] }, /cannot compare a datetime field/],
    [{ $unknown: [] }, /expected an operation/],
  ];
  for (const [expr, message] of cases) {
    assert.throws(
      () => compile(expr),
      (e: unknown) => e instanceof InvalidRequestError && message.test(e.message),
      JSON.stringify(expr),
    );
  }
});

test('unknown fields are 422s from the catalog', () => {
  for (const name of [
    'nope',
    'input.x',
    'inputs..x',
    'feedback.x',
    'feedback.[t].nope',
    'feedback.[].payload',
    'summary.',
    'storage_size_bytes',
  ]) {
    assert.throws(() => compile({ $eq: [f(name), l('a')] }), InvalidFieldError, name);
  }
});

test('fields resolve to columns, JSON paths, computed and feedback fields', () => {
  const r = (n: string) => callsFieldCatalog.resolve(n);
  assert.deepEqual(r('started_at'), { kind: 'column', name: 'started_at', type: 'datetime' });
  assert.deepEqual(r('wb_run_step'), { kind: 'column', name: 'wb_run_step', type: 'int' });
  assert.deepEqual(r('inputs'), { kind: 'json', column: 'inputs', path: [] });
  assert.deepEqual(r('inputs.a.0.b'), { kind: 'json', column: 'inputs', path: ['a', '0', 'b'] });
  assert.deepEqual(r('output.a\\.b.c'), { kind: 'json', column: 'output', path: ['a.b', 'c'] });
  assert.deepEqual(r('summary.weave.status'), { kind: 'computed', name: 'status' });
  assert.deepEqual(r('summary.weave.latency_ms'), { kind: 'computed', name: 'latency_ms' });
  assert.deepEqual(r('summary.weave.trace_name'), { kind: 'computed', name: 'trace_name' });
  assert.deepEqual(r('summary.weave.other'), { kind: 'json', column: 'summary', path: ['weave', 'other'] });
  assert.deepEqual(r('summary.usage.gpt.requests'), {
    kind: 'json',
    column: 'summary',
    path: ['usage', 'gpt', 'requests'],
  });
  assert.deepEqual(r('feedback.[wandb.reaction.1].payload.emoji'), {
    kind: 'feedback',
    feedbackType: 'wandb.reaction.1',
    path: ['payload', 'emoji'],
  });
  assert.deepEqual(r('feedback.[*].runnable_ref'), { kind: 'feedback', feedbackType: null, path: ['runnable_ref'] });
  assert.deepEqual(r('feedback.[x].payload'), { kind: 'feedback', feedbackType: 'x', path: ['payload'] });
});

test('$eq null is IS NULL; casts are inferred for dynamic fields; datetimes become micros', () => {
  const json = { kind: 'field', field: { kind: 'json', column: 'inputs', path: ['n'] } } as const;
  assert.deepEqual(compile({ $eq: [f('inputs.n'), l(null)] }), { kind: 'isNull', input: json });
  assert.deepEqual(compile({ $eq: [l(null), f('parent_id')] }), {
    kind: 'isNull',
    input: { kind: 'field', field: { kind: 'column', name: 'parent_id', type: 'string' } },
  });
  assert.deepEqual(compile({ $gt: [f('inputs.n'), l(5)] }), {
    kind: 'compare',
    op: 'gt',
    left: { kind: 'convert', input: json, to: 'double' },
    right: { kind: 'literal', value: 5 },
  });
  assert.deepEqual(compile({ $lte: [l(true), f('inputs.n')] }), {
    kind: 'compare',
    op: 'lte',
    left: { kind: 'literal', value: true },
    right: { kind: 'convert', input: json, to: 'bool' },
  });
  // Strings compare as JSON_VALUE text; mixed lists are left alone.
  assert.deepEqual((compile({ $eq: [f('inputs.n'), l('5')] }) as Extract<Expr, { kind: 'compare' }>).left, json);
  assert.deepEqual((compile({ $in: [f('inputs.n'), [l(1), l(2.5), l(null)]] }) as Extract<Expr, { kind: 'in' }>).left, {
    kind: 'convert',
    input: json,
    to: 'double',
  });
  assert.deepEqual((compile({ $in: [f('inputs.n'), [l(1), l('a')]] }) as Extract<Expr, { kind: 'in' }>).left, json);
  // An explicit $convert is kept as written.
  assert.deepEqual(
    (compile({ $eq: [{ $convert: { input: f('inputs.n'), to: 'int' } }, l(5)] }) as Extract<Expr, { kind: 'compare' }>)
      .left,
    { kind: 'convert', input: json, to: 'int' },
  );
  const started = { kind: 'field', field: { kind: 'column', name: 'started_at', type: 'datetime' } } as const;
  assert.deepEqual(compile({ $gte: [f('started_at'), l('2024-01-01T00:00:01.5Z')] }), {
    kind: 'compare',
    op: 'gte',
    left: started,
    right: { kind: 'literal', value: 1704067201500000 },
  });
  assert.deepEqual(compile({ $lt: [l(1704067201), f('started_at')] }), {
    kind: 'compare',
    op: 'lt',
    left: { kind: 'literal', value: 1704067201000000 },
    right: started,
  });
  assert.deepEqual(compile({ $in: [f('ended_at'), [l('2024-01-01T00:00:00'), l(0)]] }), {
    kind: 'in',
    left: { kind: 'field', field: { kind: 'column', name: 'ended_at', type: 'datetime' } },
    items: [
      { kind: 'literal', value: 1704067200000000 },
      { kind: 'literal', value: 0 },
    ],
  });
});

test('logical operators, $contains and nesting compile to plan nodes', () => {
  const id = { kind: 'field', field: { kind: 'column', name: 'id', type: 'string' } } as const;
  assert.deepEqual(
    compile({
      $and: [
        { $not: [{ $eq: [f('id'), l('a')] }] },
        { $or: [{ $contains: { input: f('id'), substr: l('b'), case_insensitive: true } }] },
      ],
    }),
    {
      kind: 'and',
      items: [
        { kind: 'not', item: { kind: 'compare', op: 'eq', left: id, right: { kind: 'literal', value: 'a' } } },
        {
          kind: 'or',
          items: [{ kind: 'contains', input: id, substr: { kind: 'literal', value: 'b' }, caseInsensitive: true }],
        },
      ],
    },
  );
  assert.deepEqual(compile({ $contains: { input: f('id'), substr: l('b'), case_insensitive: null } }), {
    kind: 'contains',
    input: id,
    substr: { kind: 'literal', value: 'b' },
    caseInsensitive: false,
  });
  assert.deepEqual(compile({ $in: [f('id'), []] }), { kind: 'in', left: id, items: [] });
});
