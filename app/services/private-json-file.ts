/**
 * JSON files of secrets kept beside a database (request-rule secrets, cookie jars): an object keyed
 * by crawl id, readable by the owner alone (mode 0600), replaced whole by a rename so a reader (or a
 * crash) never sees half a file.
 */
import fs from 'node:fs';
import { CodedError } from '../../shared/types/result';

/** The side of a database connection that says where its secrets can be kept (better-sqlite3's `name` and `memory`). */
export interface SecretsDatabase {
  /** The file the connection opened (`:memory:` or '' for a memory or temporary database). */
  readonly name: string;
  /** True for a memory database, which has no file to keep secrets beside. */
  readonly memory: boolean;
}

/** True when `db` is a file beside which secrets files are kept (not `:memory:`, not a temporary database). */
export function hasDatabaseFile(db: SecretsDatabase): boolean {
  return !db.memory && db.name !== ':memory:' && db.name !== '';
}

/**
 * The object in `file`, {} when the file is missing.
 * @throws CodedError `code` when the file cannot be read or is not a JSON object; the message ends with `hint` (what to do)
 */
export function readPrivateJson(file: string, code: string, hint: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CodedError(code, `Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new CodedError(code, `${file} is not a Crawlbench secrets file (${(error as Error).message}): ${hint}`);
  }
}

/**
 * Writes `value` as `file`: to a temporary file with mode 0600 beside it, then renamed over the old.
 * @throws the file system's error (ENOSPC on a full disk, EACCES …); the old file is then left as it was
 */
export function writePrivateJson(file: string, value: Record<string, unknown>): void {
  const staging = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(staging, JSON.stringify(value), { mode: 0o600 });
    fs.chmodSync(staging, 0o600);
    fs.renameSync(staging, file);
  } catch (error) {
    fs.rmSync(staging, { force: true });
    throw error;
  }
}
