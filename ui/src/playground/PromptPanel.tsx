// The prompt the draft follows, when one is loaded: its version (linked to the object view),
// its messages as stored (read-only: Weave prepends them on the server) and an input per
// template variable of the messages sent. "Edit here" copies its messages into the draft and
// leaves the prompt.
import { Link } from '@tanstack/react-router';
import { ErrorBanner } from '../shell/ErrorBanner';
import type { LoadedPrompt } from './playgroundApi';
import styles from './Playground.module.css';

export function PromptPanel({
  entity,
  project,
  prompt,
  error,
  variables,
  values,
  onValues,
  onDetach,
  onClose,
}: {
  entity: string;
  project: string;
  prompt: LoadedPrompt | undefined;
  error: unknown;
  variables: string[];
  values: Record<string, string>;
  onValues: (v: Record<string, string>) => void;
  onDetach: () => void;
  onClose: () => void;
}) {
  if (error) return <ErrorBanner error={error} />;
  if (prompt === undefined) return <p className={styles.muted}>Loading the prompt…</p>;
  return (
    <section className={styles.section} data-testid="prompt" data-ref={prompt.ref}>
      <div className={styles.row}>
        <h2>Prompt</h2>
        <Link
          to="/$entity/$project/objects/$name/versions/$digest"
          params={{ entity, project, name: prompt.name, digest: prompt.digest }}
          className="mono"
          data-testid="prompt-link"
        >
          {prompt.name}:v{prompt.versionIndex}
        </Link>
        <span className={styles.spacer} />
        <button type="button" onClick={onDetach} title="Copy its messages here and stop following the prompt">
          Edit here
        </button>
        <button type="button" onClick={onClose} title="Stop following the prompt" data-testid="prompt-close">
          Close
        </button>
      </div>
      {prompt.messages.map((m, i) => (
        <div key={i} className={styles.promptMessage} data-testid="prompt-message" data-role={m.role}>
          <span className={styles.role}>{m.role}</span>
          <span className={styles.promptText}>{m.content}</span>
        </div>
      ))}
      {variables.length > 0 && (
        <div className={styles.vars}>
          <h3>Template variables</h3>
          {variables.map((v) => (
            <label key={v} className={styles.param}>
              <span className="mono">{`{${v}}`}</span>
              <input
                value={values[v] ?? ''}
                onChange={(e) => onValues({ ...values, [v]: e.target.value })}
                data-testid="template-var"
                data-name={v}
              />
            </label>
          ))}
        </div>
      )}
    </section>
  );
}
