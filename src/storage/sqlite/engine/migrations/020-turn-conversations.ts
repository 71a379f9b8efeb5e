// Migration 20: a span sent without a conversation id takes its turn's (its trace's root's, else
// the first of its descendants that names one), settled per trace on every write
// (storage/spans/span-settle.ts); conversation_inherited marks such a value, so that a later
// write of the trace can settle it again. Multi-agent orchestrators (a Strands Swarm, an OpenAI
// Agents workflow) count their invocations in orchestration_count, which makes an agent's kind.
import type { Migration } from '../database.js';

export const TURN_CONVERSATIONS_V20 = `
ALTER TABLE spans ADD COLUMN conversation_inherited INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agent_rollups ADD COLUMN orchestration_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agent_trace_rollups ADD COLUMN orchestration_count INTEGER NOT NULL DEFAULT 0;
`;

export const MIGRATION_20: Migration = { version: 20, sql: TURN_CONVERSATIONS_V20 };
