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

  /** Depth-first order over the nodes not hidden by a collapsed ancestor. */
  flatten(collapsed: ReadonlySet<string>, maxDepth: number | null): FlatTree {
    const ids: string[] = [];
    const depths: number[] = [];
    const indexOf = new Map<string, number>();
    const stack: [string, number][] = this.roots()
      .reverse()
      .map((id) => [id, 0]);
    while (stack.length > 0) {
      const [id, depth] = stack.pop()!;
      indexOf.set(id, ids.length);
      ids.push(id);
      depths.push(depth);
      if (collapsed.has(id) || (maxDepth !== null && depth >= maxDepth && !collapsed.has(`+${id}`))) continue;
      const kids = this.children.get(id);
      if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth + 1]);
    }
    return { ids, depths, indexOf };
  }

  /** Whether a node shows its children, under the same rules as flatten. */
  isOpen(id: string, depth: number, collapsed: ReadonlySet<string>, maxDepth: number | null): boolean {
    return !collapsed.has(id) && (maxDepth === null || depth < maxDepth || collapsed.has(`+${id}`));
  }
}
