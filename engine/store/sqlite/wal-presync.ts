/**
 * Background flushes of the WAL file while the store-writer thread goes on writing, so that
 * SQLite's checkpoint finds little of the WAL left to sync.
 *
 * With `synchronous = NORMAL` a WAL checkpoint syncs the WAL file before it copies the frames back
 * into the database, then syncs the database (https://www.sqlite.org/wal.html, "Checkpointing";
 * https://www.sqlite.org/pragma.html#pragma_synchronous). The automatic checkpoint runs inside the
 * commit that crosses the WAL budget (wal-budget.ts), on the writer thread: every claim and commit
 * sent meanwhile waits. With a 128 MiB budget the first sync flushed up to 128 MiB the kernel had
 * not written yet: on the 20,200-page synthetic crawl (strace -T) 85-116 ms of each checkpoint's
 * ~180 ms, eight checkpoints holding the writer 1.4 s in all. Flushed a little at a time from
 * libuv's thread pool, the WAL is mostly on disk already when the checkpoint syncs it.
 *
 * An fdatasync changes nothing SQLite relies on (it only makes written data durable sooner), and a
 * failed one loses nothing: the checkpoint syncs the file itself and reports what fails there.
 */
import fs from 'node:fs';

/**
 * Least time between the starts of two background flushes, milliseconds: at the synthetic crawl's
 * 50 MB a second of WAL, about 12 MB a flush. Measured there (20,200 pages, 4 runs each way,
 * alternating): the writer's operations over 60 ms took 2.26-2.74 s in all without these flushes,
 * 1.11-1.75 s with them every 250 ms (1.0-1.5 s every 100 ms); the crawl took 27.4-30.1 s
 * without, 25.7-26.8 s with (and 35.3 s once, on a machine busy with something else).
 */
export const WAL_PRESYNC_INTERVAL_MS = 250;

/** Starts background flushes of one WAL file, at most one at a time and one per interval. */
export class WalPresync {
  private flushing = false;
  private lastStartMs = Number.NEGATIVE_INFINITY;
  /** Flushes started (for tests and diagnostics). */
  started = 0;

  /**
   * @param walFile the database's WAL file (`<database>-wal`)
   * @param intervalMs least time between two starts, ms (@default WAL_PRESYNC_INTERVAL_MS)
   * @param now a clock in ms (@default performance.now)
   * @param datasync flushes a file's data to disk (@default an fdatasync through fs.promises)
   */
  constructor(
    private readonly walFile: string,
    private readonly intervalMs = WAL_PRESYNC_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
    private readonly datasync: (file: string) => Promise<void> = datasyncFile,
  ) {}

  /**
   * Called after each write transaction: starts a background flush unless one is under way or the
   * last started less than `intervalMs` ago. Never throws; the returned promise (for tests)
   * settles when the flush it started, if any, ends.
   */
  afterWrite(): Promise<void> {
    const nowMs = this.now();
    if (this.flushing || nowMs - this.lastStartMs < this.intervalMs) return Promise.resolve();
    this.flushing = true;
    this.lastStartMs = nowMs;
    this.started += 1;
    return this.datasync(this.walFile)
      .catch(() => undefined)
      .finally(() => {
        this.flushing = false;
      });
  }
}

/**
 * fdatasync(2) of a file (opened for writing: Windows flushes only such handles); a missing file is
 * nothing to flush. @throws the open's or the sync's error otherwise (EISDIR, EIO, …)
 */
export async function datasyncFile(file: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r+');
    await handle.datasync();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
