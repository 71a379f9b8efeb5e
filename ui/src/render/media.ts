// Media inside values: data URIs, and raw base64 recognised by its first bytes (never SVG,
// which can carry script). Such strings render as <img>/<audio>, never as text.
export type Media = { kind: 'image' | 'audio'; src: string };

const SIGNATURES: readonly [string, string, Media['kind']][] = [
  ['iVBORw0KGgo', 'image/png', 'image'],
  ['/9j/', 'image/jpeg', 'image'],
  ['R0lGOD', 'image/gif', 'image'],
  ['UklGR', 'image/webp', 'image'],
  ['SUQz', 'audio/mpeg', 'audio'],
  ['//uQ', 'audio/mpeg', 'audio'],
  ['T2dnUw', 'audio/ogg', 'audio'],
];

export function mediaOf(s: string): Media | null {
  const m = /^data:(image\/(?:png|jpeg|gif|webp)|audio\/[\w.+-]+);base64,/.exec(s.slice(0, 64));
  if (m) return { kind: m[1]!.startsWith('image/') ? 'image' : 'audio', src: s };
  if (s.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(s.slice(0, 256))) return null;
  for (const [prefix, mime, kind] of SIGNATURES) {
    if (s.startsWith(prefix)) return { kind, src: `data:${mime};base64,${s}` };
  }
  return null;
}
