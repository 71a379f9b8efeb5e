// The quick time ranges the calls view and the monitor offer: [id, label, length in ms].
const HOUR = 3_600_000;
export const QUICK_RANGES = [
  ['1h', 'Last hour', HOUR],
  ['24h', 'Last 24 hours', 24 * HOUR],
  ['7d', 'Last 7 days', 7 * 24 * HOUR],
  ['30d', 'Last 30 days', 30 * 24 * HOUR],
] as const;
