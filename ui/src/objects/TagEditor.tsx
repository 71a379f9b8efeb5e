// A version's tags and aliases, editable through the API's tag and alias routes. Tags
// belong to one version; an alias names one version of the object at a time ("latest" is
// the server's own and cannot be set or removed).
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { postJson } from '../api/client';
import type { ObjRemoveAliasesBody, ObjSetAliasesBody, ObjTagsBody } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { putJson } from '../api/client';
import { objRoute, useInvalidateObject } from './objectsApi';
import styles from './Objects.module.css';
import own from './TagEditor.module.css';

interface Change {
  op: 'add-tag' | 'remove-tag' | 'add-alias' | 'remove-alias';
  name: string;
}

interface Props {
  projectId: string;
  objectId: string;
  digest: string;
  tags: readonly string[];
  aliases: readonly string[];
}

export function TagEditor({ projectId, objectId, digest, tags, aliases }: Props) {
  const invalidate = useInvalidateObject(projectId, objectId);
  const version = `/versions/${encodeURIComponent(digest)}`;
  const m = useMutation({
    mutationFn: (c: Change) => {
      switch (c.op) {
        case 'add-tag':
          return putJson(objRoute(objectId, `${version}/tags`), {
            project_id: projectId,
            tags: [c.name],
          } satisfies ObjTagsBody);
        case 'remove-tag':
          return postJson(objRoute(objectId, `${version}/tags/remove`), {
            project_id: projectId,
            tags: [c.name],
          } satisfies ObjTagsBody);
        case 'add-alias':
          return putJson(objRoute(objectId, '/aliases'), {
            project_id: projectId,
            digest,
            aliases: [c.name],
          } satisfies ObjSetAliasesBody);
        case 'remove-alias':
          return postJson(objRoute(objectId, '/aliases/remove'), {
            project_id: projectId,
            aliases: [c.name],
          } satisfies ObjRemoveAliasesBody);
      }
    },
    onSettled: () => invalidate(),
  });

  return (
    <div className={own.editor} data-testid="tag-editor">
      <div className={own.group}>
        <span className={own.label}>Tags</span>
        {tags.length === 0 && <span className={own.none}>none</span>}
        {tags.map((t) => (
          <span key={t} className={styles.tag} data-testid="tag" data-tag={t}>
            {t}
            <button
              type="button"
              className={own.remove}
              onClick={() => m.mutate({ op: 'remove-tag', name: t })}
              disabled={m.isPending}
              aria-label={`Remove tag ${t}`}
              data-testid="tag-remove"
            >
              ×
            </button>
          </span>
        ))}
        <AddForm
          placeholder="Add a tag"
          testid="tag"
          disabled={m.isPending}
          onAdd={(name) => m.mutate({ op: 'add-tag', name })}
        />
      </div>
      <div className={own.group}>
        <span className={own.label}>Aliases</span>
        {aliases.length === 0 && <span className={own.none}>none</span>}
        {aliases.map((a) => (
          <span
            key={a}
            className={styles.alias}
            data-testid="alias"
            data-alias={a}
            title={a === 'latest' ? 'The newest version: set by the server' : undefined}
          >
            {a}
            {a !== 'latest' && (
              <button
                type="button"
                className={own.remove}
                onClick={() => m.mutate({ op: 'remove-alias', name: a })}
                disabled={m.isPending}
                aria-label={`Remove alias ${a}`}
                data-testid="alias-remove"
              >
                ×
              </button>
            )}
          </span>
        ))}
        <AddForm
          placeholder="Add an alias"
          testid="alias"
          disabled={m.isPending}
          onAdd={(name) => m.mutate({ op: 'add-alias', name })}
        />
      </div>
      {m.isError && (
        <div className={own.error}>
          <ErrorBanner error={m.error} onRetry={() => m.variables && m.mutate(m.variables)} />
        </div>
      )}
    </div>
  );
}

function AddForm({
  placeholder,
  testid,
  disabled,
  onAdd,
}: {
  placeholder: string;
  testid: string;
  disabled: boolean;
  onAdd: (name: string) => void;
}) {
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = text.trim();
    if (name === '') return;
    onAdd(name);
    setText('');
  };
  return (
    <form className={own.add} onSubmit={submit}>
      <input
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        data-testid={`${testid}-input`}
      />
      <button type="submit" disabled={disabled || text.trim() === ''} data-testid={`${testid}-add`}>
        Add
      </button>
    </form>
  );
}
