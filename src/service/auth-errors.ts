// The access errors: 401 (no or wrong key) and 403 (a key without access). They extend the
// error catalogue's WeftError so http/error-handler.ts maps them like every other error.
// (ErrorCode / ERROR_STATUS in api/errors.ts do not list them yet: the status is set here.)
import { WeftError, type ErrorCode } from '../api/errors.js';

export class UnauthorizedError extends WeftError {
  constructor(message = 'A valid API key is required') {
    super('UNAUTHORIZED' as ErrorCode, message);
  }
  override get status(): number {
    return 401;
  }
}

export class ForbiddenError extends WeftError {
  constructor(message: string) {
    super('FORBIDDEN' as ErrorCode, message);
  }
  override get status(): number {
    return 403;
  }
}
