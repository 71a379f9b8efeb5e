// Encodes a client's JSON value as text. A value nested deeper than the JavaScript stack
// allows parses (the parser is iterative) but cannot be encoded again: that is the
// client's doing, so it is a 400 naming the field, not a 500.
import { InvalidRequestError } from '../../api/errors.js';

export function encodeJson(value: unknown, field: string): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) throw new InvalidRequestError(`${field} is nested too deeply`);
    throw err;
  }
}
