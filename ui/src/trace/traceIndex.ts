// A trace's calls as a tree, built as rows stream in and flattened over the expanded nodes
// for the virtual list. Rows arrive sorted by start, so children keep their start order.
// No cap on children or size: building is linear (tens of ms for 50,000 calls).
import type { UiTraceNode } from '../api/types';

export type TraceRow = UiTraceNode;

export interface FlatTree {
  /** Visible ids in display order. */
  readonly ids: readonly string[];
  readonly depths: readonly number[];
  readonly indexOf: ReadonlyMap<string, number>;
}

/** A call's usage with its descendants'. */
export interface Rollup {
  readonly tokens: number;
  /** USD; null: no priced usage below or at the call. */
  readonly cost: number | null;
  /** The call used models itself and nothing below it did: a model call. */
  readonly modelCall: boolean;
}

const NONE: Rollup = { tokens: 0, cost: null, modelCall: false };

export class TraceIndex {
  readonly rows = new Map<string, TraceRow>();
  /** Calls, in arrival order, whose parent had not arrived with them. */
  private readonly orphans: string[] = [];
  private readonly children = new Map<string, string[]>();
  /** Kept as rows arrive, so the header never rescans the trace. */
  errors = 0;
  // The earliest start and latest end as ISO strings, compared as strings (no date parsing
  // per row): exact to the millisecond, which is all the header and the timeline show.
  private first = '';
  private last = '';

  /** Start of the earliest call, ms since the epoch (Infinity: none yet). */
  get start(): number {
    return this.first === '' ? Infinity : Date.parse(this.first);
  }

  /** Latest end (or start, for a running call), ms since the epoch (-Infinity: none yet). */
  get end(): number {
    return this.last === '' ? -Infinity : Date.parse(this.last);
  }

  add(rows: readonly TraceRow[]): void {
    for (const r of rows) {
      if (this.rows.has(r.id)) continue;
      this.rows.set(r.id, r);
      if (r.status === 'error') this.errors++;
      if (this.first === '' || r.started_at < this.first) this.first = r.started_at;
      const last = r.ended_at ?? r.started_at;
      if (last > this.last) this.last = last;
      const parent = r.parent_id ?? null;
      // Parents nearly always arrive first (rows come by start time): only the calls whose
      // parent was absent on arrival can be roots, so roots() need not scan the trace.
      if (parent === null || !this.rows.has(parent)) this.orphans.push(r.id);
      if (parent !== null) {
        const list = this.children.get(parent);
        if (list) list.push(r.id);
        else this.children.set(parent, [r.id]);
      }
    }
  }

  private rolled: Map<string, Rollup> | null = null;
  private rolledAt = -1;

  /**
   * Tokens and cost of each call with its descendants'. The Python SDK already adds its
   * children's usage into a call's own summary, other writers do not: a call counts the
   * larger of its own figure and its children's sum, so usage is never counted twice.
   * Computed once per size of the trace (linear).
   */
  rollup(id: string): Rollup {
    if (this.rolled === null || this.rolledAt !== this.rows.size) {
      this.rolled = this.computeRollups();
      this.rolledAt = this.rows.size;
    }
    return this.rolled.get(id) ?? NONE;
  }

  /** The trace's whole usage: the sum over its roots. */
  totalUsage(): { tokens: number; cost: number | null } {
    let tokens = 0;
    let cost: number | null = null;
    for (const id of this.roots()) {
      const r = this.rollup(id);
      tokens += r.tokens;
      if (r.cost !== null) cost = (cost ?? 0) + r.cost;
    }
    return { tokens, cost };
  }

  private computeRollups(): Map<string, Rollup> {
    const order = this.flatten(new Set(), null).ids;
    const out = new Map<string, Rollup>();
    for (let i = order.length - 1; i >= 0; i--) {
      const id = order[i]!;
      const row = this.rows.get(id)!;
      let tokens = 0;
      let cost: number | null = null;
      for (const k of this.children.get(id) ?? []) {
        const r = out.get(k);
        if (r === undefined) continue;
        tokens += r.tokens;
        if (r.cost !== null) cost = (cost ?? 0) + r.cost;
      }
      const ownTokens = row.tokens ?? 0;
      const ownCost = row.cost_usd ?? null;
      out.set(id, {
        tokens: Math.max(ownTokens, tokens),
        cost: ownCost === null ? cost : cost === null ? ownCost : Math.max(ownCost, cost),
        modelCall: (row.models?.length ?? 0) > 0 && tokens === 0 && cost === null,
      });
    }
    return out;
  }

  /** Calls that failed themselves (not those with a failing descendant), in display order of the full tree. */
  errorIds(): string[] {
    return this.flatten(new Set(), null).ids.filter((id) => this.rows.get(id)!.status === 'error');
  }

  get size(): number {
    return this.rows.size;
  }

  childrenOf(id: string): readonly string[] {
    return this.children.get(id) ?? [];
  }

  parentOf(id: string): string | null {
    const p = this.rows.get(id)?.parent_id ?? null;
    return p !== null && this.rows.has(p) ? p : null;
  }

  /** Calls whose parent is not in the trace (the root, and orphans of a partial trace). */
  roots(): string[] {
    return this.orphans.filter((id) => this.parentOf(id) === null);
  }

  ancestors(id: string): string[] {
    const out: string[] = [];
    for (let p = this.parentOf(id); p !== null; p = this.parentOf(p)) out.push(p);
    return out;
  }

  depthOf(id: string): number {
    return this.ancestors(id).length;
  }

  /** The calls that failed and all their ancestors: what the errors-only tree shows. */
  errorPaths(): Set<string> {
    const out = new Set<string>();
    for (const [id, row] of this.rows) {
      if (row.status !== 'error') continue;
      for (let at: string | null = id; at !== null && !out.has(at); at = this.parentOf(at)) out.add(at);
    }
    return out;
  }

  /**
   * Depth-first order over the nodes not hidden by a collapsed ancestor; with `only`, over
   * those nodes alone, all open.
   */
  flatten(collapsed: ReadonlySet<string>, maxDepth: number | null, only: ReadonlySet<string> | null = null): FlatTree {
    if (only !== null) {
      collapsed = new Set();
      maxDepth = null;
    }
    const ids: string[] = [];
    const depths: number[] = [];
    const indexOf = new Map<string, number>();
    const stack: [string, number][] = this.roots()
      .filter((id) => only === null || only.has(id))
      .reverse()
      .map((id) => [id, 0]);
    while (stack.length > 0) {
      const [id, depth] = stack.pop()!;
      indexOf.set(id, ids.length);
      ids.push(id);
      depths.push(depth);
      if (collapsed.has(id) || (maxDepth !== null && depth >= maxDepth && !collapsed.has(`+${id}`))) continue;
      const kids = this.children.get(id);
      if (kids)
        for (let i = kids.length - 1; i >= 0; i--)
          if (only === null || only.has(kids[i]!)) stack.push([kids[i]!, depth + 1]);
    }
    return { ids, depths, indexOf };
  }

  /** Whether a node shows its children, under the same rules as flatten. */
  isOpen(id: string, depth: number, collapsed: ReadonlySet<string>, maxDepth: number | null): boolean {
    return !collapsed.has(id) && (maxDepth === null || depth < maxDepth || collapsed.has(`+${id}`));
  }
}
