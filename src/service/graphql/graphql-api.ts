// The slice of W&B's GraphQL API that the Weave SDKs need, answered from Weft's own users,
// roles and (implicit) projects. A small schema run by the reference GraphQL library: parsing,
// validation and error shapes are GraphQL's own, not string matching.
//   viewer { id username name defaultEntity { name } }  the caller; its default entity
//   project(name, entityName) { name entityName }      null unless the caller may read it
//   upsertModel(input: { name, entityName })           a project the caller may write
//   entity(name) { name readOnly }                      null unless the caller holds a role there
//   users(ids) { edges { node { id username } } }       names of users by id
//   serverInfo { frontendHost }
//   entity(name) { secrets { entityId name createdAt } }  names only, for admins of the entity
//   insertSecret(input: { entityName, secretName, secretValue }) { success }  the Weave UI's
//                                                       "save as team secret"; admins only
// Projects exist in Weft as soon as something is written to them, so upsertModel creates
// nothing: it answers the project when the caller may write it, and W&B's permission error
// otherwise.
//
// A document is bounded before it costs anything (api/limits.ts): the parser stops at
// GRAPHQL_MAX_TOKENS, and a cost limit (graphql-query-complexity, each field 1, fragments
// expanded) refuses more than GRAPHQL_MAX_FIELDS fields before validation, whose overlap
// check grows with the square of the fields. Either is a 400; any other GraphQL error is a
// GraphQL answer (200 with errors), as W&B's.
import { buildSchema, execute, GraphQLError, parse, validate, type DocumentNode } from 'graphql';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { InvalidRequestError } from '../../api/errors.js';
import { GRAPHQL_MAX_FIELDS, GRAPHQL_MAX_TOKENS, MAX_FILTER_LENGTH } from '../../api/limits.js';
import type { Grant } from '../../storage/auth/auth-store.js';
import { mayAccessProject, type Access } from '../auth/auth-access.js';
import type { SecretsService } from '../secrets/secret-service.js';

const SCHEMA = buildSchema(`
  type Query {
    viewer: User
    serverInfo: ServerInfo
    project(name: String!, entityName: String): Project
    model(name: String!, entityName: String): Project
    entity(name: String!): Entity
    users(ids: [ID!], first: Int): UserConnection
  }
  type Mutation {
    upsertModel(input: UpsertModelInput!): UpsertModelPayload
    upsertProject(input: UpsertModelInput!): UpsertModelPayload
    insertSecret(input: InsertSecretInput!): InsertSecretPayload
  }
  type User { id: ID! username: String name: String defaultEntity: Entity }
  type Entity { id: ID! name: String! readOnly: Boolean secrets: [Secret!] }
  type Secret { entityId: ID! name: String! createdAt: String }
  input InsertSecretInput { entityName: String! secretName: String! secretValue: String! }
  type InsertSecretPayload { success: Boolean! }
  type Project { id: ID! name: String! entityName: String! description: String entity: Entity }
  type ServerInfo { frontendHost: String }
  input UpsertModelInput { id: String name: String entityName: String description: String repo: String }
  type UpsertModelPayload { model: Project inserted: Boolean }
  type UserConnection { edges: [UserEdge!]! }
  type UserEdge { node: User }
`);

export interface GraphqlCaller {
  readonly userId: string;
  readonly username: string;
  readonly access: Access;
}

export interface GraphqlDeps {
  /** Open mode's default entity (null: the caller's username). */
  readonly openDefaultEntity: string | null;
  /** Where the web UI is, for serverInfo.frontendHost. */
  readonly frontendHost: string;
  /** Names of stored users by id. */
  readonly usernames: (ids: readonly string[]) => Promise<Map<string, string>>;
  /** The entities' secrets; its own checks (admin of the entity) apply. */
  readonly secrets: Pick<SecretsService, 'set' | 'list'>;
}

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

/** A name Weft can put in a project id: no `/`, printable, not empty. */
const NAME = /^[^/\u0000-\u001f\u007f]{1,128}$/;

/** The entity a keyed caller logs into: the first it holds an entity-wide role on, else the first it holds any role on. */
function keyedDefaultEntity(grants: readonly Grant[]): string | null {
  const sorted = [...grants].sort(
    (a, b) => Number(a.project !== null) - Number(b.project !== null) || a.entity.localeCompare(b.entity),
  );
  return sorted[0]?.entity ?? null;
}

function checkName(kind: string, name: string): void {
  if (!NAME.test(name))
    throw new GraphQLError(`Invalid ${kind} name ${JSON.stringify(name)}: 1 to 128 characters, no "/"`);
}

const tooLarge = (what: string) =>
  new InvalidRequestError(`GraphQL document too large: ${what}`, {
    errors: [{ message: `GraphQL document too large: ${what}` }],
  });

/** The parsed document, or GraphQL's answer for a syntax error; throws InvalidRequestError past a bound. */
function boundedDocument(req: GraphqlRequest): DocumentNode | { errors: readonly GraphQLError[] } {
  let document: DocumentNode;
  try {
    document = parse(req.query, { maxTokens: GRAPHQL_MAX_TOKENS });
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    // graphql-js reports the token bound as a syntax error; it is the request's size, not its syntax.
    if (/Document contains more than \d+ tokens/.test(err.message))
      throw tooLarge(`at most ${GRAPHQL_MAX_TOKENS} tokens are allowed`);
    return { errors: [err] };
  }
  let fields: number;
  try {
    fields = getComplexity({
      schema: SCHEMA,
      query: document,
      variables: req.variables ?? {},
      operationName: req.operationName ?? undefined,
      estimators: [simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (err) {
    // Its own node bound (10,000) is past ours; anything else it cannot cost (an unknown
    // operation, bad variables) is left to validation and execution to report.
    if (err instanceof Error && /maximum allowed number of nodes/.test(err.message))
      throw tooLarge(`at most ${GRAPHQL_MAX_FIELDS} fields are allowed`);
    fields = 0;
  }
  if (fields > GRAPHQL_MAX_FIELDS)
    throw tooLarge(`it selects ${fields} fields, at most ${GRAPHQL_MAX_FIELDS} are allowed`);
  return document;
}

export async function executeGraphql(req: GraphqlRequest, caller: GraphqlCaller, deps: GraphqlDeps) {
  const defaultEntity = caller.access.all
    ? (deps.openDefaultEntity ?? caller.username)
    : keyedDefaultEntity(caller.access.grants);
  const entityOf = (name: string | null) => {
    if (name === null) return null;
    const grants = caller.access.grants.filter((g) => g.entity === name);
    if (!caller.access.all && grants.length === 0) return null;
    const writesAll = caller.access.all || grants.some((g) => g.project === null && g.role !== 'reader');
    const secrets = async () =>
      (await deps.secrets.list(name, caller.access)).secrets.map((s) => ({
        entityId: name,
        name: s.name,
        createdAt: s.created_at,
      }));
    return { id: name, name, readOnly: !writesAll, secrets };
  };
  const projectOf = (entityName: string, name: string) => ({
    id: `${entityName}/${name}`,
    name,
    entityName,
    description: null,
    entity: () => entityOf(entityName),
  });
  const findProject = ({ name, entityName }: { name: string; entityName?: string | null }) => {
    const entity = entityName ?? defaultEntity;
    if (entity === null || !NAME.test(entity) || !NAME.test(name)) return null;
    return mayAccessProject(caller.access, `${entity}/${name}`, 'read') ? projectOf(entity, name) : null;
  };
  const upsert = ({ input }: { input: { name?: string | null; entityName?: string | null } }) => {
    const entity = input.entityName ?? defaultEntity;
    if (!input.name) throw new GraphQLError('upsertModel needs input.name');
    if (entity === null) throw new GraphQLError('upsertModel needs input.entityName: the caller has no default entity');
    checkName('entity', entity);
    checkName('project', input.name);
    if (!mayAccessProject(caller.access, `${entity}/${input.name}`, 'write')) {
      throw new GraphQLError(
        `permission denied: user ${caller.username} may not write project ${entity}/${input.name}`,
      );
    }
    return { model: projectOf(entity, input.name), inserted: false };
  };
  const rootValue = {
    viewer: () => ({
      id: caller.userId,
      username: caller.username,
      name: caller.username,
      defaultEntity: () => entityOf(defaultEntity),
    }),
    serverInfo: () => ({ frontendHost: deps.frontendHost }),
    project: findProject,
    model: findProject,
    entity: ({ name }: { name: string }) => entityOf(name),
    users: async ({ ids }: { ids?: readonly string[] | null }) => {
      const wanted = [...new Set(ids ?? [])];
      if (wanted.length > MAX_FILTER_LENGTH) throw new GraphQLError(`users: at most ${MAX_FILTER_LENGTH} ids`);
      const names = await deps.usernames(wanted);
      if (wanted.includes(caller.userId)) names.set(caller.userId, caller.username);
      return {
        edges: wanted
          .filter((id) => names.has(id))
          .map((id) => ({ node: { id, username: names.get(id), name: names.get(id) } })),
      };
    },
    upsertModel: upsert,
    upsertProject: upsert,
    insertSecret: async ({ input }: { input: { entityName: string; secretName: string; secretValue: string } }) => {
      await deps.secrets.set(
        { entity: input.entityName, name: input.secretName, value: input.secretValue },
        caller.access,
        caller.userId,
      );
      return { success: true };
    },
  };
  const document = boundedDocument(req);
  if (!('kind' in document)) return document;
  const invalid = validate(SCHEMA, document);
  const result =
    invalid.length > 0
      ? { errors: invalid }
      : await execute({
          schema: SCHEMA,
          document,
          variableValues: req.variables ?? undefined,
          operationName: req.operationName ?? undefined,
          rootValue,
        });
  // GraphQLError's own JSON form: message, locations, path (and extensions when set).
  return JSON.parse(JSON.stringify(result)) as {
    data?: Record<string, unknown> | null;
    errors?: { message: string }[];
  };
}
