/** SQLite errors in plain words: DISK_FULL, DB_IO_ERROR, DB_BUSY … with what to do, for every write path. */
import type { StorageErrorCode } from '../../../shared/types/error-codes';
import { CodedError } from '../../../shared/types/result';

/**
 * SQLite primary result codes (and errno codes) that mean the storage refused, not a bug in a
 * query, with the crawler's code for each (class stop-crawl, shared/types/error-codes.ts).
 */
const STORAGE_CODES: Record<string, { code: StorageErrorCode; words: string }> = {
  SQLITE_FULL: { code: 'DISK_FULL', words: 'the disk is full' },
  ENOSPC: { code: 'DISK_FULL', words: 'the disk is full' },
  EDQUOT: { code: 'DISK_FULL', words: 'the disk quota is used up' },
  SQLITE_IOERR: { code: 'DB_IO_ERROR', words: 'the disk reported an I/O error' },
  EIO: { code: 'DB_IO_ERROR', words: 'the disk reported an I/O error' },
  SQLITE_READONLY: { code: 'DB_READONLY', words: 'the database file became read-only' },
  EROFS: { code: 'DB_READONLY', words: 'the file system is read-only' },
  SQLITE_BUSY: { code: 'DB_BUSY', words: 'another process kept the database locked' },
  SQLITE_LOCKED: { code: 'DB_BUSY', words: 'the database was locked' },
  SQLITE_CORRUPT: { code: 'DB_CORRUPT', words: 'the database file is damaged' },
  SQLITE_NOTADB: { code: 'DB_CORRUPT', words: 'the database file is damaged' },
  SQLITE_CANTOPEN: { code: 'DB_IO_ERROR', words: 'the database file could not be opened' },
  SQLITE_NOMEM: { code: 'DB_IO_ERROR', words: 'SQLite ran out of memory' },
};

/** The first SQLite or errno code in an error's cause chain, as written (`SQLITE_IOERR_WRITE`). */
function rawCode(error: unknown): string | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_') || code in STORAGE_CODES)) return code;
  }
  return null;
}

/** The low-level code of an error or its cause (`SQLITE_FULL`, `SQLITE_IOERR_WRITE` → `SQLITE_IOERR`, `ENOSPC`), or null. */
export function lowLevelCode(error: unknown): string | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (code.startsWith('SQLITE_')) {
      const primary = code.split('_').slice(0, 2).join('_');
      return primary in STORAGE_CODES ? primary : code;
    }
    if (code in STORAGE_CODES) return code;
  }
  return null;
}

/** True when `error` is SQLite's "the write lock is held elsewhere" (SQLITE_BUSY or SQLITE_LOCKED, any extended code). */
export function isLockBusy(error: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown } | null)?.code));
}

/** True when `error` (or its cause) is the storage refusing a read or write: a full disk, an I/O error, a lock held too long. */
export function isStorageError(error: unknown): boolean {
  const code = lowLevelCode(error);
  return code !== null && code in STORAGE_CODES;
}

/**
 * The one plain-words form of a storage failure: a CodedError whose code is DISK_FULL, DB_IO_ERROR,
 * DB_READONLY, DB_BUSY or DB_CORRUPT and whose message says what happened (with the SQLite or errno
 * code), that the crawl is interrupted with its committed work kept, and what to do. Errors that are
 * not storage failures (and CodedErrors already) are returned unchanged.
 * @param dbFile the database file, named in the message
 */
export function storageError(error: unknown, dbFile: string): Error {
  if (error instanceof CodedError && !(error.code === 'CHECKPOINT_FAILED' && isStorageError(error))) return error;
  const low = lowLevelCode(error);
  const known = low === null ? undefined : STORAGE_CODES[low];
  if (!known) return error instanceof Error ? error : new Error(String(error));
  const detail = rawCode(error) ?? low;
  const advice =
    known.code === 'DISK_FULL'
      ? `free some space, then resume it (crawlbench resume --db ${dbFile})`
      : known.code === 'DB_BUSY'
        ? `try again when the other process is done (crawlbench resume --db ${dbFile})`
        : `check the disk, then resume it (crawlbench resume --db ${dbFile})`;
  const wrapped = new CodedError(known.code, `${known.words} (${detail}) writing ${dbFile}; the crawl is interrupted and nothing committed is lost: ${advice}`);
  return Object.assign(wrapped, { cause: error });
}

/**
 * A storage failure of a request that is not a crawl (saving settings, creating a checkpoint from
 * the app) as the IPC error the client shows: the same codes as {@link storageError}, saying the
 * change was not saved; null when `error` is not a storage failure.
 */
export function storageErrorInfo(error: unknown): { code: string; message: string } | null {
  if (error instanceof CodedError && error.code !== 'CHECKPOINT_FAILED') return null;
  const low = lowLevelCode(error);
  const known = low === null ? undefined : STORAGE_CODES[low];
  if (!known) return null;
  return { code: known.code, message: `${known.words} (${rawCode(error) ?? low}): the change was not saved; free some space or fix the disk, then try again` };
}
