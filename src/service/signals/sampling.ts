// Whether a monitor's sample draws a target: a hash of monitor and target against the sampling
// rate, so the same target always draws the same (a call or turn seen twice is not drawn twice
// by chance), and over many targets the share drawn is the rate.
import { createHash } from 'node:crypto';

export function sampled(m: { readonly id: string; readonly samplingRate: number }, targetId: string): boolean {
  if (m.samplingRate >= 1) return true;
  if (m.samplingRate <= 0) return false;
  const h = createHash('sha256').update(`${m.id}\u0000${targetId}`).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < m.samplingRate;
}
