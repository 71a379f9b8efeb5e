// The way back up from an object view: Objects › name › (version or diff).
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import styles from './Objects.module.css';

export function ObjectCrumbs({
  entity,
  project,
  name,
  children,
}: {
  entity: string;
  project: string;
  name?: string;
  children?: ReactNode;
}) {
  return (
    <nav className={styles.crumbs} aria-label="Breadcrumbs" data-testid="object-crumbs">
      <Link to="/$entity/$project/objects" params={{ entity, project }}>
        Objects
      </Link>
      {name !== undefined && (
        <>
          <span aria-hidden>›</span>
          {children === undefined ? (
            <span>{name}</span>
          ) : (
            <Link to="/$entity/$project/objects/$name" params={{ entity, project, name }}>
              {name}
            </Link>
          )}
        </>
      )}
      {children !== undefined && (
        <>
          <span aria-hidden>›</span>
          <span>{children}</span>
        </>
      )}
    </nav>
  );
}
