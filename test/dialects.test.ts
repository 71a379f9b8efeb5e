// The two SQL dialects side by side: every node kind of the plan (query/plan.ts) and the
// orderings, printed by the one walk (storage/engine/plan-printer.ts) in SQLite's and ClickHouse's
// dialects over the same tiny table, compared with one golden file (test/fixtures/dialects.txt),
// so neither drifts without showing in review. What each prints is checked against the engines themselves elsewhere (the contract
// suite runs on both). After an intended change:
// WEFT_UPDATE_GOLDEN=1 node --import tsx --test test/dialects.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Expr, FieldRef, Literal, SortTerm } from '../src/query/plan.js';
import {
  printSqliteExpr,
  printSqliteOrderBy,
  sqliteJsonField,
  type FieldPrinter,
} from '../src/storage/sqlite/engine/dialect.js';
import {
  ChParams,
  chJsonField,
  printChExpr,
  printChOrderBy,
  type ChFieldPrinter,
} from '../src/storage/clickhouse/engine/dialect.js';

const GOLDEN = join(import.meta.dirname, 'fixtures', 'dialects.txt');

// Table t: text `name`, integer `n`, a JSON-array-of-strings `refs`, JSON text `j`.
const sqliteField: FieldPrinter = (f: FieldRef) => {
  if (f.kind === 'column' && (f.name === 'name' || f.name === 'refs'))
    return { sql: `t.${f.name}`, params: [], type: 'text', notNull: f.name === 'name' };
  if (f.kind === 'column' && f.name === 'n') return { sql: 't.n', params: [], type: 'integer' };
  if (f.kind === 'json' && f.column === 'j') return sqliteJsonField('t.j', f.path);
  throw new Error(`no field ${JSON.stringify(f)}`);
};
const chField: ChFieldPrinter = (f: FieldRef, params: ChParams) => {
  if (f.kind === 'column' && f.name === 'name') return { sql: 't.name', type: 'String', notNull: true };
  if (f.kind === 'column' && f.name === 'refs') return { sql: 't.refs', type: 'String', notNull: true };
  if (f.kind === 'column' && f.name === 'n') return { sql: 't.n', type: 'Int64' };
  if (f.kind === 'json' && f.column === 'j') return chJsonField('t.j', f.path, params);
  throw new Error(`no field ${JSON.stringify(f)}`);
};

const lit = (value: Literal): Expr => ({ kind: 'literal', value });
const name: Expr = { kind: 'field', field: { kind: 'column', name: 'name', type: 'string' } };
const n: Expr = { kind: 'field', field: { kind: 'column', name: 'n', type: 'int' } };
const json = (...path: string[]): Expr => ({ kind: 'field', field: { kind: 'json', column: 'j', path } });

const EXPRS: Record<string, Expr> = {
  'literal true': lit(true),
  'literal null': lit(null),
  'compare column = text': { kind: 'compare', op: 'eq', left: name, right: lit('x') },
  'compare int >= number': { kind: 'compare', op: 'gte', left: n, right: lit(5) },
  'compare json path < number': { kind: 'compare', op: 'lt', left: json('a', '0', 'b'), right: lit(2.5) },
  'compare json = json': { kind: 'compare', op: 'eq', left: json('a'), right: json('b') },
  'in list': { kind: 'in', left: name, items: [lit('a'), lit('b')] },
  'in empty': { kind: 'in', left: name, items: [] },
  'in json': { kind: 'in', left: json('k'), items: [lit('a'), lit(1)] },
  and: { kind: 'and', items: [lit(true), { kind: 'compare', op: 'gt', left: n, right: lit(1) }] },
  'or with null': { kind: 'or', items: [lit(false), lit(null)] },
  'not isNull column': { kind: 'not', item: { kind: 'isNull', input: name } },
  'isNull json': { kind: 'isNull', input: json('a') },
  'not compare json': { kind: 'not', item: { kind: 'compare', op: 'eq', left: json('a'), right: lit('x') } },
  'contains, case-insensitive': { kind: 'contains', input: name, substr: lit('Ab'), caseInsensitive: true },
  'contains json': { kind: 'contains', input: json('q'), substr: lit('paris'), caseInsensitive: false },
  startsWith: { kind: 'startsWith', input: name, prefix: 'op:' },
  arrayHasAny: { kind: 'arrayHasAny', column: 'refs', values: ['r1'], prefixes: ['r2:'] },
  'convert to double': { kind: 'convert', input: json('t'), to: 'double' },
  'convert to int': { kind: 'convert', input: json('t'), to: 'int' },
  'convert to string': { kind: 'convert', input: n, to: 'string' },
  'convert to bool': { kind: 'convert', input: json('t'), to: 'bool' },
  'convert to exists': { kind: 'convert', input: json('t'), to: 'exists' },
  'convert column to exists': { kind: 'convert', input: n, to: 'exists' },
  'and empty': { kind: 'and', items: [] },
  'or empty': { kind: 'or', items: [] },
  'arrayHasAny nothing': { kind: 'arrayHasAny', column: 'refs', values: [], prefixes: [] },
  'compare text column > number': { kind: 'compare', op: 'gt', left: name, right: lit(3) },
  'compare number <= json': { kind: 'compare', op: 'lte', left: lit(3), right: json('a') },
  'in mixed kinds': { kind: 'in', left: n, items: [lit('a'), lit(2)] },
};

const SORTS: Record<string, SortTerm[]> = {
  'column desc': [{ field: { kind: 'column', name: 'name', type: 'string' }, direction: 'desc' }],
  'json path asc, then int desc': [
    { field: { kind: 'json', column: 'j', path: ['a', 'b'] }, direction: 'asc' },
    { field: { kind: 'column', name: 'n', type: 'int' }, direction: 'desc' },
  ],
};

const show = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));

function printed(): string {
  const out: string[] = [];
  const both = (title: string, sqlite: { sql: string; params: unknown[] }, ch: ChParams, chSql: string) => {
    out.push(
      `## ${title}`,
      `sqlite:     ${sqlite.sql}`,
      `  params:   ${show(sqlite.params)}`,
      `clickhouse: ${chSql}`,
      `  params:   ${show(ch.values)}`,
      '',
    );
  };
  for (const [title, e] of Object.entries(EXPRS)) {
    const ch = new ChParams();
    both(title, printSqliteExpr(e, sqliteField), ch, printChExpr(e, chField, ch));
  }
  for (const [title, s] of Object.entries(SORTS)) {
    const ch = new ChParams();
    both(`order by ${title}`, printSqliteOrderBy(s, sqliteField), ch, printChOrderBy(s, chField, ch));
  }
  return `${out.join('\n')}`;
}

test('both dialects print every node kind and ordering as the golden file has them', () => {
  const text = printed();
  if (process.env.WEFT_UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
  assert.equal(text, readFileSync(GOLDEN, 'utf8'));
});

test('no value of a node reaches the SQL text of either dialect', () => {
  const hostile = "x'); DROP TABLE t; --";
  const e: Expr = {
    kind: 'and',
    items: [
      { kind: 'compare', op: 'eq', left: json(hostile), right: lit(hostile) },
      { kind: 'contains', input: name, substr: lit(hostile), caseInsensitive: true },
      { kind: 'startsWith', input: name, prefix: hostile },
      { kind: 'arrayHasAny', column: 'refs', values: [hostile], prefixes: [hostile] },
    ],
  };
  assert.ok(!printSqliteExpr(e, sqliteField).sql.includes('DROP'));
  assert.ok(!printChExpr(e, chField, new ChParams()).includes('DROP'));
});
