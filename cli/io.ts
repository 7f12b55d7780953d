import type { CrawlSettings } from '../shared/types/crawl';
import { settingBounds, settingFromText } from '../shared/types/crawl-settings';
import { CodedError } from '../shared/types/result';
import { isStorageError } from '../engine';

/** Standard streams of a command, injected so tests can capture them. */
export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** The process's own streams. */
export const processIo: CommandIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** Exit code for bad usage or input the user must fix (malformed URL or flag, a file that is not a Crawlbench database, DB_BUSY, unreachable seed). */
export const EXIT_USAGE = 2;
/** Exit code when a crawl was interrupted by its storage (DISK_FULL, DB_IO_ERROR, …): free space or fix the disk, then `resume`. */
export const EXIT_INTERRUPTED = 3;
/** Exit codes of a crawl or resume stopped by a signal (128 + signal number, as shells report): stopped, resumable. */
export const EXIT_SIGNAL: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = { SIGINT: 130, SIGTERM: 143 };

/** The exit codes, as the CLI help and README print them. */
export const EXIT_CODES_HELP = `Exit codes:
  0    done (a crawl finished, or stopped at its page limit)
  1    unexpected failure, or stdout could not be written (e.g. redirected to a full disk)
  2    bad usage or input: a bad flag, a file that is not a Crawlbench database (NOT_A_CRAWL_DB,
       SCHEMA_TOO_NEW), a database another process is crawling (DB_BUSY), an unreachable seed
  3    the disk refused a write (DISK_FULL, DB_IO_ERROR, …): a crawl is left interrupted with
       nothing committed lost; free space or fix the disk, then resume (or export again)
  130  stopped by SIGINT (Ctrl-C), 143 stopped by SIGTERM: the crawl is stopped and resumable`;

const DECIMAL = /^\d+$/;

/**
 * Parses a whole-number flag value: decimal digits only (no sign, `0x10`, `1e3`, spaces or empty).
 * @returns the number, or undefined when the flag was not given
 * @throws CodedError INVALID_FLAG naming the flag and its range
 */
export function intFlag(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const parsed = DECIMAL.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new CodedError('INVALID_FLAG', `--${name} expects a whole number from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

/**
 * Parses a flag that sets a numeric crawl setting: the text is read as the crawl form reads it
 * (decimal digits; a fraction only for fractional settings) and checked by the setting's own
 * schema (shared/types/crawl-settings.ts), so the CLI accepts exactly what IPC and the form accept.
 * @returns the value, or undefined when the flag was not given
 * @throws CodedError INVALID_FLAG naming the flag and the setting's range
 * @example settingFlag('threads', 'threads', '8') // 8
 */
export function settingFlag<K extends Parameters<typeof settingFromText>[0]>(name: string, key: K, value: string | undefined): CrawlSettings[K] | undefined {
  if (value === undefined) return undefined;
  const read = settingFromText(key, value);
  if (read.ok) return read.value;
  const { min, max, integer } = settingBounds(key);
  throw new CodedError('INVALID_FLAG', `--${name} expects ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${value}"`);
}

/**
 * One line for a parseArgs error (node's own can span three), with the flag it names.
 * @param argv the arguments parsed, to quote a value that looked like an option (`--max-pages -5`)
 */
export function parseErrorLine(error: unknown, argv: readonly string[], command: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const ambiguous = /Option '(--[\w-]+)[^']*' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1]!;
    const value = argv[argv.indexOf(flag) + 1] ?? '';
    const why = /^-\d+(\.\d+)?$/.test(value) ? ' (negative numbers are refused)' : `; a value that begins with "-" is written ${flag}=${value}`;
    return `INVALID_FLAG: ${flag} got "${value}", which is not a valid value${why} (see crawlbench ${command} --help)`;
  }
  return `INVALID_FLAG: ${message.split('\n')[0]} (see crawlbench ${command} --help)`;
}

/** `CODE: message` for a CodedError, else the message: the text of a one-line CLI error. */
export function errorText(error: unknown): string {
  if (error instanceof CodedError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Writes one `crawlbench: message` line (no stack trace) and returns the usage exit code. */
export function failLine(io: CommandIo, message: string): number {
  io.stderr.write(`crawlbench: ${message}\n`);
  return EXIT_USAGE;
}

/**
 * Writes one `crawlbench: CODE: message` line for an error and returns its exit code:
 * {@link EXIT_INTERRUPTED} for a storage failure, else {@link EXIT_USAGE}.
 */
export function failWith(io: CommandIo, error: unknown): number {
  failLine(io, errorText(error));
  return isStorageError(error) ? EXIT_INTERRUPTED : EXIT_USAGE;
}
