// A problem that stops Weft from starting, said in one line that names the problem and the
// fix (a path, a port, the setting to change). main.ts and the CLI print the message alone
// and exit 1; the stack only with WEFT_LOG_LEVEL=debug.
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
