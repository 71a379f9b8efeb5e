// A provider's API key: whether its secret is set, and for admins a field to set it (the value
// goes to the server sealed and is never shown again, here or anywhere). Others are told who
// can set it, and how.
import { useState } from 'react';
import { ApiError } from '../api/client';
import { setSecret } from './providersApi';
import styles from './Providers.module.css';

function AdminOnly({ entity, name }: { entity: string; name: string }) {
  return (
    <span className={styles.muted} data-testid="secret-admin-only">
      An admin of {entity} sets it here, or on the server:{' '}
      <code>
        weft secrets set --entity {entity} {name}
      </code>
    </span>
  );
}

export function SecretField({
  entity,
  name,
  isSet,
  isAdmin,
  onSaved,
}: {
  entity: string;
  name: string;
  isSet: boolean;
  isAdmin: boolean | undefined;
  onSaved: () => void;
}) {
  const [value, setValue] = useState('');
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<{ busy: boolean; error: string | null; refused: boolean }>({
    busy: false,
    error: null,
    refused: false,
  });
  const status = (
    <span className={isSet ? styles.ok : styles.warning} data-testid="secret-status" data-set={isSet}>
      {isSet ? `${name} is set` : `${name} is missing`}
    </span>
  );
  if (isAdmin === false || state.refused)
    return (
      <div className={styles.secret}>
        {status}
        {!isSet && <AdminOnly entity={entity} name={name} />}
      </div>
    );
  if (!open)
    return (
      <div className={styles.secret}>
        {status}
        {isAdmin && (
          <button type="button" onClick={() => setOpen(true)} data-testid="secret-open">
            {isSet ? 'Replace the key' : 'Set the key'}
          </button>
        )}
      </div>
    );
  return (
    <form
      className={styles.secret}
      onSubmit={(e) => {
        e.preventDefault();
        setState({ busy: true, error: null, refused: false });
        setSecret({ entity, name, value }).then(
          () => {
            setValue('');
            setOpen(false);
            setState({ busy: false, error: null, refused: false });
            onSaved();
          },
          (err: unknown) => {
            const refused = err instanceof ApiError && (err.status === 401 || err.status === 403);
            setState({ busy: false, refused, error: err instanceof ApiError ? err.reason : String(err) });
          },
        );
      }}
    >
      {status}
      <input
        type="password"
        autoComplete="off"
        value={value}
        required
        placeholder={`value of ${name}`}
        aria-label={`Value of ${name}`}
        onChange={(e) => setValue(e.target.value)}
        data-testid="secret-value"
      />
      <button type="submit" disabled={state.busy || value === ''} data-testid="secret-save">
        Save
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {state.error !== null && (
        <span className={styles.error} role="alert">
          {state.error}
        </span>
      )}
    </form>
  );
}
