/**
 * The URL frontier over PostgreSQL (issue 13; store/ports.ts FrontierStore), shared by every
 * process crawling one crawl. The back queues are the `urls` rows by host (partial index
 * `urls_pending_by_host`), the politeness state is the `hosts` table, crawl-wide: a claim locks
 * eligible host rows with `FOR UPDATE SKIP LOCKED` (two processes never wait on, nor both take,
 * one host), takes a window of each host's pending URLs (StormCrawler's SQL spout), and marks them
 * in flight under this process's lease (`urls.owner`). The synchronous reads (counts, host states,
 * the next eligible time) answer from a snapshot, since other processes change the frontier too:
 * the crawl-wide counts and soonest eligibility are read after each claim and commit (with the
 * rows of the hosts it touched) and every pollMs, every host's row every 5 polls.
 */
import type pg from 'pg';
import { politenessDelayMs } from '../../schedule/politeness';
import type { ClaimedUrl, Disposition, FrontierCounts, FrontierStore, HostSlot, HostState, HostWaitReason, PolitenessPolicy, RefetchOutcome, TrapStateChange } from '../ports';
import type { TrapState } from '../../../shared/types/traps';
import { hostRelease, writeHostReleases, type HostRelease, type HostReleaseQueue } from './host-releases';
import { postgresError, type PostgresStore } from './pool';
import { inRetriedTransaction } from './retry';

/** The default poll period of the snapshot (and the retry delay when other processes hold the work), ms. */
export const DEFAULT_POLL_MS = 200;

/**
 * Polls between two reads of every host's row (the Frontier view's host states): the other polls
 * read the counts and the soonest eligibility only (10,000 hosts: about 65 ms for all rows, 12 ms without).
 */
const FULL_READ_EVERY = 5;

/**
 * "Has the host a pending URL" is written `(SELECT true … LIMIT 1)`, not EXISTS: a LIMIT keeps it a
 * per-host probe of `urls_pending_by_host` walked in eligibility order, where EXISTS let the
 * planner semi-join every pending index entry of the crawl (dead ones from claims included) into
 * a hash: 50-70 ms and 100,000 buffer reads a snapshot mid-crawl at 5,000 URLs, against 0.4 ms.
 *
 * The claim, one statement: the eligible hosts of the crawl (eligible now, a free slot, a pending
 * URL), soonest first, locked with SKIP LOCKED (another process's claim takes other hosts); per
 * host a window of up to its free slots of pending URLs by (priority, id); hosts interleaved (the
 * first URL of every host, then the second …) and cut at `max`; the URLs marked in flight under
 * this process (attempts + 1, slot held) and each host's `in_flight` raised, `holder` set.
 * $1 crawl id, $2 now (epoch ms), $3 maxInFlightPerHost, $4 max, $5 process id.
 */
const CLAIM_SQL = `
WITH eligible AS (
  SELECT h.host, h.in_flight, h.next_eligible_at_ms FROM hosts h
  WHERE h.crawl_id = $1 AND h.next_eligible_at_ms <= $2 AND h.in_flight < $3
    AND (SELECT true FROM urls p WHERE p.crawl_id = h.crawl_id AND p.host = h.host AND p.state = 'pending' LIMIT 1)
  ORDER BY h.next_eligible_at_ms, h.host
  LIMIT $4
  FOR UPDATE SKIP LOCKED
), ranked AS (
  SELECT host, in_flight, row_number() OVER (ORDER BY next_eligible_at_ms, host) AS host_rank FROM eligible
), picked AS (
  SELECT w.id, r.host_rank, w.rank_in_host FROM ranked r
  CROSS JOIN LATERAL (
    SELECT u.id, row_number() OVER (ORDER BY u.priority, u.id) AS rank_in_host FROM urls u
    WHERE u.crawl_id = $1 AND u.host = r.host AND u.state = 'pending'
    ORDER BY u.priority, u.id
    LIMIT ($3 - r.in_flight)
  ) w
  ORDER BY w.rank_in_host, r.host_rank
  LIMIT $4
), claimed AS (
  UPDATE urls u SET state = 'in_flight', attempts = u.attempts + 1, claimed_at_ms = $2, owner = $5, slot_held = true
  FROM picked WHERE u.id = picked.id AND u.state = 'pending'
  RETURNING u.id, u.url, u.host, u.depth, u.attempts - 1 AS attempts, u.redirect_hops, picked.rank_in_host, picked.host_rank
), bumped AS (
  UPDATE hosts h SET in_flight = h.in_flight + c.n, holder = $5
  FROM (SELECT host, count(*) AS n FROM claimed GROUP BY host) c
  WHERE h.crawl_id = $1 AND h.host = c.host
  RETURNING h.host
)
SELECT id, url, host, depth, attempts, redirect_hops AS "redirectHops" FROM claimed ORDER BY rank_in_host, host_rank`;

/**
 * The snapshot, one statement: crawl-wide URL counts (summed `url_counts` shards), the soonest
 * eligibility of a host with a pending URL and a free slot (walking `hosts_by_eligibility` to the
 * first such host), and the state of the hosts `$3` names (every host of the crawl when null) with
 * whether each has a pending URL. $1 crawl id, $2 maxInFlightPerHost, $3 hosts or null.
 */
const SNAPSHOT_SQL = `
SELECT
  (SELECT coalesce(json_object_agg(state, n), '{}') FROM (SELECT state, sum(n) AS n FROM url_counts WHERE crawl_id = $1 GROUP BY state) c) AS counts,
  (SELECT h.next_eligible_at_ms FROM hosts h
   WHERE h.crawl_id = $1 AND h.in_flight < $2 AND (SELECT true FROM urls p WHERE p.crawl_id = h.crawl_id AND p.host = h.host AND p.state = 'pending' LIMIT 1)
   ORDER BY h.next_eligible_at_ms LIMIT 1) AS next_eligible_at_ms,
  (SELECT coalesce(json_agg(json_build_object('host', h.host, 'inFlight', h.in_flight, 'nextEligibleAtMs', h.next_eligible_at_ms, 'waitReason', h.wait_reason, 'holder', h.holder,
     'pending', EXISTS (SELECT 1 FROM urls p WHERE p.crawl_id = h.crawl_id AND p.host = h.host AND p.state = 'pending')) ORDER BY h.host), '[]')
   FROM hosts h WHERE h.crawl_id = $1 AND ($3::text[] IS NULL OR h.host = ANY($3::text[]))) AS hosts`;

/**
 * "Re-fetch now", one statement: a settled URL (done, error, blocked) goes back to pending first in
 * its host's queue (priority −1, attempts 0) and its host wakes at `now` (a longer wait is kept).
 * $1 crawl id, $2 URL id, $3 now (epoch ms).
 */
const REFETCH_SQL = `
WITH old AS (
  SELECT id, state, host FROM urls WHERE id = $2 AND crawl_id = $1 FOR UPDATE
), queued AS (
  UPDATE urls u SET state = 'pending', priority = -1, attempts = 0 FROM old
  WHERE u.id = old.id AND old.state IN ('done', 'error', 'blocked')
  RETURNING u.host
), woken AS (
  UPDATE hosts h SET next_eligible_at_ms = greatest(h.next_eligible_at_ms, $3) FROM queued WHERE h.crawl_id = $1 AND h.host = queued.host RETURNING h.host
)
SELECT old.state, old.host, EXISTS (SELECT 1 FROM queued) AS queued FROM old`;

/** A host slot for a sitemap: one statement that takes it only when the host is eligible and under its limit. $1 crawl, $2 host, $3 now, $4 process id, $5 limit. */
const TAKE_SLOT_SQL = `
WITH bumped AS (
  UPDATE hosts SET in_flight = in_flight + 1, holder = $4 WHERE crawl_id = $1 AND host = $2 AND next_eligible_at_ms <= $3 AND in_flight < $5 RETURNING host
), slot AS (
  INSERT INTO host_slots (crawl_id, host, owner, taken_at_ms) SELECT $1, host, $4, $3 FROM bumped RETURNING id
)
SELECT (SELECT id FROM slot) AS slot_id, (SELECT next_eligible_at_ms FROM hosts WHERE crawl_id = $1 AND host = $2) AS next_eligible_at_ms`;

/** A host as the snapshot holds it. */
interface HostRow {
  host: string;
  inFlight: number;
  nextEligibleAtMs: number;
  waitReason: HostWaitReason | null;
  holder: string | null;
  pending: boolean;
}

/** A sitemap slot reservation of one host (takeHostSlot): asked, taken (slot id), or refused (retry time). */
type Reservation = { state: 'asking' } | { state: 'taken'; slotId: number } | { state: 'refused'; retryAtMs: number };

/** Changes a trap's state in a transaction (PostgresTrapRows.changeState): the writer's trap rows. */
export type TrapStateChanger = (client: pg.PoolClient, trapId: number, state: TrapState, nowMs: number) => Promise<TrapStateChange | null>;

/** What a PostgreSQL frontier is built on. */
export interface PostgresFrontierOptions {
  /** This process's id (`processes.id`): the owner of what it claims. */
  processId: string;
  /** The releases this process queued (shared with its writer, which flushes them too). */
  releases: HostReleaseQueue;
  /** Trap state changes (the writer's PostgresTrapRows). */
  changeTrapState: TrapStateChanger;
  /** Snapshot poll period, ms. @default DEFAULT_POLL_MS */
  pollMs?: number;
}

/**
 * The frontier of crawl `crawlId` in a PostgreSQL store (see the file's header). Every claim,
 * re-fetch and trap change is one transaction; releases are queued and written in batches
 * ({@link HostReleaseQueue}); reads answer from the latest snapshot.
 */
export class PostgresFrontier implements FrontierStore {
  readonly pollMs: number;
  private countsValue: FrontierCounts = { pending: 0, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 };
  /** Hosts of the crawl by name: all as of the last full read, those this process touched since as of its last claim or commit. */
  private readonly hosts = new Map<string, HostRow>();
  /** The soonest eligibility of a host with pending work and a free slot, crawl-wide, as of the last read; null when none. */
  private soonestEligibleAtMs: number | null = null;
  /** URLs this process claimed and has not settled (id → claim): its in-flight work. */
  readonly mine = new Map<number, ClaimedUrl>();
  private readonly reservations = new Map<string, Reservation>();
  /** Sitemap slots taken and handed out, by host (returnHostSlot gives back the oldest). */
  private readonly slotsHeld = new Map<string, number[]>();
  private flushScheduled = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private closed = false;
  /** The last background failure (a flush or a poll), or null; the next claim or commit writes again. */
  lastError: Error | null = null;

  constructor(
    private readonly store: PostgresStore,
    readonly crawlId: number,
    private readonly policy: PolitenessPolicy,
    private readonly options: PostgresFrontierOptions,
  ) {
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  }

  /** Starts the snapshot's poll timer (it does not keep Node running). */
  startPolling(): void {
    if (this.pollTimer || this.closed) return;
    let polls = 0;
    this.pollTimer = setInterval(() => {
      // Counts and the soonest eligibility every poll; every host's row every FULL_READ_EVERY polls.
      polls += 1;
      (polls % FULL_READ_EVERY === 0 ? this.refresh() : this.refreshHosts([])).catch((error: unknown) => {
        this.lastError = postgresError(error, this.store.url);
      });
    }, this.pollMs);
    this.pollTimer.unref();
  }

  /** Stops the poll timer and background flushes (close, or a process dying). */
  stop(): void {
    this.closed = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  async claimBatch(max: number, nowMs: number): Promise<ClaimedUrl[]> {
    if (max <= 0) return [];
    // Epoch ms columns are bigint: a fractional now is rounded down (a host is not eligible early).
    const atMs = Math.floor(nowMs);
    const claimed = await this.withReleases((client) => client.query<ClaimedUrl>(CLAIM_SQL, [this.crawlId, atMs, this.policy.maxInFlightPerHost, max, this.options.processId]));
    for (const url of claimed.rows) this.mine.set(url.id, url);
    await this.refreshHosts(claimed.rows.map((url) => url.host));
    return claimed.rows;
  }

  releaseHost(url: ClaimedUrl, disposition: Disposition): void {
    if (this.options.releases.add(hostRelease(this.policy, url.host, disposition, { urlId: url.id, slotId: null }))) this.scheduleFlush();
  }

  async refetch(urlId: number, nowMs: number): Promise<RefetchOutcome> {
    const { rows } = await this.query<{ state: string; host: string; queued: boolean }>(REFETCH_SQL, [this.crawlId, urlId, Math.floor(nowMs)]);
    const row = rows[0];
    let outcome: RefetchOutcome;
    if (!row) outcome = 'not-found';
    else if (row.queued) outcome = 'queued';
    else outcome = row.state === 'pending' ? 'already-queued' : row.state === 'held' ? 'held' : 'in-flight';
    if (outcome === 'queued') await this.refreshHosts([row!.host]);
    return outcome;
  }

  /**
   * A slot of `host` for a sitemap fetch, answered from this process's reservation: the first
   * call asks PostgreSQL for one (taken only when the host is eligible and under its limit,
   * crawl-wide) and answers not yet, retry at now + pollMs; a later call answers taken once it was
   * granted, or the host's next eligible time when it was refused (and asks again).
   */
  takeHostSlot(host: string, nowMs: number): HostSlot {
    const reservation = this.reservations.get(host);
    if (reservation?.state === 'taken') {
      this.reservations.delete(host);
      const held = this.slotsHeld.get(host) ?? [];
      held.push(reservation.slotId);
      this.slotsHeld.set(host, held);
      return { taken: true };
    }
    if (reservation?.state === 'asking') return { taken: false, retryAtMs: nowMs + this.pollMs };
    this.reservations.set(host, { state: 'asking' });
    void this.reserve(host, nowMs);
    return { taken: false, retryAtMs: Math.max(nowMs + this.pollMs, reservation?.state === 'refused' ? reservation.retryAtMs : 0) };
  }

  returnHostSlot(host: string, disposition: Disposition): void {
    const held = this.slotsHeld.get(host);
    const slotId = held?.shift();
    if (slotId === undefined) return;
    if (held!.length === 0) this.slotsHeld.delete(host);
    this.options.releases.add(hostRelease(this.policy, host, disposition, { urlId: null, slotId }));
    this.scheduleFlush();
  }

  /**
   * The soonest time a host with pending work and a free slot may be fetched from (epoch ms, read
   * crawl-wide with each snapshot); when there is none but the crawl still has pending or in-flight URLs (other
   * processes' fetches free slots and add URLs), now + pollMs; null only when the crawl has no
   * pending and no in-flight URL.
   */
  nextEligibleAtMs(): number | null {
    if (this.soonestEligibleAtMs !== null) return this.soonestEligibleAtMs;
    return this.countsValue.pending > 0 || this.countsValue.inFlight > 0 ? Date.now() + this.pollMs : null;
  }

  /** The crawl's URLs by state, every process's (from the snapshot). */
  counts(): FrontierCounts {
    return { ...this.countsValue };
  }

  /**
   * Every host of the crawl with its crawl-wide slots, eligibility and the process that last
   * claimed it, in host order: the hosts this process claimed from or committed to as of that
   * claim or commit, the others as of the last full poll (at most 5 × pollMs old).
   */
  hostStates(nowMs: number): HostState[] {
    const byName = [...this.hosts.values()].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
    return byName.map((host) => {
      let waitingReason: HostWaitReason | null = null;
      if (host.nextEligibleAtMs > nowMs) waitingReason = host.waitReason ?? 'politeness delay';
      else if (host.inFlight >= this.policy.maxInFlightPerHost) waitingReason = 'connection limit';
      return { host: host.host, inFlight: host.inFlight, nextEligibleAtMs: host.nextEligibleAtMs, waitingReason, holder: host.holder };
    });
  }

  async setTrapState(trapId: number, state: TrapState, nowMs: number): Promise<TrapStateChange | null> {
    const change = await inRetriedTransaction(this.store, async (client) => {
      const result = await this.options.changeTrapState(client, trapId, state, Math.round(nowMs));
      // Released URLs are pending again: their host wakes at nowMs (a longer wait is kept).
      if (result !== null && result.released > 0) {
        await client.query(`UPDATE hosts SET next_eligible_at_ms = greatest(next_eligible_at_ms, $3) WHERE crawl_id = $1 AND host = $2`, [this.crawlId, result.host, Math.floor(nowMs)]);
      }
      return result;
    });
    await this.refreshHosts(change === null ? [] : [change.host]);
    return change;
  }

  politenessDelayMs(fetchMs: number, extraDelayMs = 0): number {
    return politenessDelayMs(this.policy, fetchMs, extraDelayMs);
  }

  /**
   * Reads the whole snapshot again (counts, the soonest eligibility, every host): one round trip,
   * started after any read already under way (reads are applied in order, and a caller never gets
   * a snapshot read before its call). The poll timer calls it every 5 polls.
   * @throws a storage error when the read fails
   */
  async refresh(): Promise<void> {
    return this.read(null);
  }

  /**
   * Reads the counts and the soonest eligibility again, and the rows of `hosts` only (those a claim
   * or commit of this process touched): with many hosts, far cheaper than {@link refresh}.
   * @throws a storage error when the read fails
   */
  async refreshHosts(hosts: readonly string[]): Promise<void> {
    return this.read([...new Set(hosts)]);
  }

  private async read(hosts: string[] | null): Promise<void> {
    const read = (this.refreshing ?? Promise.resolve()).catch(() => undefined).then(() => this.readSnapshot(hosts));
    this.refreshing = read;
    try {
      await read;
    } finally {
      if (this.refreshing === read) this.refreshing = null;
    }
  }

  private async readSnapshot(hosts: string[] | null): Promise<void> {
    const { rows } = await this.query<{ counts: Record<string, number>; next_eligible_at_ms: number | null; hosts: HostRow[] }>(SNAPSHOT_SQL, [
      this.crawlId,
      this.policy.maxInFlightPerHost,
      hosts,
    ]);
    const row = rows[0]!;
    const counts = row.counts;
    this.countsValue = {
      pending: Number(counts.pending ?? 0),
      inFlight: Number(counts.in_flight ?? 0),
      done: Number(counts.done ?? 0),
      error: Number(counts.error ?? 0),
      blocked: Number(counts.blocked ?? 0),
      held: Number(counts.held ?? 0),
    };
    this.soonestEligibleAtMs = row.next_eligible_at_ms;
    if (hosts === null) this.hosts.clear();
    for (const host of row.hosts) this.hosts.set(host.host, host);
  }

  /**
   * Runs `work` in a retried transaction that first writes the queued releases (so it sees the
   * slots this process freed); a failed transaction queues them again.
   */
  async withReleases<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const releases = this.options.releases.take();
    try {
      // A claim runs beside this process's write lane (retry.ts): it takes host rows with SKIP LOCKED
      // and waits on no row a write of this process holds while waiting on it.
      return await inRetriedTransaction(
        this.store,
        async (client) => {
          await writeHostReleases(client, this.crawlId, releases);
          return work(client);
        },
        { lane: false },
      );
    } catch (error) {
      this.options.releases.putBack(releases);
      throw error;
    }
  }

  /** Writes the queued releases now (one statement). @throws a storage error; the releases stay queued */
  async flushReleases(): Promise<void> {
    const releases: HostRelease[] = this.options.releases.take();
    if (releases.length === 0) return;
    try {
      await inRetriedTransaction(this.store, (client) => writeHostReleases(client, this.crawlId, releases));
    } catch (error) {
      this.options.releases.putBack(releases);
      throw postgresError(error, this.store.url);
    }
  }

  /** The outcomes of these claims are committed: they are no longer this process's in-flight work. */
  settled(urlIds: readonly number[]): void {
    for (const id of urlIds) this.mine.delete(id);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushReleases().catch((error: unknown) => {
        this.lastError = error instanceof Error ? error : new Error(String(error));
      });
    });
  }

  private async reserve(host: string, nowMs: number): Promise<void> {
    try {
      const slot = await inRetriedTransaction(this.store, async (client) => {
        await client.query(`INSERT INTO hosts (crawl_id, host) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [this.crawlId, host]);
        const { rows } = await client.query<{ slot_id: number | null; next_eligible_at_ms: number }>(TAKE_SLOT_SQL, [this.crawlId, host, Math.floor(nowMs), this.options.processId, this.policy.maxInFlightPerHost]);
        return rows[0]!;
      });
      this.reservations.set(host, slot.slot_id !== null ? { state: 'taken', slotId: slot.slot_id } : { state: 'refused', retryAtMs: Math.max(slot.next_eligible_at_ms, nowMs + this.pollMs) });
    } catch (error) {
      this.lastError = postgresError(error, this.store.url);
      this.reservations.set(host, { state: 'refused', retryAtMs: nowMs + this.pollMs });
    }
  }

  private async query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[] }> {
    try {
      return await this.store.pool.query<R>(sql, params);
    } catch (error) {
      throw postgresError(error, this.store.url);
    }
  }
}
