// The error catalogue: every error Weft returns is one of these classes, thrown
// where the problem is found and mapped to HTTP exactly once (http/error-handler.ts).

export type ErrorCode =
  | 'INVALID_REQUEST'
  | 'INVALID_FIELD'
  | 'VALIDATION_ERROR'
  | 'NOT_FOUND'
  | 'OBJECT_DELETED'
  | 'REQUEST_TOO_LARGE'
  | 'DIGEST_MISMATCH'
  | 'CAPABILITY_MISMATCH'
  | 'UNSUPPORTED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAVAILABLE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'STORAGE_FULL'
  | 'INTERNAL';

/** HTTP status per error code: the one table that decides statuses. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_REQUEST: 400,
  INVALID_FIELD: 422,
  VALIDATION_ERROR: 422,
  NOT_FOUND: 404,
  OBJECT_DELETED: 404,
  REQUEST_TOO_LARGE: 413,
  DIGEST_MISMATCH: 409,
  CAPABILITY_MISMATCH: 412,
  UNSUPPORTED: 501,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNAVAILABLE: 503,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  STORAGE_FULL: 507,
  INTERNAL: 500,
};

/** One entry of a 422 body, FastAPI-shaped. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class WeftError extends Error {
  readonly code: ErrorCode;
  /** Extra keys merged into the JSON error body (e.g. deleted_at). */
  readonly extra: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
    this.name = new.target.name;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A semantically invalid request (400). */
export class InvalidRequestError extends WeftError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super('INVALID_REQUEST', message, extra);
  }
}

/** A field name the server does not know in a filter, sort or column list (422). */
export class InvalidFieldError extends WeftError {
  constructor(message: string, loc: (string | number)[] = ['body']) {
    super('INVALID_FIELD', message, {
      detail: [{ loc, msg: message, type: 'invalid_field' } satisfies ValidationIssue],
    });
  }
}

/** A request body that does not match its schema (422, FastAPI's shape). */
export class RequestValidationError extends WeftError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super('VALIDATION_ERROR', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.issues = issues;
  }
}

export class NotFoundError extends WeftError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super('NOT_FOUND', message, extra);
  }
}

/** Refs of /refs/read_batch whose objects do not exist: 404 naming their digests (Weave's error). */
export class RefObjectsNotFoundError extends WeftError {
  constructor(message: string, missingObjectDigests: readonly string[]) {
    super('NOT_FOUND', message, { missing_object_digests: missingObjectDigests });
  }
}

/** Reading an object version that was deleted: 404 that also says when. */
export class ObjectDeletedError extends WeftError {
  constructor(message: string, deletedAt: string) {
    super('OBJECT_DELETED', message, { deleted_at: deletedAt });
  }
}

export class RequestTooLargeError extends WeftError {
  constructor(message = 'Request too large') {
    super('REQUEST_TOO_LARGE', message);
  }
}

export class DigestMismatchError extends WeftError {
  constructor(message: string) {
    super('DIGEST_MISMATCH', message);
  }
}

/** The client speaks another version of a contract than this server (412 Precondition Failed). */
export class CapabilityMismatchError extends WeftError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super('CAPABILITY_MISMATCH', message, extra);
  }
}

export class UnsupportedError extends WeftError {
  constructor(message: string) {
    super('UNSUPPORTED', message);
  }
}

/** A body in a media type or content coding the route does not take (415). */
export class UnsupportedMediaTypeError extends WeftError {
  constructor(message: string) {
    super('UNSUPPORTED_MEDIA_TYPE', message);
  }
}

/** Temporarily unable to accept the request (503); the client should retry after `retry_after` seconds. */
export class ServiceUnavailableError extends WeftError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super('UNAVAILABLE', message, { retry_after: retryAfterSeconds });
  }
}

/**
 * A part of Weft that has to be built before it can be served (the web UI): 503 with no
 * retry hint, since waiting does not help; the operator builds it.
 */
export class NotBuiltError extends WeftError {
  constructor(message: string) {
    super('UNAVAILABLE', message);
  }
}

/**
 * The disk holding the data is full (507 Insufficient Storage): nothing was written; the client
 * should retry after `retry_after` seconds (both SDKs retry every 5xx), the operator free space.
 */
export class StorageFullError extends WeftError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 30,
  ) {
    super('STORAGE_FULL', message, { retry_after: retryAfterSeconds });
  }
}

/** Too many requests for one API key; the client should wait `retry_after` seconds. */
export class RateLimitedError extends WeftError {
  constructor(retryAfterSeconds: number) {
    super('RATE_LIMITED', 'Too many requests for this API key', { retry_after: retryAfterSeconds });
  }
}
