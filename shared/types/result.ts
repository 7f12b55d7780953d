/**
 * Errors travel as data across IPC and worker boundaries (STYLE.md convention 5).
 * `code` is a stable SCREAMING_SNAKE identifier callers can switch on; `message` is for people.
 */
export interface ErrorInfo {
  code: string;
  message: string;
}

/** A value or an error, never a thrown exception across a boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** Wraps a value as a successful {@link Result}. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Wraps a code and message as a failed {@link Result}. */
export function err<T = never>(code: string, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

/**
 * An Error that carries a stable code, so a boundary can turn it into `{ ok: false, error }`.
 * @example throw new CodedError('INVALID_SEED', 'Seed URL "x" is not an absolute http(s) URL')
 */
export class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}

/** Turns anything thrown into an {@link ErrorInfo}; unknown errors get code `INTERNAL`. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof CodedError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'INTERNAL', message: error.message };
  return { code: 'INTERNAL', message: String(error) };
}
