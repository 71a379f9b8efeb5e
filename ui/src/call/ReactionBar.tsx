// Emoji reactions on a call: each emoji with its count, the viewer's own highlighted (a
// click takes it back), and a few to add.
import type { Viewer } from '../api/viewer';
import { REACTION, type FeedbackRow } from './useFeedback';
import styles from './Feedback.module.css';

const PALETTE = ['👍', '👎', '❤️', '🎉', '🤔', '👀'];

export interface ReactionBarProps {
  rows: readonly FeedbackRow[];
  viewer: Viewer | null;
  busy: boolean;
  onAdd: (emoji: string) => void;
  onRemove: (id: string) => void;
}

export function ReactionBar({ rows, viewer, busy, onAdd, onRemove }: ReactionBarProps) {
  const reactions = rows.filter((r) => r.feedback_type === REACTION);
  const byEmoji = new Map<string, FeedbackRow[]>();
  for (const r of reactions) {
    const e = String(r.payload.emoji ?? '');
    byEmoji.set(e, [...(byEmoji.get(e) ?? []), r]);
  }
  const emojis = [...new Set([...byEmoji.keys(), ...PALETTE])];
  return (
    <div className={styles.reactions} data-testid="reactions">
      {emojis.map((e) => {
        const list = byEmoji.get(e) ?? [];
        const mine = viewer === null ? undefined : list.find((r) => r.wb_user_id === viewer.id);
        return (
          <button
            type="button"
            key={e}
            className={`${styles.reaction} ${mine ? styles.mine : ''} ${list.length === 0 ? styles.unused : ''}`}
            disabled={busy}
            aria-pressed={mine !== undefined}
            title={
              list.length > 0
                ? `${list.map((r) => r.creator ?? r.wb_user_id ?? 'someone').join(', ')}`
                : `React with ${e}`
            }
            data-emoji={e}
            onClick={() => (mine ? onRemove(mine.id) : onAdd(e))}
          >
            {e}
            {list.length > 0 && <span className={styles.count}>{list.length}</span>}
          </button>
        );
      })}
    </div>
  );
}
