// The monitor form's draft: what it edits, read from a stored monitor and its scorer (a preset
// is recognised by its prompt, a custom tag signal by its list of tags; any other judge shows as
// its own prompt), checked, and written as a /signals/publish request.
import type { SignalPreset, SignalsPublishReq } from '../api/types';
import { opShortName } from '../format';
import { isDict } from '../isDict';
import { isTurnMonitor, type Monitor, type ScorerInfo } from './monitorsApi';

export type ScorerType = 'preset' | 'custom_tags' | 'judge' | 'remote';
export type Target = SignalsPublishReq['target'];
export interface TagDraft {
  name: string;
  definition: string;
}
/** One clause over a field of the turn's root span or of the call; an empty value: none. */
export interface SimpleFilter {
  field: string;
  op: 'eq' | 'contains';
  value: string;
}

export interface MonitorDraft {
  name: string;
  description: string;
  target: Target;
  /** Call monitors: op names, comma separated. */
  opNames: string;
  filter: SimpleFilter;
  /** A stored query the simple filter cannot show: kept as it is unless the filter is set. */
  keptQuery: Record<string, unknown> | null;
  samplePercent: number;
  active: boolean;
  scorerType: ScorerType;
  preset: string;
  tags: TagDraft[];
  includeToolCalls: boolean;
  judgeKind: 'rating' | 'tags';
  prompt: string;
  url: string;
  secretName: string;
  model: string;
}

export const NAME_PATTERN = '[A-Za-z0-9][A-Za-z0-9_\\-]{0,127}';
export const MAX_TAGS = 10;
export const defaultField = (target: Target) => (target === 'agent_turn' ? 'agent_name' : 'inputs.model');

export function emptyDraft(target: Target, model = ''): MonitorDraft {
  return {
    name: '',
    description: '',
    target,
    opNames: '',
    filter: { field: defaultField(target), op: 'eq', value: '' },
    keptQuery: null,
    samplePercent: 100,
    active: true,
    scorerType: target === 'agent_turn' ? 'preset' : 'judge',
    preset: '',
    tags: [{ name: '', definition: '' }],
    includeToolCalls: false,
    judgeKind: 'rating',
    prompt: '',
    url: '',
    secretName: '',
    model,
  };
}

/** `{$expr: {$eq: [{$getField}, {$literal}]}}` or its `$contains`, else null. */
function simpleFilterOf(query: unknown): SimpleFilter | null {
  if (!isDict(query) || !isDict(query.$expr)) return null;
  const e = query.$expr;
  const field = (x: unknown) => (isDict(x) && typeof x.$getField === 'string' ? x.$getField : null);
  const literal = (x: unknown) => (isDict(x) && typeof x.$literal === 'string' ? x.$literal : null);
  if (Array.isArray(e.$eq) && e.$eq.length === 2) {
    const [f, v] = [field(e.$eq[0]), literal(e.$eq[1])];
    if (f !== null && v !== null) return { field: f, op: 'eq', value: v };
  }
  if (isDict(e.$contains)) {
    const [f, v] = [field(e.$contains.input), literal(e.$contains.substr)];
    if (f !== null && v !== null) return { field: f, op: 'contains', value: v };
  }
  return null;
}

/** The tags a custom tag signal's prompt defines (its `- "name": definition` lines), else null. */
function customTagsOf(prompt: string): TagDraft[] | null {
  const block = /These tags are defined:\n((?:- ".*": .*(?:\n|$))+)/.exec(prompt);
  if (!block) return null;
  return block[1]!
    .split('\n')
    .map((l) => /^- "(.*)": (.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[1]!, definition: m[2]! }));
}

/** Which scorer form shows a stored scorer, and its fields. */
export function scorerFields(scorer: ScorerInfo | undefined, presets: readonly SignalPreset[]): Partial<MonitorDraft> {
  if (scorer === undefined) return {};
  const v = scorer.val;
  if (scorer.className === 'RemoteScorer') {
    const auth = isDict(v.auth_config) ? v.auth_config : {};
    return {
      scorerType: 'remote',
      url: typeof v.endpoint_url === 'string' ? v.endpoint_url : '',
      secretName: typeof auth.bearer_secret_name === 'string' ? auth.bearer_secret_name : '',
    };
  }
  const prompt = typeof v.scoring_prompt === 'string' ? v.scoring_prompt : '';
  const model = scorer.model ?? '';
  const preset = presets.find((p) => p.scoring_prompt === prompt);
  if (preset) return { scorerType: 'preset', preset: preset.id, model };
  const tags = customTagsOf(prompt);
  if (tags !== null && tags.length > 0)
    return { scorerType: 'custom_tags', tags, includeToolCalls: prompt.includes('{tool_calls}'), model };
  return { scorerType: 'judge', prompt, judgeKind: prompt.includes('"scores"') ? 'tags' : 'rating', model };
}

export function draftOf(m: Monitor, scorer: ScorerInfo | undefined, presets: readonly SignalPreset[]): MonitorDraft {
  const target: Target = isTurnMonitor(m.val) ? 'agent_turn' : 'call';
  const simple = m.val.query === null || m.val.query === undefined ? null : simpleFilterOf(m.val.query);
  return {
    ...emptyDraft(target),
    name: m.id,
    description: m.val.description ?? '',
    opNames:
      target === 'call' ? (m.val.op_names ?? []).map((o) => (o.endsWith(':*') ? opShortName(o) : o)).join(', ') : '',
    filter: simple ?? { field: defaultField(target), op: 'eq', value: '' },
    keptQuery: simple === null && isDict(m.val.query) ? m.val.query : null,
    samplePercent: Math.round((m.val.sampling_rate ?? 1) * 1000) / 10,
    active: m.val.active ?? true,
    ...scorerFields(scorer, presets),
  };
}

const opList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** What keeps the draft from being published (null: nothing). */
export function draftProblem(d: MonitorDraft): string | null {
  if (!new RegExp(`^${NAME_PATTERN}$`).test(d.name)) return 'A name: letters, digits, - and _';
  if (d.target === 'call' && opList(d.opNames).length === 0) return 'A call monitor names at least one op';
  if (d.scorerType !== 'remote' && d.model.trim() === '') return 'Pick the judge model';
  switch (d.scorerType) {
    case 'preset':
      return d.preset === '' ? 'Pick a preset' : null;
    case 'custom_tags': {
      const named = d.tags.filter((t) => t.name.trim() !== '');
      if (named.length === 0) return 'At least one tag';
      if (d.tags.some((t) => t.name.trim() !== '' && t.definition.trim() === '')) return 'Every tag needs a definition';
      return null;
    }
    case 'judge':
      return d.prompt.trim() === '' ? 'The judge prompt' : null;
    case 'remote':
      return d.url.trim() === '' ? "The remote scorer's URL" : null;
  }
}

function scorerSpec(d: MonitorDraft): SignalsPublishReq['scorer'] {
  const model = d.model.trim();
  switch (d.scorerType) {
    case 'preset':
      return { type: 'preset', preset: d.preset, model };
    case 'custom_tags':
      return {
        type: 'custom_tags',
        tags: d.tags
          .filter((t) => t.name.trim() !== '')
          .map((t) => ({ name: t.name.trim(), definition: t.definition.trim() })),
        include_tool_calls: d.includeToolCalls,
        model,
      };
    case 'judge':
      return { type: 'judge', kind: d.judgeKind, scoring_prompt: d.prompt, model };
    case 'remote':
      return { type: 'remote', url: d.url.trim(), secret_name: d.secretName.trim() || null };
  }
}

function queryOf(d: MonitorDraft): Record<string, unknown> | null {
  const { field, op, value } = d.filter;
  if (value.trim() === '' || field.trim() === '') return d.keptQuery;
  const f = { $getField: field.trim() };
  const v = { $literal: value };
  return { $expr: op === 'eq' ? { $eq: [f, v] } : { $contains: { input: f, substr: v } } };
}

export function publishRequest(projectId: string, d: MonitorDraft): SignalsPublishReq {
  return {
    project_id: projectId,
    name: d.name,
    description: d.description.trim() || null,
    target: d.target,
    ...(d.target === 'call' ? { op_names: opList(d.opNames) } : {}),
    query: queryOf(d),
    sampling_rate: Math.min(1, Math.max(0, d.samplePercent / 100)),
    active: d.active,
    scorer: scorerSpec(d),
  };
}

/** A monitor's query in words: the simple filter's clause, else the query itself (null: none). */
export function filterText(query: unknown): string | null {
  if (query === null || query === undefined) return null;
  const f = simpleFilterOf(query);
  if (f === null) return JSON.stringify(query);
  return `${f.field} ${f.op === 'eq' ? 'is' : 'contains'} ${f.value}`;
}
