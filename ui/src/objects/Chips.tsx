// Tags and aliases as small chips (read-only; TagEditor edits them).
import styles from './Objects.module.css';

export function TagChips({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <span className={styles.chips}>
      {tags.map((t) => (
        <span key={t} className={styles.tag} data-testid="tag" data-tag={t}>
          {t}
        </span>
      ))}
    </span>
  );
}

export function AliasChips({ aliases }: { aliases: readonly string[] }) {
  if (aliases.length === 0) return null;
  return (
    <span className={styles.chips}>
      {aliases.map((a) => (
        <span key={a} className={styles.alias} data-testid="alias" data-alias={a}>
          {a}
        </span>
      ))}
    </span>
  );
}
