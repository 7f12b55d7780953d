import { CodedError } from '../shared/types/result';

/** Standard streams of a command, injected so tests can capture them. */
export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** The process's own streams. */
export const processIo: CommandIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** Exit code for bad usage or input the user must fix (malformed URL, unwritable db, unreachable seed). */
export const EXIT_USAGE = 2;

/**
 * Parses an integer flag value.
 * @throws CodedError INVALID_FLAG
 */
export function intFlag(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new CodedError('INVALID_FLAG', `--${name} expects a whole number from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

/** Writes one `crawlbench: message` line (no stack trace) and returns the usage exit code. */
export function failLine(io: CommandIo, message: string): number {
  io.stderr.write(`crawlbench: ${message}\n`);
  return EXIT_USAGE;
}
