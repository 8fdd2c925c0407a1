/**
 * Failures the CLI reports on one stderr line. The exit code tells scripts who is at fault:
 * 1 = the request (refused by the server, or malformed on the command line), 2 = the CLI could not
 * talk to the server at all (unreachable, no token, bad BOURSE_URL).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** The server refused the request with its `{code, msg}` body. */
export class AdminApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: number | string,
    readonly serverMsg: string,
  ) {
    super(`error ${code}: ${serverMsg}`, 1);
  }
}

export function usageError(message: string): CliError {
  return new CliError(`error: ${message}`, 1);
}

/** An HTTP answer no Bourse server gives (a proxy's HTML page, a body that is not JSON). */
export function unexpectedAnswer(message: string): CliError {
  return new CliError(`error: ${message}`, 1);
}

export function cannotConnect(message: string): CliError {
  return new CliError(message, 2);
}
