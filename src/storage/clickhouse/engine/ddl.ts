// DDL of the ClickHouse engine for its three deployment modes:
//  - a single server: MergeTree tables;
//  - a replicated cluster (WEFT_CLICKHOUSE_CLUSTER, one shard): every statement ON CLUSTER,
//    ReplicatedMergeTree tables (Keeper paths from the {shard} and {replica} macros);
//  - a sharded cluster (several shards): each table as <name>_local (replicated) plus a
//    Distributed table <name> over it, sharded by the table's shard key (a project's rows,
//    a blob's chunks, a key's user on one shard; calls by trace_id, so that a
//    trace lives on one shard). weft_migrations is replicated to every node, unsharded.
// Identifiers are checked; no value is ever part of this text.
import { chIdentifier } from './dialect.js';

export interface ChTableSpec {
  readonly name: string;
  /** Column and index definitions, as inside CREATE TABLE (...). */
  readonly columns: string;
  readonly orderBy: string;
  /** The Distributed table's sharding expression (sharded clusters only). */
  readonly shardBy: string;
  /** ReplacingMergeTree on this version column (background merges keep the newest row per key). */
  readonly replacingBy?: string;
  /** AggregatingMergeTree: rows of one key merge by their columns' SimpleAggregateFunction. */
  readonly aggregating?: boolean;
  readonly partitionBy?: string;
}

export interface ChDdlMode {
  /** The cluster's name (null: a single server). */
  readonly cluster: string | null;
  /** Whether the cluster has several shards (then Distributed tables over <name>_local). */
  readonly sharded: boolean;
}

export const SINGLE_SERVER: ChDdlMode = { cluster: null, sharded: false };

const CLUSTER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

function clusterName(mode: ChDdlMode): string {
  if (mode.cluster === null || !CLUSTER_NAME.test(mode.cluster))
    throw new Error(`not a usable cluster name: ${JSON.stringify(mode.cluster)}`);
  return mode.cluster;
}

const onCluster = (mode: ChDdlMode) => (mode.cluster === null ? '' : ` ON CLUSTER \`${clusterName(mode)}\``);

/** The MergeTree engine of a table in this mode; `path` is its Keeper path when replicated. */
function engine(mode: ChDdlMode, path: string, replacingBy?: string, aggregating = false): string {
  const kind = aggregating ? 'AggregatingMergeTree' : replacingBy === undefined ? 'MergeTree' : 'ReplacingMergeTree';
  const version = replacingBy === undefined ? '' : chIdentifier(replacingBy);
  if (mode.cluster === null) return `${kind}(${version})`.replace('MergeTree()', 'MergeTree');
  return `Replicated${kind}('${path}', '{replica}'${version ? `, ${version}` : ''})`;
}

export function databaseDdl(database: string, mode: ChDdlMode): string {
  return `CREATE DATABASE IF NOT EXISTS ${chIdentifier(database)}${onCluster(mode)}`;
}

/** weft_migrations: on every node alike (one Keeper path for all shards), never sharded. */
export function migrationsTableDdl(database: string, mode: ChDdlMode): string {
  const db = chIdentifier(database);
  return (
    `CREATE TABLE IF NOT EXISTS ${db}.weft_migrations${onCluster(mode)} (version UInt32, applied_at DateTime64(6, 'UTC') DEFAULT now64(6)) ` +
    `ENGINE = ${engine(mode, `/clickhouse/tables/all/${db}/weft_migrations`)} ORDER BY version`
  );
}

/** The statements creating one table in this mode (two in a sharded cluster). */
export function tableDdl(database: string, t: ChTableSpec, mode: ChDdlMode): string[] {
  const db = chIdentifier(database);
  const name = chIdentifier(t.name);
  const local = mode.sharded ? `${name}_local` : name;
  const create =
    `CREATE TABLE IF NOT EXISTS ${db}.${local}${onCluster(mode)} (${t.columns.replace(/\s+/g, ' ')}) ` +
    `ENGINE = ${engine(mode, `/clickhouse/tables/{shard}/${db}/${local}`, t.replacingBy, t.aggregating)}` +
    `${t.partitionBy === undefined ? '' : ` PARTITION BY ${t.partitionBy}`} ORDER BY ${t.orderBy}`;
  if (!mode.sharded) return [create];
  return [
    create,
    `CREATE TABLE IF NOT EXISTS ${db}.${name}${onCluster(mode)} AS ${db}.${local} ENGINE = Distributed('${clusterName(mode)}', '${db}', '${local}', ${t.shardBy})`,
  ];
}

/** A change to an existing table (a later migration). */
export interface ChAlter {
  readonly table: string;
  /** What follows ALTER TABLE <name>: ADD COLUMN ..., ADD INDEX ... (code, never input). */
  readonly clause: string;
  /** The clause run instead when `clause` fails: a server without the feature (older ClickHouse). */
  readonly fallback?: string;
  /** Whether a Distributed table (sharded clusters) takes it too: columns yes, indexes no. */
  readonly distributed: boolean;
}

/**
 * The statements of a change in this mode: on the table, or in a sharded cluster on every
 * shard's <name>_local (and on the Distributed table over them when it takes it). A
 * replicated table passes the change to its replicas itself; ON CLUSTER reaches every node.
 */
export function alterDdl(database: string, alter: ChAlter, mode: ChDdlMode): string[] {
  const db = chIdentifier(database);
  const name = chIdentifier(alter.table);
  const statement = (table: string) => `ALTER TABLE ${db}.${table}${onCluster(mode)} ${alter.clause}`;
  if (!mode.sharded) return [statement(name)];
  return alter.distributed ? [statement(`${name}_local`), statement(name)] : [statement(`${name}_local`)];
}

/** Drops a table of an earlier migration in this mode (its shards' tables too). */
export function dropTableDdl(database: string, table: string, mode: ChDdlMode): string[] {
  const db = chIdentifier(database);
  const name = chIdentifier(table);
  const drop = (t: string) => `DROP TABLE IF EXISTS ${db}.${t}${onCluster(mode)}`;
  return mode.sharded ? [drop(name), drop(`${name}_local`)] : [drop(name)];
}

/**
 * A lightweight DELETE of a table's rows in this mode. On a sharded cluster the rows live in
 * <name>_local on every shard (a Distributed table takes no DELETE), so it runs there ON CLUSTER;
 * a replicated table replicates the delete itself. `where` comes from code (values as parameters).
 */
export function deleteStatement(database: string, table: string, mode: ChDdlMode, where: string): string {
  const db = chIdentifier(database);
  const name = chIdentifier(table);
  if (!mode.sharded) return `DELETE FROM ${db}.${name} WHERE ${where}`;
  return `DELETE FROM ${db}.${name}_local${onCluster(mode)} WHERE ${where}`;
}
