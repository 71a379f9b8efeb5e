// The feedback fields of a calls statement on ClickHouse: one LEFT JOIN per distinct
// (feedback type, path), aggregated per call ref, so a filter and a sort naming the same field
// share it. SQLite reads the same fields with correlated subqueries (sqlite/calls/call-select.ts).
import { type ChField, type ChParams, chIdentifier, chJsonField } from '../engine/dialect.js';

/** The feedback joins a statement needs: one per distinct (type, path), as LEFT JOIN text. */
export class FeedbackJoins {
  readonly joins: string[] = [];
  private readonly byKey = new Map<string, number>();

  constructor(
    private readonly database: string,
    private readonly projectParam: string,
  ) {}

  /**
   * The value of the most recent feedback row on the call (optionally of one type), preferring
   * rows where the field is present; NULL when the call has no such feedback (as on SQLite).
   * `count`: how many such rows (0 when none).
   */
  field(feedbackType: string | null, path: readonly string[], params: ChParams): ChField {
    const key = JSON.stringify([feedbackType, path]);
    let n = this.byKey.get(key);
    const [head, ...rest] = path;
    if (n === undefined) {
      n = this.joins.length;
      this.byKey.set(key, n);
      const ofType = feedbackType === null ? '' : ` AND feedback_type = ${params.add(feedbackType, 'String')}`;
      const latest = (value: string, present: string) =>
        `argMax(${value}, (${present}, created_at, id)) AS v, max(${present}) AS present`;
      let aggregates: string;
      if (head === 'count') {
        aggregates = 'toInt64(count()) AS v, 1 AS present';
      } else if (head === 'payload') {
        const f = chJsonField('payload', rest, params);
        aggregates = latest(f.sql, f.exists!);
      } else if (head === 'runnable_ref' || head === 'call_ref' || head === 'trigger_ref') {
        aggregates = latest(head, `(${head} IS NOT NULL)`);
      } else {
        throw new Error(`unknown feedback field: ${path.join('.')}`);
      }
      this.joins.push(
        `LEFT JOIN (SELECT weave_ref, ${aggregates}
        FROM ${chIdentifier(this.database)}.feedback WHERE project_id = ${this.projectParam}${ofType} GROUP BY weave_ref) AS fb${n}
        ON fb${n}.weave_ref = concat('weave:///', calls.project_id, '/call/', calls.id)`.replace(/\s+/g, ' '),
      );
    }
    if (head === 'count') return { sql: `coalesce(fb${n}.v, 0)`, type: 'Int64', notNull: true };
    if (head === 'payload') return { sql: `fb${n}.v`, type: 'String', exists: `(coalesce(fb${n}.present, 0) = 1)` };
    return { sql: `fb${n}.v`, type: 'String' };
  }
}
