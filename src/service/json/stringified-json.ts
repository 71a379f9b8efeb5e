// JSON text that is already in Weft's stored form: exactly what JSON.stringify writes for the
// value JSON.parse reads from it (not digest.ts's canonical JSON, which is Python's). Such text can be stored as it came, with no parse and no
// encoding again: OpenTelemetry spans carry their content as JSON text (OpenInference's
// input.value, Traceloop's entity input), and most JavaScript senders write it with
// JSON.stringify. Text in any other form (a Python sender's ", " separators, \u escapes of
// non-ASCII, 1.0, duplicate keys...) is parsed and encoded as before, so both paths store the
// same bytes.

/** Deeper text is left to JSON.parse and JSON.stringify (which refuse what is too deep). */
const MAX_DEPTH = 128;
/** Integers of up to 15 digits are exact doubles and print back unchanged. */
const EXACT_DIGITS = 15;

const CONTROL = /[\u0000-\u001f]/;
const LONE_SURROGATE = /\p{Cs}/u;
const DIGITS = /^[0-9]+$/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/** Escapes JSON.stringify writes: \" \\ \b \f \n \r \t, and \u00xx (lower-case) for the other control characters. */
function escapeEnd(s: string, at: number): number {
  const c = s.charCodeAt(at + 1);
  if (c === 0x22 || c === 0x5c || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74) return at + 2;
  if (c !== 0x75 || s.charCodeAt(at + 2) !== 0x30 || s.charCodeAt(at + 3) !== 0x30) return -1;
  const hi = s.charCodeAt(at + 4);
  const lo = s.charCodeAt(at + 5);
  const low = lo >= 0x30 && lo <= 0x39 ? lo - 0x30 : lo >= 0x61 && lo <= 0x66 ? lo - 0x57 : -1;
  if ((hi !== 0x30 && hi !== 0x31) || low < 0) return -1;
  const code = (hi - 0x30) * 16 + low;
  // \b \t \n \f \r have their short forms.
  return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? -1 : at + 6;
}

/** One pass over a text already known to hold no raw control character and no lone surrogate. */
class Scanner {
  private at = 0;
  /** Position of the next backslash at or after `at` (Infinity: none left), found once per backslash. */
  private backslash = -1;

  constructor(private readonly s: string) {}

  whole(): boolean {
    return this.value(0) && this.at === this.s.length;
  }

  private value(depth: number): boolean {
    const c = this.s.charCodeAt(this.at);
    if (c === 0x7b) return this.object(depth + 1);
    if (c === 0x5b) return this.array(depth + 1);
    if (c === 0x22) return this.string();
    if (c === 0x74) return this.word('true');
    if (c === 0x66) return this.word('false');
    if (c === 0x6e) return this.word('null');
    return this.number();
  }

  private word(w: string): boolean {
    if (!this.s.startsWith(w, this.at)) return false;
    this.at += w.length;
    return true;
  }

  /** A number JSON.stringify would write the same way (its shortest round-trip form). */
  private number(): boolean {
    NUMBER.lastIndex = this.at;
    const m = NUMBER.exec(this.s);
    if (m === null || m[0].length === 0 || m[0] === '-') return false;
    this.at += m[0].length;
    const token = m[0];
    if (
      m[1] === undefined &&
      m[2] === undefined &&
      token !== '-0' &&
      token.length - (token[0] === '-' ? 1 : 0) <= EXACT_DIGITS
    )
      return true;
    return String(Number(token)) === token;
  }

  /** A string from its opening quote; its escapes must be those JSON.stringify writes. */
  private string(): boolean {
    const s = this.s;
    let at = this.at + 1;
    for (;;) {
      const quote = s.indexOf('"', at);
      if (quote < 0) return false;
      if (this.backslash < at) {
        const b = s.indexOf('\\', at);
        this.backslash = b < 0 ? Number.POSITIVE_INFINITY : b;
      }
      if (this.backslash > quote) {
        this.at = quote + 1;
        return true;
      }
      at = escapeEnd(s, this.backslash);
      if (at < 0) return false;
    }
  }

  private array(depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    this.at++;
    if (this.s.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return true;
    }
    for (;;) {
      if (!this.value(depth)) return false;
      const c = this.s.charCodeAt(this.at++);
      if (c === 0x5d) return true;
      if (c !== 0x2c) return false;
    }
  }

  /**
   * An object whose keys are distinct (JSON.parse keeps the last of repeated keys, at the
   * first one's place) and not all digits (JavaScript lists array-index keys first).
   */
  private object(depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    const s = this.s;
    this.at++;
    if (s.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return true;
    }
    let keys: string[] | Set<string> = [];
    for (;;) {
      if (s.charCodeAt(this.at) !== 0x22) return false;
      const start = this.at + 1;
      if (!this.string()) return false;
      // Escapes are canonical, so equal keys have equal text.
      const key = s.slice(start, this.at - 1);
      if (DIGITS.test(key)) return false;
      if (Array.isArray(keys)) {
        if (keys.includes(key)) return false;
        keys.push(key);
        if (keys.length > 16) keys = new Set(keys);
      } else {
        if (keys.has(key)) return false;
        keys.add(key);
      }
      if (s.charCodeAt(this.at++) !== 0x3a) return false;
      if (!this.value(depth)) return false;
      const c = s.charCodeAt(this.at++);
      if (c === 0x7d) return true;
      if (c !== 0x2c) return false;
    }
  }
}

/**
 * Whether JSON.stringify(JSON.parse(text)) === text. Never true when that is false; false
 * also for some texts where it holds (keys of digits only, very deep nesting), which then
 * take the parse-and-encode path.
 */
export function isStringifiedJson(text: string): boolean {
  if (text.length === 0 || CONTROL.test(text) || LONE_SURROGATE.test(text)) return false;
  return new Scanner(text).whole();
}

/** JSON text known to be in its stored form (see isStringifiedJson): stored as it is. */
export class StringifiedJson {
  private constructor(readonly text: string) {}

  /** The text as StringifiedJson when it is in its stored form, else null. */
  static of(text: string): StringifiedJson | null {
    return isStringifiedJson(text) ? new StringifiedJson(text) : null;
  }

  /** `{"<key>":<this>}`, itself in stored form (a key of digits only would not be). */
  wrappedIn(key: string): StringifiedJson | null {
    return DIGITS.test(key) ? null : new StringifiedJson(`{${JSON.stringify(key)}:${this.text}}`);
  }
}
