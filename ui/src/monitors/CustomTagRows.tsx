// The custom tag signal: up to ten tags, each a name and the definition the judge applies it
// by; rows are added and removed in place. One judge call picks the tags that apply.
import { MAX_TAGS, type TagDraft } from './monitorDraft';
import styles from './Monitors.module.css';

export function CustomTagRows({
  tags,
  includeToolCalls,
  onChange,
  onToolCalls,
}: {
  tags: TagDraft[];
  includeToolCalls: boolean;
  onChange: (tags: TagDraft[]) => void;
  onToolCalls: (v: boolean) => void;
}) {
  const set = (i: number, patch: Partial<TagDraft>) => onChange(tags.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  return (
    <fieldset className={styles.tagRows} data-testid="custom-tags">
      <legend>Tags</legend>
      {tags.map((t, i) => (
        <div key={i} className={styles.tagRow} data-testid="tag-row">
          <input
            value={t.name}
            maxLength={36}
            placeholder="tag name"
            aria-label={`Tag ${i + 1} name`}
            onChange={(e) => set(i, { name: e.target.value })}
            data-testid="tag-name"
          />
          <textarea
            value={t.definition}
            rows={2}
            maxLength={2000}
            placeholder="When it applies: the user asks for a refund…"
            aria-label={`Tag ${i + 1} definition`}
            onChange={(e) => set(i, { definition: e.target.value })}
            data-testid="tag-definition"
          />
          <button
            type="button"
            aria-label={`Remove tag ${i + 1}`}
            title="Remove this tag"
            disabled={tags.length === 1}
            onClick={() => onChange(tags.filter((_, j) => j !== i))}
            data-testid="tag-remove"
          >
            ×
          </button>
        </div>
      ))}
      <div className={styles.row}>
        <button
          type="button"
          disabled={tags.length >= MAX_TAGS}
          onClick={() => onChange([...tags, { name: '', definition: '' }])}
          data-testid="tag-add"
        >
          Add a tag
        </button>
        <span className={styles.muted}>
          {tags.length} of {MAX_TAGS}
        </span>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={includeToolCalls}
            onChange={(e) => onToolCalls(e.target.checked)}
            data-testid="tag-tool-calls"
          />
          Show the judge the turn's tool calls
        </label>
      </div>
    </fieldset>
  );
}
