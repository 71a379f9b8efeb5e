import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { ConvertTarget, Expr, FieldRef, Literal } from '../../../query/plan.js';
import {
  printSqliteExpr,
  printSqliteOrderBy,
  sqliteJsonField,
  sqliteJsonPath,
  sqliteJsonValue,
  type FieldPrinter,
} from './dialect.js';

// A tiny resource: table `t` with a text column `name`, an integer `n` and JSON text `j`.
const printT: FieldPrinter = (f: FieldRef) => {
  if (f.kind === 'column' && (f.name === 'name' || f.name === 'refs'))
    return { sql: `t.${f.name}`, params: [], type: 'text' };
  if (f.kind === 'column' && f.name === 'n') return { sql: 't.n', params: [], type: 'integer' };
  if (f.kind === 'json' && f.column === 'j') return sqliteJsonField('t.j', f.path);
  throw new Error(`no field ${JSON.stringify(f)}`);
};
const lit = (value: Literal): Expr => ({ kind: 'literal', value });
const col = (name: string): Expr => ({ kind: 'field', field: { kind: 'column', name, type: 'string' } });
const json = (...path: string[]): Expr => ({ kind: 'field', field: { kind: 'json', column: 'j', path } });

test('exact SQL and params of simple nodes', () => {
  const p = (e: Expr) => printSqliteExpr(e, printT);
  assert.deepEqual(p({ kind: 'compare', op: 'gte', left: col('name'), right: lit('x') }), {
    sql: '(t.name >= ?)',
    params: ['x'],
  });
  assert.deepEqual(p({ kind: 'compare', op: 'eq', left: col('n'), right: lit(true) }), {
    sql: '(t.n = ?)',
    params: [1n],
  });
  assert.deepEqual(p({ kind: 'in', left: col('name'), items: [lit('a'), lit('b')] }), {
    sql: '(t.name IN (?, ?))',
    params: ['a', 'b'],
  });
  assert.deepEqual(p({ kind: 'in', left: col('name'), items: [] }), { sql: '0', params: [] });
  assert.deepEqual(p({ kind: 'not', item: { kind: 'isNull', input: col('name') } }), {
    sql: '(NOT (t.name IS NULL))',
    params: [],
  });
  assert.deepEqual(p({ kind: 'contains', input: col('name'), substr: lit('Ab'), caseInsensitive: true }), {
    sql: '(instr(lower(t.name), lower(?)) > 0)',
    params: ['Ab'],
  });
  assert.deepEqual(p({ kind: 'startsWith', input: col('name'), prefix: 'op:' }), {
    sql: '(t.name >= ? AND t.name < ?)',
    params: ['op:', 'op;'],
  });
  assert.deepEqual(p({ kind: 'and', items: [lit(true), { kind: 'or', items: [lit(false), lit(null)] }] }), {
    sql: '(? AND (? OR NULL))',
    params: [1n, 0n],
  });
  assert.deepEqual(p({ kind: 'arrayHasAny', column: 'refs', values: ['r1'], prefixes: ['r2:'] }), {
    sql: 'EXISTS (SELECT 1 FROM json_each(t.refs) AS je WHERE je.value IN (?) OR (je.value >= ? AND je.value < ?))',
    params: ['r1', 'r2:', 'r2;'],
  });
  assert.deepEqual(p({ kind: 'convert', input: col('n'), to: 'double' }), { sql: 'CAST(t.n AS REAL)', params: [] });
  assert.deepEqual(printSqliteOrderBy([], printT), { sql: '', params: [] });
  assert.deepEqual(
    printSqliteOrderBy([{ field: { kind: 'column', name: 'name', type: 'string' }, direction: 'desc' }], printT),
    {
      sql: 'ORDER BY t.name DESC NULLS LAST',
      params: [],
    },
  );
});

test('JSON paths quote keys and index lists; values never reach SQL text', () => {
  assert.equal(sqliteJsonPath(['a', '0', 'b.c', 'q"x', 'back\\slash']), '$."a"[0]."b.c"."q\\"x"."back\\\\slash"');
  const v = sqliteJsonValue('t.j', ["'); DROP TABLE t; --"]);
  assert.ok(!v.sql.includes('DROP'));
  assert.ok(v.params.every((x) => x === `$."'); DROP TABLE t; --"`));
  assert.throws(() => sqliteJsonValue('t.j; DROP TABLE t', ['a']), /not a safe SQL identifier/);
});

function db() {
  const d = new Database(':memory:');
  d.exec('CREATE TABLE t (id INTEGER, name TEXT, n INTEGER, j TEXT, refs TEXT)');
  const rows: [number, string | null, number | null, string][] = [
    [
      1,
      'Alpha',
      5,
      '{"s":"x","n":5,"f":2.5,"r":5.0,"b":true,"z":null,"o":{"k":[1,{"y":"z"}]},"l":[10,"two",true],"a.b":"dot","q\\"x":"quote","e":""}',
    ],
    [2, 'beta', null, '{"s":"Y","n":"12","b":"false","l":[]}'],
    [3, null, 7, '{"n":-3.25,"b":1}'],
    [4, 'ALPHA beta', 0, '{}'],
  ];
  const ins = d.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?)');
  for (const r of rows) ins.run(...r, JSON.stringify([`ref-${r[0]}:v1`, `ref-x:v${r[0]}`]));
  return d;
}

/** Evaluates an expression per row of `t`: {id: value}. */
function evalPer(d: Database.Database, e: Expr): Record<number, unknown> {
  const f = printSqliteExpr(e, printT);
  const rows = d.prepare(`SELECT t.id AS id, ${f.sql} AS v FROM t ORDER BY t.id`).all(...f.params) as {
    id: number;
    v: unknown;
  }[];
  return Object.fromEntries(rows.map((r) => [r.id, r.v]));
}
const where = (d: Database.Database, e: Expr) => {
  const f = printSqliteExpr(e, printT);
  return d
    .prepare(`SELECT id FROM t WHERE ${f.sql} ORDER BY id`)
    .pluck()
    .all(...f.params) as number[];
};

test('JSON_VALUE follows ClickHouse: missing/null -> "", strings bare, bools, numbers, minified JSON', () => {
  const d = db();
  const row1 = (...path: string[]) => evalPer(d, json(...path))[1];
  assert.equal(row1('s'), 'x');
  assert.equal(row1('n'), '5');
  assert.equal(row1('f'), '2.5');
  assert.equal(row1('r'), '5');
  assert.equal(row1('b'), 'true');
  assert.equal(row1('z'), '');
  assert.equal(row1('missing'), '');
  assert.equal(row1('s', 'deeper'), '');
  assert.equal(row1('o'), '{"k":[1,{"y":"z"}]}');
  assert.equal(row1('o', 'k', '1', 'y'), 'z');
  assert.equal(row1('l', '1'), 'two');
  assert.equal(row1('l', '2'), 'true');
  assert.equal(row1('l', '9'), '');
  assert.equal(row1('a.b'), 'dot');
  assert.equal(row1('q"x'), 'quote');
  // Whole values are minified JSON text (numbers keep their stored spelling inside).
  assert.equal(evalPer(d, json())[2], '{"s":"Y","n":"12","b":"false","l":[]}');
  assert.equal(evalPer(d, json('l'))[2], '[]');
});

test('casts: int, double, bool, string, exists', () => {
  const d = db();
  const conv = (input: Expr, to: ConvertTarget) => evalPer(d, { kind: 'convert', input, to });
  assert.deepEqual(conv(json('n'), 'double'), { 1: 5, 2: 12, 3: -3.25, 4: null });
  assert.deepEqual(conv(json('n'), 'int'), { 1: 5, 2: 12, 3: null, 4: null });
  assert.deepEqual(conv(json('s'), 'double'), { 1: null, 2: null, 3: null, 4: null });
  assert.deepEqual(conv(json('b'), 'bool'), { 1: 1, 2: 0, 3: 1, 4: null });
  assert.deepEqual(conv(json('z'), 'exists'), { 1: 0, 2: 0, 3: 0, 4: 0 });
  assert.deepEqual(conv(json('e'), 'exists'), { 1: 1, 2: 0, 3: 0, 4: 0 });
  assert.deepEqual(conv(json('l'), 'exists'), { 1: 1, 2: 1, 3: 0, 4: 0 });
  assert.deepEqual(conv(col('n'), 'string'), { 1: '5', 2: null, 3: '7', 4: '0' });
  assert.deepEqual(conv(col('n'), 'exists'), { 1: 1, 2: 0, 3: 1, 4: 1 });
  assert.deepEqual(conv(col('n'), 'bool'), { 1: null, 2: null, 3: null, 4: 0 });
  for (const [text, double, int, bool] of [
    ['42', 42, 42, null],
    ['-1.5e2', -150, null, null],
    ['abc', null, null, null],
    ['', null, null, null],
    ['5 apples', null, null, null],
    ['1', 1, 1, 1],
    ['false', null, null, 0],
  ] as const) {
    const one = (to: ConvertTarget) => evalPer(d, { kind: 'convert', input: lit(text), to })[1];
    assert.equal(one('double'), double, `double(${text})`);
    assert.equal(one('int'), int, `int(${text})`);
    assert.equal(one('bool'), bool, `bool(${text})`);
  }
  assert.deepEqual(evalPer(d, { kind: 'convert', input: lit(5), to: 'string' })[1], '5');
  assert.deepEqual(evalPer(d, { kind: 'convert', input: lit(2.5), to: 'string' })[1], '2.5');
  assert.deepEqual(evalPer(d, { kind: 'convert', input: lit(true), to: 'string' })[1], 'true');
});

test('contains is case-sensitive unless asked; NOT of a comparison with NULL is not true (SQL, as Weave)', () => {
  const d = db();
  assert.deepEqual(
    where(d, { kind: 'contains', input: col('name'), substr: lit('alpha'), caseInsensitive: false }),
    [],
  );
  assert.deepEqual(
    where(d, { kind: 'contains', input: col('name'), substr: lit('alpha'), caseInsensitive: true }),
    [1, 4],
  );
  assert.deepEqual(where(d, { kind: 'contains', input: col('name'), substr: lit('%'), caseInsensitive: true }), []);
  assert.deepEqual(where(d, { kind: 'compare', op: 'eq', left: col('name'), right: lit('beta') }), [2]);
  // Row 3's name is NULL: neither name = 'beta' nor its negation holds for it.
  assert.deepEqual(
    where(d, { kind: 'not', item: { kind: 'compare', op: 'eq', left: col('name'), right: lit('beta') } }),
    [1, 4],
  );
  assert.deepEqual(where(d, { kind: 'isNull', input: json('z') }), [1, 2, 3, 4]);
  assert.deepEqual(where(d, { kind: 'isNull', input: json('s') }), [3, 4]);
  assert.deepEqual(
    where(d, { kind: 'arrayHasAny', column: 'refs', values: ['ref-2:v1'], prefixes: ['ref-x:'] }),
    [1, 2, 3, 4],
  );
  assert.deepEqual(
    where(d, { kind: 'arrayHasAny', column: 'refs', values: ['ref-2:v1', 'ref-x:v3'], prefixes: [] }),
    [2, 3],
  );
});

test('ORDER BY: dynamic fields present first, then numeric, then text; NULLs last both ways', () => {
  const d = db();
  const order = (field: FieldRef, direction: 'asc' | 'desc') => {
    const o = printSqliteOrderBy(
      [
        { field, direction },
        { field: { kind: 'column', name: 'id', type: 'int' }, direction: 'asc' },
      ],
      (f) => (f.kind === 'column' && f.name === 'id' ? { sql: 't.id', params: [] } : printT(f)),
    );
    return d
      .prepare(`SELECT id FROM t ${o.sql}`)
      .pluck()
      .all(...o.params);
  };
  const n: FieldRef = { kind: 'json', column: 'j', path: ['n'] };
  assert.deepEqual(order(n, 'asc'), [3, 1, 2, 4]);
  assert.deepEqual(order(n, 'desc'), [2, 1, 3, 4]);
  const s: FieldRef = { kind: 'json', column: 'j', path: ['s'] };
  // Text compares byte-wise, as in ClickHouse: 'Y' < 'x'.
  assert.deepEqual(order(s, 'asc'), [2, 1, 3, 4]);
  assert.deepEqual(order(s, 'desc'), [1, 2, 3, 4]);
  const name: FieldRef = { kind: 'column', name: 'name', type: 'string' };
  assert.deepEqual(order(name, 'asc'), [4, 1, 2, 3]);
  assert.deepEqual(order(name, 'desc'), [2, 1, 4, 3]);
});
