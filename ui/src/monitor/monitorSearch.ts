// The monitor view's state, all of it in the URL: the window (?from=&to=, ISO 8601), the
// bucket width (?bucket=, seconds; absent: the server picks a round one) and the SAME filter
// params as the calls view (?f=&op=&errors=&roots=), parsed and compiled by the calls view's
// own code, so a filtered calls view and the monitor always count the same calls.
import type { UiTimeseriesReq } from '../api/types';
import { callsFilterRequest, parseCallsSearch, windowOf, type CallsSearch } from '../calls/callsSearch';

/** The calls view's filter params (its sort means nothing here). */
export type MonitorFilter = Pick<CallsSearch, 'f' | 'op' | 'errors' | 'roots'>;

export interface MonitorSearch extends MonitorFilter {
  /** Calls started at or after (ISO 8601); absent: from the first matching call. */
  from?: string;
  /** Calls started before (ISO 8601); absent: through the last matching call. */
  to?: string;
  /** Bucket width in seconds; absent: automatic. */
  bucket?: number;
}

/** The server's bounds on bucket_seconds (src/api/ui.ts). */
const MAX_BUCKET_SECONDS = 366 * 86_400;

/** The filter part of search params (raw or parsed): exactly what the calls view would read from them. */
export function filterOf(raw: object): MonitorFilter {
  const { f, op, errors, roots } = parseCallsSearch(raw as Record<string, unknown>);
  return {
    ...(f ? { f } : {}),
    ...(op ? { op } : {}),
    ...(errors ? { errors } : {}),
    ...(roots === false ? { roots } : {}),
  };
}

/** Keeps what is valid of a URL's search params; anything else is dropped, never an error. */
export function parseMonitorSearch(raw: Record<string, unknown>): MonitorSearch {
  const out: MonitorSearch = { ...filterOf(raw), ...windowOf(raw) };
  const bucket = typeof raw.bucket === 'string' ? Number(raw.bucket) : raw.bucket;
  if (typeof bucket === 'number' && Number.isInteger(bucket) && bucket >= 1 && bucket <= MAX_BUCKET_SECONDS)
    out.bucket = bucket;
  return out;
}

export function timeseriesRequest(projectId: string, search: MonitorSearch): UiTimeseriesReq {
  return {
    ...callsFilterRequest(projectId, filterOf(search)),
    from: search.from ?? null,
    to: search.to ?? null,
    bucket_seconds: search.bucket ?? null,
  };
}

/** The calls view's params for the same calls: the filter and the window, when one is set. */
export function callsLinkOf(search: MonitorSearch): CallsSearch {
  return {
    ...filterOf(search),
    ...(search.from ? { from: search.from } : {}),
    ...(search.to ? { to: search.to } : {}),
  };
}

/** True when the filter differs from the calls view's default (trace roots, nothing else). */
export const isFiltered = (s: MonitorSearch) => Boolean(s.f?.length || s.op || s.errors || s.roots === false);
