// The Feedback tab: notes (add, and take back your own), scores and other feedback with
// where they came from, and every reaction with who gave it.
import { useViewer } from '../api/viewer';
import { ErrorBanner } from '../shell/ErrorBanner';
import { formatTime } from '../format';
import { JsonTree } from '../render/JsonTree';
import { SignalValue } from '../signals/SignalValue';
import { AGENT_MONITOR, isSignal, objectIdOf, reasonText, verdictOf } from '../signals/signalVerdict';
import { NoteForm } from './NoteForm';
import { type FeedbackRow, NOTE, REACTION, useFeedback } from './useFeedback';
import styles from './Feedback.module.css';

export function FeedbackPanel({ projectId, callId }: { projectId: string; callId: string }) {
  const { list, add, remove } = useFeedback(projectId, callId);
  const viewer = useViewer();
  if (list.isPending) return <p className={styles.muted}>Loading feedback…</p>;
  if (list.isError) return <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />;
  const rows = list.data;
  const notes = rows.filter((r) => r.feedback_type === NOTE);
  const others = rows.filter((r) => r.feedback_type !== NOTE && r.feedback_type !== REACTION);
  const reactions = rows.filter((r) => r.feedback_type === REACTION);
  const who = (r: { creator: string | null; wb_user_id: string | null }) => r.creator ?? r.wb_user_id ?? 'someone';
  return (
    <div className={styles.panel} data-testid="feedback-panel">
      <section>
        <h3>Notes</h3>
        {notes.length === 0 && <p className={styles.muted}>No notes yet.</p>}
        {notes.map((n) => (
          <div key={n.id} className={styles.note} data-testid="note">
            <div className={styles.noteHead}>
              <strong>{who(n)}</strong> <span className={styles.muted}>{formatTime(n.created_at)}</span>
              {viewer !== null && n.wb_user_id === viewer.id && (
                <button
                  type="button"
                  className={styles.linkButton}
                  onClick={() => remove.mutate(n.id)}
                  disabled={remove.isPending}
                >
                  Delete
                </button>
              )}
            </div>
            <div className={styles.noteText}>{String(n.payload.note ?? '')}</div>
          </div>
        ))}
        <NoteForm
          className={styles.noteForm}
          busy={add.isPending}
          multiline
          submitLabel="Add note"
          onAdd={(note, done) => add.mutate({ feedback_type: NOTE, payload: { note } }, { onSuccess: done })}
        />
        {(add.isError || remove.isError) && <ErrorBanner error={add.error ?? remove.error} />}
      </section>
      {others.length > 0 && (
        <section>
          <h3>Scores and other feedback</h3>
          <table className={styles.table} data-testid="other-feedback">
            <thead>
              <tr>
                <th>Type</th>
                <th>Value</th>
                <th>From</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {others.map((f) => (
                <tr key={f.id}>
                  <td>
                    <code>{f.feedback_type}</code>
                  </td>
                  <td className={styles.valueCell}>
                    {isSignal(f) ? <Verdict row={f} /> : <JsonTree value={f.payload} />}
                  </td>
                  <td>
                    {f.runnable_ref ? (
                      <code title={f.runnable_ref}>
                        {objectIdOf(f.runnable_ref) ?? f.runnable_ref.split('/').pop()}
                      </code>
                    ) : (
                      who(f)
                    )}
                  </td>
                  <td className={styles.muted}>{formatTime(f.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {reactions.length > 0 && (
        <section>
          <h3>Reactions</h3>
          <ul className={styles.reactionList}>
            {reactions.map((r) => (
              <li key={r.id}>
                {String(r.payload.emoji ?? '')}{' '}
                <span className={styles.muted}>
                  {who(r)} · {formatTime(r.created_at)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/**
 * A scorer's verdict: its rating or tags and the reason. A call scorer's output may hold more
 * than a verdict (any dict a scorer returns), so its payload is shown whole below; a turn
 * signal's folded.
 */
function Verdict({ row }: { row: FeedbackRow }) {
  const verdict = verdictOf(row);
  const found = verdict.rating !== null || verdict.tags.length > 0;
  const payload = <JsonTree value={row.payload} />;
  return (
    <div className={styles.verdict} data-testid="feedback-verdict">
      {found && <SignalValue verdict={verdict} />}
      {verdict.reasons.length > 0 && <span className={styles.muted}>{reasonText(verdict)}</span>}
      {row.feedback_type === AGENT_MONITOR ? (
        <details>
          <summary className={styles.muted}>payload</summary>
          {payload}
        </details>
      ) : (
        payload
      )}
    </div>
  );
}
