// Secrets of an entity (model providers' API keys): what every engine must offer. The store
// only ever holds a secret sealed (service/secrets/secret-box.ts: AES-256-GCM under the
// server's key, bound to its entity and name); it never sees a value in clear text.

/** A secret as listed: its name and dates, never its value. */
export interface SecretRecord {
  readonly name: string;
  /** Microseconds since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly updatedBy: string | null;
}

export interface SecretStore {
  /** Sets the entity's secret `name` to `sealed` (creating it, or replacing its value). */
  set(entity: string, name: string, sealed: string, at: number, userId: string | null): Promise<void>;
  /** The sealed value of the entity's secret, or null when it has none of that name. */
  get(entity: string, name: string): Promise<string | null>;
  /** The entity's secrets by name. */
  list(entity: string): Promise<SecretRecord[]>;
  /** Deletes the entity's secret: true when there was one. */
  delete(entity: string, name: string, at: number): Promise<boolean>;
}
