/**
 * How large the store-writer thread lets its WAL grow before SQLite's automatic checkpoint copies
 * it back into the database: large while the disk has room, small when it has not.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The most WAL frames (pages of 4 KiB) between automatic checkpoints, here 128 MiB (SQLite's
 * default is 1,000 pages, 4 MB). A commit batch of 32–64 pages with their links, band rows and
 * texts dirties more than 1,000 pages at random places, so with the default nearly every commit
 * copied the whole WAL back into the database and synced it, on the writer thread, while claims
 * waited behind it. Measured on the 20,200-page synthetic crawl (2 cores, disk, one run each):
 * 1,000 pages 81.8–83.1 s wall and 14 s system time; 16,384 pages 70.6 s, 10 s; 65,536 pages
 * 65.7 s, 10 s. A checkpoint copies each page once however often it was rewritten in the WAL.
 */
export const MAX_WAL_AUTOCHECKPOINT_PAGES = 32_768;

/**
 * The fewest WAL frames between automatic checkpoints (256 KiB of 4 KiB pages): on a nearly full
 * disk each commit is checkpointed, as with SQLite's default, only sooner.
 */
export const MIN_WAL_AUTOCHECKPOINT_PAGES = 64;

/**
 * The share of the disk's free space the WAL may take. The checkpoint then grows the database by
 * at most the WAL's new pages, so WAL and growth together stay within half of what was free.
 */
export const WAL_SHARE_OF_FREE_SPACE = 0.25;

/**
 * The automatic-checkpoint size, in WAL frames, for a disk with `freeBytes` available to this
 * process (statfs `bavail × bsize`) and database pages of `pageBytes`: a quarter of the free space,
 * within [MIN_WAL_AUTOCHECKPOINT_PAGES, MAX_WAL_AUTOCHECKPOINT_PAGES]. Without the bound a crawl
 * that resumed on a disk with 60 MB free grew its WAL past the free space and stopped with
 * DISK_FULL though the database itself fitted (hostile suite: disk full then resume).
 */
export function walAutocheckpointPages(freeBytes: number, pageBytes: number): number {
  const pages = Math.floor((Math.max(0, freeBytes) * WAL_SHARE_OF_FREE_SPACE) / pageBytes);
  return Math.min(MAX_WAL_AUTOCHECKPOINT_PAGES, Math.max(MIN_WAL_AUTOCHECKPOINT_PAGES, pages));
}

/** What a WalBudget needs of its connection: better-sqlite3's `pragma`. */
export interface PragmaConnection {
  pragma(source: string, options?: { simple: boolean }): unknown;
}

/**
 * Keeps a connection's `wal_autocheckpoint` at walAutocheckpointPages of the free space on the
 * database's disk, read again before each call of `refresh()` (one statfs, a few microseconds).
 * The pragma is only set when the value changes.
 */
export class WalBudget {
  private current = -1;
  private readonly pageBytes: number;
  private readonly folder: string;

  /**
   * @param db the writing connection (WAL mode)
   * @param file the database file, whose folder's file system is measured
   * @param freeBytes the free space of a folder, bytes (tests pass their own)
   */
  constructor(
    private readonly db: PragmaConnection,
    file: string,
    private readonly freeBytes: (folder: string) => number = availableBytes,
  ) {
    this.pageBytes = Number(db.pragma('page_size', { simple: true }));
    this.folder = path.dirname(path.resolve(file));
    this.refresh();
  }

  /** Sets the checkpoint size for the free space now; returns it, in WAL frames. */
  refresh(): number {
    const pages = walAutocheckpointPages(this.freeBytes(this.folder), this.pageBytes);
    if (pages !== this.current) {
      this.db.pragma(`wal_autocheckpoint = ${pages}`);
      this.current = pages;
    }
    return pages;
  }
}

/** Bytes available to this process on `folder`'s file system; Infinity when statfs fails. */
function availableBytes(folder: string): number {
  try {
    const stats = fs.statfsSync(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
