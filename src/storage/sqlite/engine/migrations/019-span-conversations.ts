// Migration 19: the conversations of each project, one row per conversation_id that at least
// one stored span carries, kept exact by triggers on spans (a span written, re-sent under
// another conversation, or purged), whatever path writes. The conversations page counts them
// here: counting the distinct conversation_id of 1,000,000 spans through their covering index
// took ~90 ms of the page's ~120 (docs/performance.md "Agents"). No OR IGNORE in the triggers:
// the conflict policy of the statement that fires them (the spans upsert) would override it.
import type { Migration } from '../database.js';

export const SPAN_CONVERSATIONS_V19 = `
CREATE TABLE span_conversations (
  project_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  PRIMARY KEY (project_id, conversation_id)
) WITHOUT ROWID;
INSERT INTO span_conversations (project_id, conversation_id)
  SELECT DISTINCT project_id, conversation_id FROM spans WHERE conversation_id IS NOT NULL;
CREATE TRIGGER span_conversation_added AFTER INSERT ON spans WHEN new.conversation_id IS NOT NULL
BEGIN
  INSERT INTO span_conversations (project_id, conversation_id) SELECT new.project_id, new.conversation_id
    WHERE NOT EXISTS (SELECT 1 FROM span_conversations WHERE project_id = new.project_id AND conversation_id = new.conversation_id);
END;
CREATE TRIGGER span_conversation_moved AFTER UPDATE OF conversation_id ON spans
  WHEN old.conversation_id IS NOT new.conversation_id
BEGIN
  INSERT INTO span_conversations (project_id, conversation_id) SELECT new.project_id, new.conversation_id
    WHERE new.conversation_id IS NOT NULL AND NOT EXISTS
      (SELECT 1 FROM span_conversations WHERE project_id = new.project_id AND conversation_id = new.conversation_id);
  DELETE FROM span_conversations WHERE project_id = old.project_id AND conversation_id = old.conversation_id
    AND NOT EXISTS (SELECT 1 FROM spans WHERE project_id = old.project_id AND conversation_id = old.conversation_id);
END;
CREATE TRIGGER span_conversation_dropped AFTER DELETE ON spans WHEN old.conversation_id IS NOT NULL
BEGIN
  DELETE FROM span_conversations WHERE project_id = old.project_id AND conversation_id = old.conversation_id
    AND NOT EXISTS (SELECT 1 FROM spans WHERE project_id = old.project_id AND conversation_id = old.conversation_id);
END;
`;

export const MIGRATION_19: Migration = { version: 19, sql: SPAN_CONVERSATIONS_V19 };
