// A failed load says what failed and offers a retry, instead of leaving the view blank.
import { ApiError } from '../api/client';
import styles from './Shell.module.css';

export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message =
    error instanceof ApiError
      ? `${error.status}: ${error.reason}`
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <div className={styles.error} role="alert" data-testid="error-banner">
      <span>{message}</span>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
