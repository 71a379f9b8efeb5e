// One model's column: its picker, its streamed answer (text, tool calls) or the provider's
// error in place, and the run's facts: tokens from the stream's usage, the cost of the
// recorded call, the time to the first output and to the end, and a link to the call.
import { Link } from '@tanstack/react-router';
import type { CompletionProvider } from '../api/types';
import { formatCost, formatDuration } from '../format';
import { ModelPicker } from './ModelPicker';
import type { ColumnRun } from './usePlaygroundRuns';
import styles from './Playground.module.css';

interface Props {
  entity: string;
  project: string;
  model: string;
  providers: readonly CompletionProvider[];
  run: ColumnRun | undefined;
  onModel: (m: string) => void;
  onRemove: (() => void) | null;
}

export function ModelColumn({ entity, project, model, providers, run, onModel, onRemove }: Props) {
  return (
    <div className={styles.column} data-testid="model-column" data-model={model} data-status={run?.status ?? 'idle'}>
      <div className={styles.row}>
        <ModelPicker entity={entity} project={project} model={model} providers={providers} onModel={onModel} />
        {onRemove && (
          <button type="button" onClick={onRemove} aria-label={`Remove ${model}`} title="Remove this model">
            ✕
          </button>
        )}
      </div>
      {run === undefined ? (
        <p className={styles.muted}>Run to see this model's answer.</p>
      ) : (
        <Answer entity={entity} project={project} run={run} />
      )}
    </div>
  );
}

function Answer({ entity, project, run }: { entity: string; project: string; run: ColumnRun }) {
  const { answer } = run;
  const usage = answer.usage;
  return (
    <>
      {answer.error !== null && (
        <div className={styles.answerError} role="alert" data-testid="answer-error">
          {answer.error}
        </div>
      )}
      {(answer.text !== '' || answer.toolCalls.length === 0) && answer.error === null && (
        <div className={styles.answer} data-testid="answer">
          {answer.text}
          {run.status === 'running' && <span className={styles.cursor} aria-hidden="true" />}
        </div>
      )}
      {answer.toolCalls.map((c, i) => (
        <div key={i} className={styles.answerTool} data-testid="answer-tool-call">
          <strong>{c.name}</strong> <code>{c.arguments}</code>
        </div>
      ))}
      <dl className={styles.facts} data-testid="run-facts">
        <dt>Tokens</dt>
        <dd data-testid="run-tokens">
          {usage ? `${usage.prompt_tokens ?? '?'} in · ${usage.completion_tokens ?? '?'} out` : '—'}
        </dd>
        <dt>Cost</dt>
        <dd data-testid="run-cost">
          {run.cost === undefined
            ? run.status === 'running'
              ? '…'
              : '—'
            : run.cost === null
              ? 'no price'
              : formatCost(run.cost) || '$0'}
        </dd>
        <dt>First output</dt>
        <dd data-testid="run-first">{formatDuration(run.firstOutputMs) || '—'}</dd>
        <dt>Total</dt>
        <dd data-testid="run-total">{run.status === 'running' ? 'running…' : formatDuration(run.totalMs)}</dd>
      </dl>
      {answer.callId !== null && (
        <Link
          to="/$entity/$project/calls/$callId"
          params={{ entity, project, callId: answer.callId }}
          data-testid="run-call"
        >
          Open the call
        </Link>
      )}
      {run.status === 'stopped' && <span className={styles.muted}>Stopped.</span>}
    </>
  );
}
