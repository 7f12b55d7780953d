import { describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/types/result';
import { isStorageError, lowLevelCode, storageError, storageErrorInfo } from './storage-errors';

const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('storage errors', () => {
  it('maps SQLITE_FULL and ENOSPC to DISK_FULL in plain words, naming the file and what to do', () => {
    const error = storageError(sqlite('SQLITE_FULL', 'database or disk is full'), '/data/docs.db');
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toMatchObject({ code: 'DISK_FULL' });
    expect(error.message).toBe(
      'the disk is full (SQLITE_FULL) writing /data/docs.db; the crawl is interrupted and nothing committed is lost: free some space, then resume it (crawlbench resume --db /data/docs.db)',
    );
    expect(storageError(sqlite('ENOSPC', 'no space left on device'), 'x.db')).toMatchObject({ code: 'DISK_FULL' });
  });

  it('reads extended codes and causes: SQLITE_IOERR_WRITE is DB_IO_ERROR; a CHECKPOINT_FAILED caused by a full disk is DISK_FULL', () => {
    expect(lowLevelCode(sqlite('SQLITE_IOERR_WRITE', 'disk I/O error'))).toBe('SQLITE_IOERR');
    expect(storageError(sqlite('SQLITE_IOERR_WRITE', 'disk I/O error'), 'x.db').message).toContain('(SQLITE_IOERR_WRITE)');
    const checkpoint = Object.assign(new CodedError('CHECKPOINT_FAILED', 'Cannot write checkpoint'), { cause: sqlite('SQLITE_FULL', 'full') });
    expect(isStorageError(checkpoint)).toBe(true);
    expect(storageError(checkpoint, 'x.db')).toMatchObject({ code: 'DISK_FULL' });
    expect(storageErrorInfo(checkpoint)).toEqual({ code: 'DISK_FULL', message: 'the disk is full (SQLITE_FULL): the change was not saved; free some space or fix the disk, then try again' });
  });

  it('leaves other errors alone', () => {
    const constraint = sqlite('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed');
    expect(isStorageError(constraint)).toBe(false);
    expect(storageError(constraint, 'x.db')).toBe(constraint);
    const coded = new CodedError('DB_BUSY', 'crawl 3 is being run by pid 1');
    expect(storageError(coded, 'x.db')).toBe(coded);
    expect(storageErrorInfo(new Error('boom'))).toBeNull();
  });
});
