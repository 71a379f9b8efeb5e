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
  private readonly order: string[] = [];
  private readonly children = new Map<string, string[]>();
  /** Kept as rows arrive, so the header never rescans the trace. */
  errors = 0;
  start = Infinity;
  end = -Infinity;

  add(rows: readonly TraceRow[]): void {
    for (const r of rows) {
      if (this.rows.has(r.id)) continue;
      this.rows.set(r.id, r);
      this.order.push(r.id);
      if (r.status === 'error') this.errors++;
      const started = Date.parse(r.started_at);
      this.start = Math.min(this.start, started);
      this.end = Math.max(this.end, r.ended_at ? Date.parse(r.ended_at) : started);
      const parent = r.parent_id ?? null;
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
    return this.order.filter((id) => this.parentOf(id) === null);
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
    const stack: [string, number][] = this.roots().reverse().map((id) => [id, 0]);
    while (stack.length > 0) {
      const [id, depth] = stack.pop()!;
      ids.push(id);
      depths.push(depth);
      if (collapsed.has(id) || (maxDepth !== null && depth >= maxDepth && !collapsed.has(`+${id}`))) continue;
      const kids = this.children.get(id);
      if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth + 1]);
    }
    return { ids, depths, indexOf: new Map(ids.map((id, i) => [id, i])) };
  }

  /** Whether a node shows its children, under the same rules as flatten. */
  isOpen(id: string, depth: number, collapsed: ReadonlySet<string>, maxDepth: number | null): boolean {
    return !collapsed.has(id) && (maxDepth === null || depth < maxDepth || collapsed.has(`+${id}`));
  }
}
