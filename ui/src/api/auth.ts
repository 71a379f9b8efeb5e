// The API key the UI sends in keys mode, kept for the browser session (sessionStorage) or,
// when the user asks, across sessions (localStorage). Components subscribe to changes, and
// to "a request was refused" so the shell can ask for a key.
import { useSyncExternalStore } from 'react';

const STORAGE_KEY = 'weft.apiKey';

export interface AuthState {
  readonly key: string | null;
  /** The last 401/403 answer's reason, until a new key is given. */
  readonly refused: { status: 401 | 403; reason: string } | null;
}

let state: AuthState = { key: readStoredKey(), refused: null };
const listeners = new Set<() => void>();

function readStoredKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function set(next: AuthState): void {
  state = next;
  for (const l of listeners) l();
}

export function currentKey(): string | null {
  return state.key;
}

export function setKey(key: string | null, remember: boolean): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
    localStorage.removeItem(STORAGE_KEY);
    if (key !== null) (remember ? localStorage : sessionStorage).setItem(STORAGE_KEY, key);
  } catch {
    // Storage can be disabled; the key then lives for this page only.
  }
  set({ key, refused: null });
}

export function reportRefused(status: 401 | 403, reason: string): void {
  if (state.refused?.status === status && state.refused.reason === reason) return;
  set({ ...state, refused: { status, reason } });
}

export function useAuth(): AuthState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
