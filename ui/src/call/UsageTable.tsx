// Tokens and costs per model, from summary.usage and summary.weave.costs. Where a model is
// priced, its token counts are the cost block's (every input token, cache reads among them,
// whatever the provider's spelling); else the usage as recorded.
import type { Call } from '../api/types';
import { formatCost } from '../format';
import { blockCost, type CostBlock } from './callFacts';
import styles from './CallDetail.module.css';

type Usage = Record<string, Record<string, unknown>>;
type Costs = Record<string, CostBlock>;

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
        <tr>
          <th>Model</th>
          <th>Requests</th>
          <th>Input tokens</th>
          <th>Cached</th>
          <th>Output tokens</th>
          <th>Total</th>
          <th>Cost</th>
        </tr>
      </thead>
      <tbody>
        {models.map((m) => {
          const u = usage[m] ?? {};
          const c = costs[m];
          const input = c?.prompt_tokens ?? num(u.prompt_tokens) ?? num(u.input_tokens) ?? num(u.prompt_token_count);
          const output =
            c?.completion_tokens ?? num(u.completion_tokens) ?? num(u.output_tokens) ?? num(u.candidates_token_count);
          return (
            <tr key={m}>
              <td>{m}</td>
              <td>{num(u.requests) ?? ''}</td>
              <td>{input ?? ''}</td>
              <td>{c?.cache_read_input_tokens || ''}</td>
              <td>{output ?? ''}</td>
              <td>{num(u.total_tokens) ?? num(u.total_token_count) ?? (input ?? 0) + (output ?? 0)}</td>
              <td>{c ? formatCost(blockCost(c)) || '$0' : ''}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
