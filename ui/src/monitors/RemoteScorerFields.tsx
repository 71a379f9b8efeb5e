// A remote scorer: the endpoint Weft POSTs each turn or call to (Weave's contract), and the
// entity secret holding the bearer token it is sent with (none: no Authorization header).
import styles from './Monitors.module.css';

export function RemoteScorerFields({
  url,
  secretName,
  onUrl,
  onSecretName,
}: {
  url: string;
  secretName: string;
  onUrl: (v: string) => void;
  onSecretName: (v: string) => void;
}) {
  return (
    <fieldset className={styles.group} data-testid="remote-fields">
      <legend>Remote scorer</legend>
      <label className={styles.field}>
        <span>URL</span>
        <input
          value={url}
          placeholder="https://scorer.example.com/score"
          onChange={(e) => onUrl(e.target.value)}
          data-testid="remote-url"
        />
      </label>
      <label className={styles.field}>
        <span>Secret holding its bearer token (optional)</span>
        <input
          value={secretName}
          placeholder="SCORER_TOKEN"
          onChange={(e) => onSecretName(e.target.value)}
          data-testid="remote-secret"
        />
      </label>
    </fieldset>
  );
}
