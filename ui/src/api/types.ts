// Request and answer types of the API, from the server's own schemas (src/api): the UI
// never declares a parallel interface.
export type { CallSchema as Call, CallReadReq, CallsQueryReq, CallsFilter } from '../../../src/api/calls.js';
export type { Query } from '../../../src/api/query.js';
export type { UiProjectsRes, UiTraceNode, UiTraceTreeReq } from '../../../src/api/ui.js';
