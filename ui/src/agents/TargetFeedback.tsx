// Reactions and notes on an agent turn or a whole conversation (feedback on its
// agent_turn / agent_conversation ref), as the call view has them for a call, and the signals
// monitors gave it (its rating or tags, with the reasons).
import { useViewer } from '../api/viewer';
import { NoteForm } from '../call/NoteForm';
import { ReactionBar } from '../call/ReactionBar';
import { NOTE, REACTION, useRefFeedback } from '../call/useFeedback';
import { SignalList } from '../signals/SignalList';
import { isSignal } from '../signals/signalVerdict';
import styles from './Conversation.module.css';

export function TargetFeedback({
  projectId,
  weaveRef,
  label,
}: {
  projectId: string;
  weaveRef: string;
  /** What the feedback is on, when the place does not say it. */
  label?: string;
}) {
  const { list, add, remove } = useRefFeedback(projectId, weaveRef);
  const viewer = useViewer();
  const busy = add.isPending || remove.isPending || list.isPending;
  const notes = (list.data ?? []).filter((r) => r.feedback_type === NOTE);
  const signals = (list.data ?? []).filter(isSignal);
  return (
    <div className={styles.feedback} data-testid="target-feedback" data-ref={weaveRef}>
      <SignalList projectId={projectId} rows={signals} />
      {label !== undefined && <span className={styles.facts}>{label}</span>}
      <ReactionBar
        rows={list.data ?? []}
        viewer={viewer}
        busy={busy}
        onAdd={(emoji) => add.mutate({ feedback_type: REACTION, payload: { emoji } })}
        onRemove={(id) => remove.mutate(id)}
      />
      {notes.map((n) => (
        <div key={n.id} className={styles.note} data-testid="note">
          <span className={styles.facts}>{n.creator ?? n.wb_user_id ?? 'someone'}:</span> {String(n.payload.note ?? '')}
          {viewer !== null && n.wb_user_id === viewer.id && (
            <button type="button" onClick={() => remove.mutate(n.id)} disabled={busy} aria-label="Delete the note">
              ×
            </button>
          )}
        </div>
      ))}
      <NoteForm
        className={styles.noteForm}
        busy={busy}
        multiline={false}
        submitLabel="Add"
        onAdd={(note, done) => add.mutate({ feedback_type: NOTE, payload: { note } }, { onSuccess: done })}
      />
    </div>
  );
}
