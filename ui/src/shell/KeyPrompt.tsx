// Keys mode: asks once for an API key when the server refuses a request for want of one,
// and keeps it for the session (or longer, if asked).
import { useState } from 'react';
import { setKey, useAuth } from '../api/auth';
import styles from './Shell.module.css';

export function KeyPrompt({ onSaved }: { onSaved: () => void }) {
  const auth = useAuth();
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  if (auth.refused === null) return null;
  const forbidden = auth.refused.status === 403;
  return (
    <div className={styles.overlay}>
      <form
        className={styles.dialog}
        data-testid="key-prompt"
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim() === '') return;
          setKey(value.trim(), remember);
          onSaved();
        }}
      >
        <h2>{forbidden ? 'Not allowed' : 'API key required'}</h2>
        <p className={styles.muted}>{auth.refused.reason}</p>
        <p>
          {forbidden
            ? 'This key holds no role that allows this. Enter another key:'
            : 'This server has API keys. Enter yours (create one with weft keys create):'}
        </p>
        <input
          type="password"
          autoFocus
          placeholder="weft_..."
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-label="API key"
        />
        <label className={styles.check}>
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember on this
          browser
        </label>
        <div className={styles.dialogButtons}>
          <button type="submit">Use key</button>
        </div>
      </form>
    </div>
  );
}
