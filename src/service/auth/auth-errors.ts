// The access errors: 401 (no or wrong key) and 403 (a key without access), in the error
// catalogue (api/errors.ts) like every other error.
import { WeftError } from '../../api/errors.js';

export class UnauthorizedError extends WeftError {
  constructor(message = 'A valid API key is required') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends WeftError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super('FORBIDDEN', message, extra);
  }
}
