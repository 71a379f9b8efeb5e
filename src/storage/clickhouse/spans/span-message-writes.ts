// The searchable messages of agent spans on ClickHouse, once per scope (conversation, else
// trace) at their first occurrence (engine/migrations/008-conversation-messages.ts), kept by the
// span store's write lane after each write settles its traces (SQLite's rules:
// sqlite/spans/span-message-writes.ts). A write reads the stored first occurrences of the scopes
// its traces speak in, and of those traces, and inserts only what changed: a message new to its
// scope, or an earlier occurrence. A stored first occurrence inside a written trace that the
// trace no longer holds there (a span sent again, moved by a late root) is looked for again
// among the scope's other spans, as a purge does for the traces it drops; a message with no
// occurrence left is deleted. Without transactions a failure leaves the rows of the next write
// of those traces to set right. Values reach SQL only as parameters.
import type { ClickHouseClient } from '@clickhouse/client';
import type { SpanRow } from '../../../query/span-columns.js';
import { FANOUT_COLUMNS, messageFanout, messageScope, occursBefore } from '../../spans/message-fanout.js';
import { selectRows } from '../engine/client.js';
import { deleteStatement, type ChDdlMode } from '../engine/ddl.js';
import { chIdentifier } from '../engine/dialect.js';

interface First {
  readonly scope: string;
  readonly role: string;
  readonly digest: string;
  readonly trace_id: string;
  readonly span_id: string;
  readonly ord: number;
  readonly started_at: number;
  readonly conversation_id: string | null;
}
const keyOf = (f: Pick<First, 'scope' | 'role' | 'digest'>) => `${f.scope}\u0000${f.role}\u0000${f.digest}`;
const SPAN = `trace_id, span_id, started_at, conversation_id, ${FANOUT_COLUMNS.join(', ')}`;

/** The first occurrence of each message among these (settled) spans, by key. */
function firsts(spans: readonly SpanRow[]): Map<string, First> {
  const out = new Map<string, First>();
  for (const s of spans) {
    const conversation = s.conversation_id === null ? null : String(s.conversation_id);
    const scope = messageScope(conversation, String(s.trace_id));
    messageFanout(s).forEach((m, ord) => {
      const f: First = {
        scope,
        role: m.role,
        digest: m.digest,
        trace_id: String(s.trace_id),
        span_id: String(s.span_id),
        ord,
        started_at: Number(s.started_at),
        conversation_id: conversation,
      };
      const best = out.get(keyOf(f));
      if (best === undefined || occursBefore(f, best)) out.set(keyOf(f), f);
    });
  }
  return out;
}

export function createClickHouseMessageWrites(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode,
  nextSeq: () => number,
) {
  const db = chIdentifier(database);
  const table = `${db}.span_first_messages`;
  const stored = (where: string, params: Record<string, unknown>) =>
    selectRows<First & { started_at: string | number; ord: string | number }>(
      client,
      `SELECT scope, role, digest, trace_id, span_id, ord, started_at, conversation_id FROM ${table} FINAL
       WHERE project_id = {p:String} AND ${where}`,
      params,
    ).then((rows) => rows.map((r) => ({ ...r, ord: Number(r.ord), started_at: Number(r.started_at) })));

  /** The first occurrences of `keys` among the scope's spans outside the traces `skip`. */
  async function scan(p: string, scope: string, skip: readonly string[]): Promise<Map<string, First>> {
    const where = scope.startsWith('c:')
      ? 'conversation_id = {id:String}'
      : 'trace_id = {id:String} AND conversation_id IS NULL';
    const spans = await selectRows<SpanRow>(
      client,
      `SELECT ${SPAN} FROM ${db}.spans FINAL WHERE project_id = {p:String} AND ${where} AND NOT has({skip:Array(String)}, trace_id)`,
      { p, id: scope.slice(2), skip },
    );
    return firsts(spans);
  }

  /**
   * Gives each message of `lost` (keys whose stored first occurrence lay in the traces `skip`) its
   * least occurrence among `known` and the scope's spans outside `skip`; inserts those, deletes
   * the keys with none and returns their digests.
   */
  async function refind(p: string, lost: Map<string, First>, known: Map<string, First>, skip: readonly string[]) {
    const put: First[] = [];
    const gone: First[] = [];
    const scopes = new Map<string, First[]>();
    for (const f of lost.values()) scopes.set(f.scope, [...(scopes.get(f.scope) ?? []), f]);
    for (const [scope, keys] of scopes) {
      const elsewhere = await scan(p, scope, skip);
      for (const f of keys) {
        const [a, b] = [known.get(keyOf(f)), elsewhere.get(keyOf(f))];
        const best = a === undefined ? b : b === undefined || occursBefore(a, b) ? a : b;
        if (best === undefined) gone.push(f);
        else put.push(best);
      }
    }
    await insert(p, put);
    if (gone.length > 0)
      await client.command({
        query: deleteStatement(
          database,
          'span_first_messages',
          mode,
          'project_id = {p:String} AND (scope, role, digest) IN (SELECT arrayJoin(arrayZip({s:Array(String)}, {r:Array(String)}, {d:Array(String)})))',
        ),
        query_params: { p, s: gone.map((f) => f.scope), r: gone.map((f) => f.role), d: gone.map((f) => f.digest) },
      });
    return gone.map((f) => f.digest);
  }

  const insert = async (p: string, rows: readonly First[]) => {
    if (rows.length > 0)
      await client.insert({
        table,
        values: rows.map((f) => ({ ...f, project_id: p, seq: nextSeq() })),
        format: 'JSONEachRow',
      });
  };

  return {
    /** Stores the bodies of the spans' messages, once per (project, digest) after merges. */
    async bodies(rows: readonly SpanRow[]): Promise<void> {
      const found = new Map<string, Record<string, unknown>>();
      for (const r of rows)
        for (const m of messageFanout(r))
          found.set(`${r.project_id}\u0000${m.digest}`, {
            project_id: r.project_id,
            digest: m.digest,
            content: m.content,
          });
      if (found.size > 0)
        await client.insert({
          table: `${db}.span_message_bodies`,
          values: [...found.values()].map((b) => ({ ...b, seq: nextSeq() })),
          format: 'JSONEachRow',
        });
    },

    /** After a write settled `traces` (each with every stored span, settled): their first occurrences set right. */
    async write(p: string, traces: ReadonlyMap<string, readonly SpanRow[]>): Promise<void> {
      const found = firsts([...traces.values()].flat());
      if (found.size === 0 && traces.size === 0) return;
      const touched = [...traces.keys()];
      const inTouched = new Set(touched);
      const scopes = [...new Set([...found.values()].map((f) => f.scope))];
      // Two reads, each by its index (the key's scope; the trace's bloom filter, migration 10):
      // as one condition with OR, neither prunes anything.
      const [byScope, byTrace] = await Promise.all([
        scopes.length === 0 ? [] : stored('scope IN {s:Array(String)}', { p, s: scopes }),
        stored('trace_id IN {t:Array(String)}', { p, t: touched }),
      ]);
      // A key in both: the scope's read (by the key itself, exact under FINAL) wins.
      const before = [...new Map([...byTrace, ...byScope].map((f) => [keyOf(f), f])).values()];
      const now = new Map(before.map((f) => [keyOf(f), f]));
      const add: First[] = [];
      const lost = new Map<string, First>();
      for (const [k, f] of found) {
        const e = now.get(k);
        if (e === undefined || occursBefore(f, e)) add.push(f);
        else if (inTouched.has(e.trace_id) && (e.trace_id !== f.trace_id || e.span_id !== f.span_id || e.ord !== f.ord))
          lost.set(k, e); // its stored first occurrence is no longer there: another trace may hold an earlier one
      }
      for (const e of before) if (inTouched.has(e.trace_id) && !found.has(keyOf(e))) lost.set(keyOf(e), e);
      await insert(p, add);
      if (lost.size > 0) await refind(p, lost, found, touched);
    },

    /** Before a purge drops the traces `t`: what they said first handed on; returns the digests said nowhere else in their scopes. */
    async purge(p: string, t: readonly string[]): Promise<string[]> {
      const lost = new Map((await stored('has({t:Array(String)}, trace_id)', { p, t })).map((f) => [keyOf(f), f]));
      return lost.size === 0 ? [] : refind(p, lost, new Map(), t);
    },
  };
}
