// Attribute values that carry JSON as text (OpenInference, the Vercel AI SDK): the parsed value,
// or the value as it is when it is not a string or not JSON.
export function parseJsonText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
