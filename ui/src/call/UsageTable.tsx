// Tokens and costs per model, from summary.usage and summary.weave.costs.
import type { Call } from '../api/types';
import { formatCost } from '../format';
import styles from './CallDetail.module.css';

type Usage = Record<string, Record<string, unknown>>;
type Costs = Record<string, { prompt_tokens_total_cost?: number; completion_tokens_total_cost?: number }>;

const num = (v: unknown) => (typeof v === 'number' ? v : null);

export function UsageTable({ call }: { call: Call }) {
  const summary = (call.summary ?? {}) as { usage?: Usage; weave?: { costs?: Costs } };
  const usage = summary.usage ?? {};
  const costs = summary.weave?.costs ?? {};
  const models = [...new Set([...Object.keys(usage), ...Object.keys(costs)])];
  if (models.length === 0) return null;
  return (
    <table className={styles.usage} data-testid="usage">
      <thead>
        <tr><th>Model</th><th>Requests</th><th>Input tokens</th><th>Output tokens</th><th>Total</th><th>Cost</th></tr>
      </thead>
      <tbody>
        {models.map((m) => {
          const u = usage[m] ?? {};
          const input = num(u.prompt_tokens) ?? num(u.input_tokens);
          const output = num(u.completion_tokens) ?? num(u.output_tokens);
          const c = costs[m];
          return (
            <tr key={m}>
              <td>{m}</td>
              <td>{num(u.requests) ?? ''}</td>
              <td>{input ?? ''}</td>
              <td>{output ?? ''}</td>
              <td>{num(u.total_tokens) ?? (input ?? 0) + (output ?? 0)}</td>
              <td>{c ? formatCost((c.prompt_tokens_total_cost ?? 0) + (c.completion_tokens_total_cost ?? 0)) || '$0' : ''}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
