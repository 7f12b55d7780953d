/** The crawl lease: one crawling process per database file, taken with BEGIN IMMEDIATE and taken over from a dead owner. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { ReadableDB, WritableDB } from './database';
import { CodedError } from '../../../shared/types/result';

/** How often the holder renews its lease's heartbeat, ms. */
export const LEASE_HEARTBEAT_MS = 5_000;
/**
 * A lease whose owner cannot be checked through /proc (another host, not Linux) is taken over
 * when its heartbeat is older than this, ms.
 */
export const LEASE_STALE_MS = 30_000;

/** Who holds a lease: this process, or the one a lease row names. */
export interface LeaseOwner {
  /** Random per process: a new process never mistakes an old row for its own. */
  ownerId: string;
  pid: number;
  hostname: string;
  /** Linux: `<boot id>:<start time in clock ticks since boot>` (/proc/<pid>/stat field 22); null elsewhere. */
  procStart: string | null;
}

/** The lease row (table crawl_lease, migration 0008). Times are epoch ms. */
export interface LeaseRow extends LeaseOwner {
  crawlId: number | null;
  acquiredAtMs: number;
  heartbeatMs: number;
}

/** How a lease's owner is checked; tests pass their own. */
export interface LeaseProbe {
  hostname: string;
  /** False when no process has this pid (kill(pid, 0) gives ESRCH). */
  alive(pid: number): boolean;
  /** The process's start stamp as {@link LeaseOwner.procStart}, or null when it cannot be read. */
  procStart(pid: number): string | null;
}

let bootId: string | null | undefined;

/** `<boot id>:<start ticks>` of a process from /proc (Linux), or null (other systems, gone, unreadable). */
export function procStartOf(pid: number): string | null {
  try {
    bootId ??= fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) is in parentheses and may hold spaces: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19]; // field 22 overall
    return start ? `${bootId}:${start}` : null;
  } catch {
    bootId ??= null;
    return null;
  }
}

/** The real system: kill(pid, 0) and /proc. */
export const SYSTEM_PROBE: LeaseProbe = {
  hostname: os.hostname(),
  alive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  procStart: procStartOf,
};

let self: LeaseOwner | null = null;

/** This process as a lease owner (one random owner id per process). */
export function processOwner(): LeaseOwner {
  self ??= { ownerId: randomUUID(), pid: process.pid, hostname: os.hostname(), procStart: procStartOf(process.pid) };
  return self;
}

/**
 * Whether the process a lease row names still runs. On the same host: a pid nobody has is dead;
 * a pid whose start stamp differs from the recorded one was reused by another process (dead); a
 * matching stamp is alive whatever its heartbeat. Where the stamp cannot be compared (another
 * host, no /proc), the heartbeat decides: older than {@link LEASE_STALE_MS} is dead.
 */
export function leaseHolderAlive(row: LeaseRow, nowMs: number, probe: LeaseProbe = SYSTEM_PROBE, me: LeaseOwner = processOwner()): boolean {
  if (row.ownerId === me.ownerId) return true;
  if (row.hostname === probe.hostname) {
    // Our own pid under another owner id: an earlier process that had our pid (containers reuse them).
    if (row.pid === me.pid && me.hostname === probe.hostname) return false;
    if (!probe.alive(row.pid)) return false;
    const start = probe.procStart(row.pid);
    if (start !== null && row.procStart !== null) return start === row.procStart;
  }
  return nowMs - row.heartbeatMs <= LEASE_STALE_MS;
}

interface LeaseDbRow {
  owner_id: string;
  pid: number;
  hostname: string;
  proc_start: string | null;
  crawl_id: number | null;
  acquired_at_ms: number;
  heartbeat_ms: number;
}

/** The lease row of a database, or null when nobody holds it. Read-only. */
export function readLease(db: ReadableDB): LeaseRow | null {
  const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'crawl_lease'`).get();
  if (!hasTable) return null;
  const row = db.prepare(`SELECT * FROM crawl_lease WHERE id = 1`).get() as LeaseDbRow | undefined;
  if (!row) return null;
  return {
    ownerId: row.owner_id,
    pid: row.pid,
    hostname: row.hostname,
    procStart: row.proc_start,
    crawlId: row.crawl_id,
    acquiredAtMs: row.acquired_at_ms,
    heartbeatMs: row.heartbeat_ms,
  };
}

/**
 * The live process crawling this database other than this one, or null (no lease, a dead owner's
 * lease, or ours). Read-only: the GUI uses it at start so it neither marks nor offers to resume a
 * crawl another process is running.
 */
export function otherLiveHolder(db: ReadableDB, nowMs = Date.now(), probe: LeaseProbe = SYSTEM_PROBE): LeaseRow | null {
  const row = readLease(db);
  if (!row || row.ownerId === processOwner().ownerId) return null;
  return leaseHolderAlive(row, nowMs, probe) ? row : null;
}

/** `crawl 3 is being run by pid 1234 (stop it, or wait for it to finish)`: the DB_BUSY message. */
export function busyMessage(row: LeaseRow): string {
  const who = `pid ${row.pid}${row.hostname === os.hostname() ? '' : ` on ${row.hostname}`}`;
  const what = row.crawlId === null ? 'this database is being crawled' : `crawl ${row.crawlId} is being run`;
  return `${what} by ${who} (stop it, or wait for it to finish)`;
}

/**
 * Bytes kept free beside a crawled database while the lease is held (`<db>-reserve`): on a full
 * disk, deleting it lets the last writes through (the crawl's `interrupted` status, the lease's
 * release), which would otherwise fail like the write that filled the disk.
 */
export const SPACE_RESERVE_BYTES = 256 * 1024;

/** This process's holds on one database file: several services may hold the one lease row. */
interface Hold {
  db: Database;
  count: number;
  timer: NodeJS.Timeout;
  /** The reserve file, or null (in-memory database, or it could not be written). */
  reserve: string | null;
}

function createReserve(db: Database): string | null {
  if (db.memory || db.name === '' || db.name === ':memory:') return null;
  const file = `${path.resolve(db.name)}-reserve`;
  try {
    fs.writeFileSync(file, Buffer.alloc(SPACE_RESERVE_BYTES));
    return file;
  } catch {
    fs.rmSync(file, { force: true });
    return null;
  }
}

const holds = new Map<string, Hold>();

const memoryKeys = new WeakMap<Database, string>();

/** The file a hold is for; each in-memory database is its own. */
function keyOf(db: Database): string {
  if (!db.memory) return path.resolve(db.name);
  let key = memoryKeys.get(db);
  if (!key) {
    key = `:memory:${randomUUID()}`;
    memoryKeys.set(db, key);
  }
  return key;
}

function writeRow(db: Database, me: LeaseOwner, crawlId: number | null, nowMs: number): void {
  db.prepare(
    `INSERT OR REPLACE INTO crawl_lease (id, owner_id, pid, hostname, proc_start, crawl_id, acquired_at_ms, heartbeat_ms) VALUES (1, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(me.ownerId, me.pid, me.hostname, me.procStart, crawlId, nowMs, nowMs);
}

/**
 * The exclusive right to crawl one database file: one crawling process at a time. Taken in a
 * `BEGIN IMMEDIATE` transaction (check and take are one step for every process), renewed every
 * {@link LEASE_HEARTBEAT_MS}, released when the last holder in this process releases it, and taken
 * over when its owner is dead ({@link leaseHolderAlive}). Readers need no lease.
 */
export class CrawlLease {
  private released = false;

  private constructor(
    private readonly key: string,
    private readonly hold: Hold,
  ) {}

  /**
   * Takes the lease of `db`'s file for this process (again, when this process holds it already).
   * Taking it from nobody or a dead owner also marks crawls left `running` as `interrupted`: with
   * the lease in hand, no live process runs them.
   * @param crawlId the crawl about to run (null while it is being created; see {@link setCrawl})
   * @throws CodedError DB_BUSY naming the live holder's crawl and pid
   */
  static acquire(db: WritableDB, crawlId: number | null, probe: LeaseProbe = SYSTEM_PROBE, nowMs = Date.now()): CrawlLease {
    const key = keyOf(db);
    const me = processOwner();
    db.transaction(() => {
      const row = readLease(db);
      if (row && row.ownerId !== me.ownerId && leaseHolderAlive(row, nowMs, probe, me)) throw new CodedError('DB_BUSY', busyMessage(row));
      if (!row || row.ownerId !== me.ownerId) {
        db.prepare(`UPDATE crawls SET status = 'interrupted' WHERE status = 'running'`).run();
        writeRow(db, me, crawlId, nowMs);
      } else if (crawlId !== null) {
        db.prepare(`UPDATE crawl_lease SET crawl_id = ?, heartbeat_ms = ? WHERE id = 1`).run(crawlId, nowMs);
      }
    }).immediate();
    let hold = holds.get(key);
    if (hold) {
      hold.count += 1;
      hold.db = db;
    } else {
      const timer = setInterval(() => {
        const current = holds.get(key);
        if (!current?.db.open) return;
        try {
          current.db.prepare(`UPDATE crawl_lease SET heartbeat_ms = ? WHERE id = 1 AND owner_id = ?`).run(Date.now(), me.ownerId);
        } catch {
          // A busy or full database: the crawl's own writes report it; on this host /proc keeps the lease ours.
        }
      }, LEASE_HEARTBEAT_MS);
      timer.unref();
      hold = { db, count: 1, timer, reserve: createReserve(db) };
      holds.set(key, hold);
    }
    return new CrawlLease(key, hold);
  }

  /**
   * Deletes the space reserve, so the writes that end a crawl after a full disk get through.
   * @returns true when there was a reserve to free
   */
  freeReserve(): boolean {
    if (!this.hold.reserve) return false;
    fs.rmSync(this.hold.reserve, { force: true });
    this.hold.reserve = null;
    return true;
  }

  /** Names the crawl this process runs now (shown in other processes' DB_BUSY). Never throws. */
  setCrawl(crawlId: number): void {
    try {
      this.hold.db.prepare(`UPDATE crawl_lease SET crawl_id = ? WHERE id = 1 AND owner_id = ?`).run(crawlId, processOwner().ownerId);
    } catch {
      // Cosmetic: the lease itself is held.
    }
  }

  /**
   * Drops this hold; the row goes when the process's last hold does. Never throws: a row left
   * behind (full disk, closed connection) names a process that will be dead, and is taken over.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.hold.count -= 1;
    if (this.hold.count > 0) return;
    clearInterval(this.hold.timer);
    if (holds.get(this.key) === this.hold) holds.delete(this.key);
    this.freeReserve();
    try {
      if (this.hold.db.open) this.hold.db.prepare(`DELETE FROM crawl_lease WHERE id = 1 AND owner_id = ?`).run(processOwner().ownerId);
    } catch {
      // See above.
    }
  }
}
