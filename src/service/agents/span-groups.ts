// /agents/spans/query with group_by: one AgentSpanGroupRow per distinct value of the keys, the
// fixed bundle of figures (tokens counted once: tokens_counted), costs from the models' tokens
// when asked, and, grouped by conversation_id, the first and last message previews (280
// characters), the caller's measures, group filters and distributions, and the conversation
// filters (signals, Insights: conversation-filters.ts), with Weave's rules.
import type { Static } from 'typebox';
import type { AgentSpansQueryReq } from '../../api/agents.js';
import { AGENT_QUERY_LIMIT } from '../../api/agents.js';
import { InvalidFieldError, InvalidRequestError } from '../../api/errors.js';
import { FIELD_ALIASES } from '../../ingest/genai/semconv.js';
import { compileQuery } from '../../query/compile-query.js';
import type { FieldRef } from '../../query/plan.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { CostStore } from '../../storage/costs/cost-store.js';
import { SPAN_GROUP_LISTS, SPAN_GROUP_SUMS, type SpanStore } from '../../storage/spans/span-store.js';
import type { SpanMeasure } from '../../storage/spans/span-measures.js';
import { boundOf, measureOf, sameGrouping } from './span-measures.js';
import { insightsMatchNothing, signalsOf } from './conversation-filters.js';
import { distributionSpecsOf, groupDistributions } from './span-distributions.js';
import { formatTimestamp, parseTimestamp } from '../../time.js';
import { messageText } from './chat-view.js';
import { modelCosts } from './token-costs.js';

type Req = Static<typeof AgentSpansQueryReq>;
/** Weave's CONVERSATION_PREVIEW_CHARS. */
const PREVIEW = 280;

export function keyOf(ref: NonNullable<Req['group_by']>[number], i: number): { alias: string; field: FieldRef } {
  const source = ref.source ?? 'field';
  if (source === 'field' || source === 'column') {
    let field: FieldRef;
    try {
      field = spanFieldCatalog.resolve(ref.key);
    } catch (e) {
      if (e instanceof InvalidFieldError) throw new InvalidFieldError(e.message, ['body', 'group_by', i, 'key']);
      throw e;
    }
    return { alias: ref.alias ?? FIELD_ALIASES.get(ref.key) ?? ref.key, field };
  }
  return { alias: ref.alias ?? ref.key, field: { kind: 'json', column: source, path: [ref.key] } };
}

/** The preview of a message list's first user message (or last assistant one), capped. */
function preview(json: string | null, role: 'user_message' | 'assistant_message') {
  if (json === null) return null;
  const messages = JSON.parse(json) as { role: string; content: string }[];
  const pick =
    role === 'user_message'
      ? messages.find((m) => m.role === 'user')
      : messages.filter((m) => m.role !== 'user').at(-1);
  const text = pick === undefined ? '' : messageText(pick.content).trim();
  return text === '' ? null : { role, text: text.slice(0, PREVIEW) };
}

/** The fields of a group row, which a measure's alias may not take. */
const ROW_FIELDS = new Set([
  'group_keys',
  ...SPAN_GROUP_SUMS,
  ...SPAN_GROUP_LISTS,
  'total_cost_usd',
  'total_input_cost_usd',
  'total_output_cost_usd',
  'first_message',
  'last_message',
  'metrics',
  'distributions',
]);

/** Weave's measures: one aggregation each, aliases unique and apart from the row's fields. */
function measuresOf(specs: NonNullable<Req['measures']>, keys: readonly { alias: string }[]): SpanMeasure[] {
  const aliases = specs.map((m) => m.alias);
  const twice = [...new Set(aliases.filter((a, i) => aliases.indexOf(a) !== i))].sort();
  if (twice.length > 0) throw new InvalidRequestError(`duplicate measure aliases: ${twice.join(', ')}`);
  const taken = new Set([...ROW_FIELDS, ...keys.map((k) => k.alias)]);
  return specs.map((m, i) => {
    if (taken.has(m.alias))
      throw new InvalidRequestError(`measures[${i}]: the alias ${m.alias} is taken by another field`);
    return measureOf(m, `measures[${i}]`).measure;
  });
}

/** Group filters bound the request's own grouping (an empty group_by means it). */
function havingOf(req: Req) {
  return (req.group_filters ?? []).map((f, i) => {
    if ((f.group_by?.length ?? 0) > 0 && !sameGrouping(f.group_by!, req.group_by ?? []))
      throw new InvalidRequestError(`group_filters[${i}]: group_filters must use the same group_by as the query`);
    return boundOf(f, `group_filters[${i}]`);
  });
}

export async function querySpanGroups(spans: SpanStore, costs: CostStore, req: Req) {
  if ((req.custom_attr_columns?.length ?? 0) > 0)
    throw new InvalidRequestError('custom_attr_columns are only supported for ungrouped spans');
  if (req.include_details === true)
    throw new InvalidRequestError('include_details is only supported for ungrouped spans');
  const keys = (req.group_by ?? []).map(keyOf);
  const measures = measuresOf(req.measures ?? [], keys);
  const having = havingOf(req);
  const specs = distributionSpecsOf(req.group_distributions ?? [], keys.length);
  const signals = signalsOf(req.signal_filters);
  if (insightsMatchNothing(req.insight_filters)) return { spans: [], groups: [], total_count: 0 };
  const aliases = new Set([...keys.map((k) => k.alias), ...measures.map((m) => m.alias)]);
  const sort = (req.sort_by ?? []).map((s, i) => {
    if (!aliases.has(s.field) && !(SPAN_GROUP_SUMS as readonly string[]).includes(s.field))
      throw new InvalidFieldError(`Invalid sort field for grouped spans: ${s.field}`, ['body', 'sort_by', i, 'field']);
    return { name: s.field, direction: s.direction ?? 'desc' };
  });
  const base = {
    projectId: req.project_id,
    where: req.query ? compileQuery(req.query, spanFieldCatalog) : null,
    startedAfter: req.started_after ? parseTimestamp(req.started_after, 'started_after') : null,
    startedBefore: req.started_before ? parseTimestamp(req.started_before, 'started_before') : null,
    signals,
  };
  const { rows, total } = await spans.groups({
    ...base,
    keys,
    measures,
    having,
    sort,
    limit: req.limit ?? AGENT_QUERY_LIMIT.default,
    offset: req.offset ?? 0,
  });
  const priced =
    req.include_costs === true
      ? await modelCosts(
          costs,
          req.project_id,
          rows.map((r) => ({ models: r.models, at: r.sums.last_seen })),
        )
      : null;
  const conversationKey = keys.find((k) => k.field.kind === 'column' && k.field.name === 'conversation_id')?.alias;
  const ends =
    conversationKey === undefined
      ? new Map()
      : await spans.conversationEnds(
          req.project_id,
          rows.map((r) => r.keys[conversationKey]).filter((v): v is string => typeof v === 'string'),
        );
  const distributions = await groupDistributions(spans, base, keys[0]!, rows, specs);
  const groups = rows.map((r, i) => {
    const cost = priced?.[i] ?? null;
    const end = conversationKey === undefined ? undefined : ends.get(String(r.keys[conversationKey]));
    return {
      group_keys: r.keys,
      ...r.sums,
      first_seen: r.sums.span_count > 0 ? formatTimestamp(r.sums.first_seen) : null,
      last_seen: r.sums.span_count > 0 ? formatTimestamp(r.sums.last_seen) : null,
      total_cost_usd: cost?.total ?? null,
      total_input_cost_usd: cost?.input ?? null,
      total_output_cost_usd: cost?.output ?? null,
      ...r.lists,
      first_message: end === undefined ? null : preview(end.first, 'user_message'),
      last_message: end === undefined ? null : preview(end.last, 'assistant_message'),
      metrics: r.metrics,
      distributions: distributions[i] ?? {},
    };
  });
  return { spans: [], groups, total_count: total };
}
