/**
 * The crawler processes working on a PostgreSQL crawl (issue 13), each holding a lease: a
 * `processes` row whose `last_beat_ms` a heartbeat renews every leaseMs / 5. A process whose lease
 * ran out (no beat for leaseMs), or one on this machine whose pid is gone (a crash, then a resume
 * on the same machine, needs no lease wait), is swept: its row ends as `lease-expired`, the URLs
 * it held in flight go back to pending, and the host slots it held (its claims' `slot_held`, its
 * sitemap `host_slots`) are given back to their hosts, in one transaction.
 */
import os from 'node:os';
import { inRetriedTransaction } from './retry';
import { postgresError, type PostgresStore } from './pool';
import type pg from 'pg';

/** Why a process joined a crawl: started it, joined it running, or resumed it. */
export type ProcessRole = 'crawl' | 'join' | 'resume';

/** How a process's row ends (`processes.end_reason`). */
export type ProcessEndReason = 'finished' | 'stopped' | 'lease-expired' | 'failed';

/** Who a process is: `processes.id`, its role, and where it runs. */
export interface ProcessIdentity {
  /** Unique over the store (default of the stores: `hostname:pid:random`). */
  processId: string;
  role: ProcessRole;
  /** os.hostname() of the machine it runs on. */
  hostname: string;
  /** Its operating-system process id on that machine. */
  pid: number;
}

/** What a heartbeat reports of the process's work. */
export interface ProcessProgress {
  /** Pages this process has fetched and committed. */
  pagesDone: number;
  /** Its recent fetch rate, pages per second. */
  pagesPerS: number;
  /** URLs it holds in flight now. */
  inFlight: number;
}

/** A live process of a crawl as `liveProcesses` lists it. */
export interface ProcessInfo extends ProcessProgress {
  id: string;
  hostname: string;
  pid: number;
  role: ProcessRole;
  /** When it joined, epoch ms. */
  startedAtMs: number;
  /** Its last heartbeat, epoch ms. */
  lastBeatMs: number;
}

/** The default lease: a process silent this long (ms) is taken for dead. */
export const DEFAULT_LEASE_MS = 30_000;

/** True when a process with `pid` runs on this machine (signal 0: EPERM means it runs as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

interface ProcessRow {
  id: string;
  hostname: string;
  pid: number;
  role: ProcessRole;
  started_at_ms: number;
  last_beat_ms: number;
  pages_done: number;
  pages_per_s: number;
  in_flight: number;
}

/**
 * The processes of crawl `crawlId` whose row has not ended (each with its last beat; one whose
 * lease ran out is listed until a sweep ends it), oldest first.
 */
export async function liveProcesses(store: PostgresStore, crawlId: number): Promise<ProcessInfo[]> {
  try {
    const { rows } = await store.pool.query<ProcessRow>(`SELECT * FROM processes WHERE crawl_id = $1 AND ended_at_ms IS NULL ORDER BY started_at_ms, id`, [crawlId]);
    return rows.map((row) => ({
      id: row.id,
      hostname: row.hostname,
      pid: row.pid,
      role: row.role,
      startedAtMs: row.started_at_ms,
      lastBeatMs: row.last_beat_ms,
      pagesDone: row.pages_done,
      pagesPerS: row.pages_per_s,
      inFlight: row.in_flight,
    }));
  } catch (error) {
    throw postgresError(error, store.url);
  }
}

/**
 * What a sweep needs to know: the clock, and which process and machine runs it. Each process is
 * judged by its own lease (`processes.lease_ms`), not the sweeper's: a process started with a
 * short --lease-ms must not take a process that beats on a longer one for dead.
 */
export interface SweepOptions {
  /** Epoch ms. */
  nowMs: number;
  /** The sweeping process (never swept by itself). */
  selfId: string;
  /** This machine's hostname: its processes' pids are checked. */
  hostname: string;
  /** Whether a pid runs on this machine. @default pidAlive */
  isAlive?: (pid: number) => boolean;
}

/**
 * Ends the crawl's dead processes and gives back what they held, in the caller's transaction on
 * `client`: URLs in flight go back to pending (owner null), each host's `in_flight` drops by the
 * slots they still held (claims not yet released, sitemap `host_slots`, which are deleted).
 * @returns the ids of the processes it ended
 */
export async function sweepDeadProcesses(client: pg.ClientBase, crawlId: number, options: SweepOptions): Promise<string[]> {
  const isAlive = options.isAlive ?? pidAlive;
  const { rows: local } = await client.query<{ id: string; pid: number }>(
    `SELECT id, pid FROM processes WHERE crawl_id = $1 AND ended_at_ms IS NULL AND hostname = $2 AND id <> $3`,
    [crawlId, options.hostname, options.selfId],
  );
  const gone = local.filter((row) => !isAlive(row.pid)).map((row) => row.id);
  const { rows: ended } = await client.query<{ id: string }>(
    `UPDATE processes SET ended_at_ms = $2::bigint, end_reason = 'lease-expired'
     WHERE crawl_id = $1 AND ended_at_ms IS NULL AND id <> $3 AND (last_beat_ms < $2::bigint - lease_ms OR id = ANY($4::text[]))
     RETURNING id`,
    [crawlId, options.nowMs, options.selfId, gone],
  );
  const ids = ended.map((row) => row.id);
  if (ids.length > 0) await giveBack(client, crawlId, ids, { swept: true });
  return ids;
}

/**
 * Returns to pending every URL that processes `owners` hold in flight, deletes their sitemap host
 * slots, and takes the slots they still held off their hosts' `in_flight`: one statement. With
 * `swept` (the lease sweep found them dead), each owner's `processes.returned_urls` grows by the
 * URLs it gave back (what a crash may cost in refetches).
 */
export async function giveBack(client: pg.ClientBase, crawlId: number, owners: readonly string[], { swept = false }: { swept?: boolean } = {}): Promise<void> {
  await client.query(
    `WITH held AS (
       SELECT id, slot_held, owner FROM urls WHERE owner = ANY($2::text[]) AND state = 'in_flight' AND crawl_id = $1 ORDER BY id FOR UPDATE
     ), returned AS (
       UPDATE urls u SET state = 'pending', owner = NULL, slot_held = false FROM held WHERE u.id = held.id
       RETURNING u.host, held.slot_held, held.owner
     ), recorded AS (
       UPDATE processes p SET returned_urls = p.returned_urls + r.n
       FROM (SELECT owner, count(*) AS n FROM returned GROUP BY owner) r WHERE $3 AND p.id = r.owner
     ), slots AS (
       DELETE FROM host_slots WHERE owner = ANY($2::text[]) AND crawl_id = $1 RETURNING host
     ), per_host AS (
       SELECT host, count(*) AS n FROM (SELECT host FROM returned WHERE slot_held UNION ALL SELECT host FROM slots) AS freed GROUP BY host ORDER BY host
     )
     UPDATE hosts h SET in_flight = h.in_flight - p.n FROM per_host p WHERE h.crawl_id = $1 AND h.host = p.host`,
    [crawlId, owners, swept],
  );
}

/** Options of a process's lease. */
export interface LeaseOptions {
  /** A process silent this long is taken for dead, ms. @default DEFAULT_LEASE_MS */
  leaseMs?: number;
  /** The progress each heartbeat writes. @default nothing (zeros stay) */
  progress?: () => ProcessProgress;
  /** The clock, epoch ms. @default Date.now */
  now?: () => number;
  /** Whether a pid runs on this machine. @default pidAlive */
  isAlive?: (pid: number) => boolean;
}

/**
 * Registers a process on crawl `crawlId`: inserts its `processes` row (beat now) and sweeps the
 * crawl's dead processes once. Call {@link ProcessLease.start} for the heartbeat.
 * @throws a storage error (STORE_UNREACHABLE …), or the unique violation when `processId` is taken
 */
export async function register(store: PostgresStore, crawlId: number, identity: ProcessIdentity, options: LeaseOptions = {}): Promise<ProcessLease> {
  const lease = new ProcessLease(store, crawlId, identity, options);
  const nowMs = lease.now();
  try {
    await store.pool.query(`INSERT INTO processes (id, crawl_id, hostname, pid, role, started_at_ms, last_beat_ms, lease_ms) VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`, [
      identity.processId,
      crawlId,
      identity.hostname,
      identity.pid,
      identity.role,
      nowMs,
      lease.leaseMs,
    ]);
  } catch (error) {
    throw postgresError(error, store.url);
  }
  await lease.sweep();
  return lease;
}

/**
 * One process's lease on a crawl: a heartbeat every leaseMs / 5 renews it (with the process's
 * progress) and sweeps the crawl's dead processes; {@link close} ends the row and gives back what
 * the process still holds.
 */
export class ProcessLease {
  readonly leaseMs: number;
  readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private ended = false;
  /** The last heartbeat's failure (the server was unreachable), or null; the next beat tries again. */
  lastError: Error | null = null;

  constructor(
    private readonly store: PostgresStore,
    readonly crawlId: number,
    readonly identity: ProcessIdentity,
    private readonly options: LeaseOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.now = options.now ?? Date.now;
  }

  /** Starts the heartbeat (every leaseMs / 5; the timer does not keep Node running). */
  start(): void {
    if (this.timer || this.ended) return;
    this.timer = setInterval(() => void this.beat(), Math.max(1, Math.floor(this.leaseMs / 5)));
    this.timer.unref();
  }

  /** Stops the heartbeat without writing (a process dying: its lease runs out, others sweep it). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * One heartbeat: renews the lease with the progress (a row swept as lease-expired while this
   * process still ran is live again), then sweeps. Never throws (see {@link lastError}).
   */
  async beat(): Promise<void> {
    if (this.ended) return;
    if (this.beating) return this.beating;
    this.beating = (async () => {
      try {
        const progress = this.options.progress?.();
        await this.store.pool.query(
          // A process another one swept as lease-expired while it still ran (its event loop stalled past the lease)
          // comes back: live again, so the URLs it claims from now on are swept if it dies.
          `UPDATE processes SET last_beat_ms = $2, pages_done = coalesce($3, pages_done), pages_per_s = coalesce($4, pages_per_s), in_flight = coalesce($5, in_flight),
             ended_at_ms = CASE WHEN end_reason = 'lease-expired' THEN NULL ELSE ended_at_ms END, end_reason = NULLIF(end_reason, 'lease-expired')
           WHERE id = $1`,
          [this.identity.processId, this.now(), progress?.pagesDone ?? null, progress?.pagesPerS ?? null, progress?.inFlight ?? null],
        );
        await this.sweep();
        this.lastError = null;
      } catch (error) {
        this.lastError = postgresError(error, this.store.url);
      } finally {
        this.beating = null;
      }
    })();
    return this.beating;
  }

  /** Sweeps the crawl's dead processes (one transaction). @returns the ids it ended */
  async sweep(): Promise<string[]> {
    return inRetriedTransaction(this.store, (client) =>
      sweepDeadProcesses(client, this.crawlId, { nowMs: this.now(), selfId: this.identity.processId, hostname: this.identity.hostname, ...(this.options.isAlive ? { isAlive: this.options.isAlive } : {}) }),
    );
  }

  /**
   * Ends this process's row with `endReason` and its last progress (pages done), and gives back
   * the URLs it still holds in flight (pending again) and its slots, in one transaction; stops the
   * heartbeat. Safe to call twice.
   */
  async close(endReason: ProcessEndReason): Promise<void> {
    this.stop();
    if (this.ended) return;
    await this.beating;
    this.ended = true;
    await inRetriedTransaction(this.store, async (client) => {
      const progress = this.options.progress?.();
      await client.query(
        `UPDATE processes SET ended_at_ms = coalesce(ended_at_ms, $2), end_reason = coalesce(end_reason, $3), last_beat_ms = greatest(last_beat_ms, $2),
           pages_done = coalesce($4, pages_done), pages_per_s = coalesce($5, pages_per_s), in_flight = 0
         WHERE id = $1`,
        [this.identity.processId, this.now(), endReason, progress?.pagesDone ?? null, progress?.pagesPerS ?? null],
      );
      await giveBack(client, this.crawlId, [this.identity.processId]);
    });
  }
}

/** A process id unique over the store: `hostname:pid:8 hex`. */
export function newProcessId(): string {
  return `${os.hostname()}:${process.pid}:${Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0')}`;
}
