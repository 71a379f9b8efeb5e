// Why a score job did not produce a score. Retryable failures (the provider's 5xx, 429 or
// timeout, a connection that failed) are tried again later; the others (a missing secret, a
// scorer Weft cannot run, an answer that is not the JSON asked for) end the job as failed,
// with the reason kept on the job and shown with the monitor.
export class ScoreError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
