// The Monitors view's URL state: the form open beside the list, for a new monitor of turns or
// calls (`?new=agent_turn|call`) or for editing one (`?edit=<monitor id>`).
export interface MonitorsSearch {
  new?: 'agent_turn' | 'call';
  edit?: string;
}

export function parseMonitorsSearch(raw: Record<string, unknown>): MonitorsSearch {
  if (typeof raw.edit === 'string' && raw.edit !== '') return { edit: raw.edit };
  if (raw.new === 'agent_turn' || raw.new === 'call') return { new: raw.new };
  return {};
}
