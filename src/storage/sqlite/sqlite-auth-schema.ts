// SQLite tables for users, API keys and roles (migration 3). (Filled in by the auth work.)
export const AUTH_SCHEMA_V3 = ``;
