/** The Mercator frontier over SQLite (IIR 20.2.3): per-host back queues, a heap of next eligible times, the URL-seen test. */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from './database';
import { HostHeap } from '../../schedule/host-heap';
import { SeenCache } from '../../dedupe/seen-cache';
import { adaptiveDelayMs, politenessDelayMs } from '../../schedule/politeness';
import type { AddResult, ClaimedUrl, Disposition, FrontierCandidate, FrontierCounts, HostState, HostWaitReason, PolitenessPolicy, RefetchOutcome, UrlError } from '../ports';

export type { AddResult, ClaimedUrl, Disposition, FrontierCandidate, FrontierCounts, FrontierStore, HostState, HostWaitReason, PolitenessPolicy, RefetchOutcome } from '../ports';

interface HostQueue {
  host: string;
  /** What set `nextEligibleAtMs`. */
  delayReason: HostWaitReason;
  /** Pending URLs read ahead from SQLite, in priority order; at most REFILL_BATCH. */
  buffer: ClaimedUrl[];
  /** True when the last refill found no more pending rows for this host. */
  exhausted: boolean;
  inFlight: number;
  nextEligibleAtMs: number;
  inHeap: boolean;
}

/** Pending URLs read ahead per host: small, so memory stays flat with many hosts (10k hosts × 16). */
const REFILL_BATCH = 16;

/**
 * SQLite-backed Mercator frontier (IIR 20.2.3). Front-queue priority is (depth, discovery order):
 * breadth-first, first come first served. Back queues are one per host, read ahead in batches of 16
 * from the (crawl_id, host, state, priority, id) index; a min-heap of host eligibility times picks
 * the next host, so a giant host cannot starve others. A host gets at most `maxInFlightPerHost`
 * requests at once and then waits `clamp(max(minDelayMs, k × fetchMs, extraDelayMs), maxDelayMs)`.
 * Memory is O(hosts × 16), flat as the frontier grows.
 */
export class SqliteFrontier {
  private readonly hosts = new Map<string, HostQueue>();
  private readonly heap = new HostHeap();
  private readonly countsValue: FrontierCounts = { pending: 0, inFlight: 0, done: 0, error: 0, blocked: 0 };
  private readonly insertUrl: Statement;
  private readonly refill: Statement;
  private readonly markInFlight: Statement;
  private readonly markDone: Statement;
  private readonly markError: Statement;
  private readonly markBlocked: Statement;
  private readonly markPending: Statement;
  private readonly idByKey: Statement;
  private readonly stateById: Statement;
  private readonly markRefetch: Statement;
  private readonly seen = new SeenCache();
  /** Claimed URLs whose host slot was released before their outcome was recorded. */
  private readonly hostReleased = new Set<number>();

  constructor(
    private readonly db: WritableDB,
    private readonly crawlId: number,
    private readonly policy: PolitenessPolicy,
  ) {
    this.insertUrl = db.prepare(
      `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, redirect_hops)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?) ON CONFLICT (crawl_id, normalized_key) DO NOTHING`,
    );
    this.refill = db.prepare(
      `SELECT id, url, host, depth, attempts, redirect_hops AS redirectHops FROM urls WHERE crawl_id = ? AND host = ? AND state = 'pending' ORDER BY priority, id LIMIT ${REFILL_BATCH}`,
    );
    this.markInFlight = db.prepare(`UPDATE urls SET state = 'in_flight', attempts = attempts + 1, claimed_at_ms = ? WHERE id = ?`);
    this.markDone = db.prepare(`UPDATE urls SET state = 'done', fetched_at_ms = ?, http_status = ?, error_code = NULL, error_reason = NULL, committed_at_ms = ? WHERE id = ?`);
    this.markPending = db.prepare(`UPDATE urls SET state = 'pending', retry_reason = coalesce(?, retry_reason), committed_at_ms = ? WHERE id = ?`);
    this.idByKey = db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND normalized_key = ?`).pluck();
    this.stateById = db.prepare(`SELECT state, host FROM urls WHERE id = ? AND crawl_id = ?`);
    // Priority -1 puts it ahead of every discovered URL of its host (priorities are depths, 0 and up).
    this.markRefetch = db.prepare(`UPDATE urls SET state = 'pending', priority = -1, attempts = 0 WHERE id = ?`);
    this.markError = db.prepare(`UPDATE urls SET state = 'error', fetched_at_ms = ?, http_status = ?, error_code = ?, error_reason = ?, committed_at_ms = ? WHERE id = ?`);
    // fetched_at_ms stays null: a blocked URL was never requested.
    this.markBlocked = db.prepare(`UPDATE urls SET state = 'blocked', http_status = NULL, error_code = ?, error_reason = ?, robots_line = ?, committed_at_ms = ? WHERE id = ?`);
    this.load();
  }

  /** Reads counts and pending hosts; URLs left in_flight by a dead process go back to pending. */
  private load(): void {
    this.db.prepare(`UPDATE urls SET state = 'pending' WHERE crawl_id = ? AND state = 'in_flight'`).run(this.crawlId);
    const rows = this.db.prepare(`SELECT state, COUNT(*) AS n FROM urls WHERE crawl_id = ? GROUP BY state`).all(this.crawlId) as { state: string; n: number }[];
    for (const row of rows) {
      if (row.state === 'pending') this.countsValue.pending = row.n;
      else if (row.state === 'done') this.countsValue.done = row.n;
      else if (row.state === 'error') this.countsValue.error = row.n;
      else if (row.state === 'blocked') this.countsValue.blocked = row.n;
    }
    const pendingHosts = this.db.prepare(`SELECT DISTINCT host FROM urls WHERE crawl_id = ? AND state = 'pending'`).pluck().all(this.crawlId) as string[];
    for (const host of pendingHosts) this.wake(this.queueFor(host), 0);
  }

  add(candidates: readonly FrontierCandidate[], nowMs: number): AddResult {
    const ids: number[] = [];
    let added = 0;
    for (const c of candidates) {
      const known = this.seen.get(c.normalizedKey);
      if (known !== undefined) {
        ids.push(known);
        continue;
      }
      const info = this.insertUrl.run(this.crawlId, c.normalizedKey, c.normalized, c.url, c.host, c.registrableDomain, c.depth, c.depth, c.discoveredFrom, nowMs, c.redirectHops ?? 0);
      const id = info.changes === 0 ? (this.idByKey.get(this.crawlId, c.normalizedKey) as number) : Number(info.lastInsertRowid);
      this.seen.set(c.normalizedKey, id);
      ids.push(id);
      if (info.changes === 0) continue;
      added += 1;
      this.countsValue.pending += 1;
      const queue = this.queueFor(c.host);
      queue.exhausted = false;
      this.wake(queue, nowMs);
    }
    return { ids, added };
  }

  claimBatch(max: number, nowMs: number): ClaimedUrl[] {
    const claimed: ClaimedUrl[] = [];
    const postponed: { host: string; atMs: number }[] = [];
    while (claimed.length < max) {
      const top = this.heap.peek();
      if (!top || top.atMs > nowMs) break;
      this.heap.pop();
      const queue = this.hosts.get(top.host);
      if (!queue) continue;
      queue.inHeap = false;
      if (queue.nextEligibleAtMs > nowMs) {
        postponed.push({ host: top.host, atMs: queue.nextEligibleAtMs });
        continue;
      }
      if (queue.buffer.length === 0 && !queue.exhausted) {
        queue.buffer = this.refill.all(this.crawlId, top.host) as ClaimedUrl[];
        queue.exhausted = queue.buffer.length < REFILL_BATCH;
      }
      const next = queue.buffer.shift();
      if (!next) continue;
      this.markInFlight.run(nowMs, next.id);
      queue.inFlight += 1;
      this.countsValue.pending -= 1;
      this.countsValue.inFlight += 1;
      claimed.push(next);
      if (queue.inFlight < this.policy.maxInFlightPerHost) this.wake(queue, nowMs);
    }
    for (const entry of postponed) {
      const queue = this.hosts.get(entry.host);
      if (queue && !queue.inHeap) {
        queue.inHeap = true;
        this.heap.push(entry.host, entry.atMs);
      }
    }
    return claimed;
  }

  releaseHost(url: ClaimedUrl, disposition: Disposition): void {
    if (this.hostReleased.has(url.id)) return;
    this.hostReleased.add(url.id);
    this.freeHostSlot(url, disposition, true);
  }

  /** Records a claimed URL as done. @param committedAtMs epoch ms the outcome is written (default: the disposition's) */
  complete(url: ClaimedUrl, disposition: Disposition, committedAtMs = disposition.nowMs): void {
    this.markDone.run(disposition.nowMs, disposition.httpStatus ?? null, committedAtMs, url.id);
    this.countsValue.done += 1;
    this.release(url, disposition);
  }

  /** Records a claimed URL as failed with `error`. @param committedAtMs epoch ms the outcome is written (default: the disposition's) */
  fail(url: ClaimedUrl, error: UrlError, disposition: Disposition, committedAtMs = disposition.nowMs): void {
    this.markError.run(disposition.nowMs, disposition.httpStatus ?? null, error.code, error.message, committedAtMs, url.id);
    this.countsValue.error += 1;
    this.release(url, disposition);
  }

  /** Records a claimed URL as blocked by robots.txt (never requested). @param committedAtMs epoch ms the outcome is written (default: the disposition's) */
  block(url: ClaimedUrl, reason: UrlError, robotsLine: string | null, disposition: Disposition, committedAtMs = disposition.nowMs): void {
    this.markBlocked.run(reason.code, reason.message, robotsLine, committedAtMs, url.id);
    this.countsValue.blocked += 1;
    this.release(url, disposition);
  }

  /**
   * Puts a claimed URL back to pending; its host waits as the disposition says.
   * @param reason the error of the try that failed (kept as the URL's retry reason); absent for a stop
   * @param committedAtMs epoch ms the outcome is written (default: the disposition's)
   */
  requeue(url: ClaimedUrl, disposition: Disposition, reason?: UrlError, committedAtMs = disposition.nowMs): void {
    this.markPending.run(reason ? `${reason.code}: ${reason.message}` : null, committedAtMs, url.id);
    this.countsValue.pending += 1;
    const queue = this.queueFor(url.host);
    queue.exhausted = false;
    this.release(url, disposition);
  }

  refetch(urlId: number, nowMs: number): RefetchOutcome {
    const row = this.stateById.get(urlId, this.crawlId) as { state: string; host: string } | undefined;
    if (!row) return 'not-found';
    if (row.state === 'pending') return 'already-queued';
    if (row.state === 'in_flight') return 'in-flight';
    this.markRefetch.run(urlId);
    if (row.state === 'done') this.countsValue.done -= 1;
    else if (row.state === 'error') this.countsValue.error -= 1;
    else if (row.state === 'blocked') this.countsValue.blocked -= 1;
    this.countsValue.pending += 1;
    const queue = this.queueFor(row.host);
    // The read-ahead buffer was filled before this URL was pending: read again so it comes first.
    queue.buffer = [];
    queue.exhausted = false;
    this.wake(queue, nowMs);
    return 'queued';
  }

  nextEligibleAtMs(): number | null {
    return this.heap.peek()?.atMs ?? null;
  }

  counts(): FrontierCounts {
    return { ...this.countsValue };
  }

  /** Live back-queue state of every host seen by this run (memory: one entry per host). */
  hostStates(nowMs: number): HostState[] {
    const states: HostState[] = [];
    for (const queue of this.hosts.values()) {
      let waitingReason: HostWaitReason | null = null;
      if (queue.nextEligibleAtMs > nowMs) waitingReason = queue.delayReason;
      else if (queue.inFlight >= this.policy.maxInFlightPerHost) waitingReason = 'connection limit';
      states.push({ host: queue.host, inFlight: queue.inFlight, nextEligibleAtMs: queue.nextEligibleAtMs, waitingReason });
    }
    return states;
  }

  /** The politeness delay after a fetch that took `fetchMs`, with this frontier's policy (schedule/politeness.ts). */
  politenessDelayMs(fetchMs: number, extraDelayMs = 0): number {
    return politenessDelayMs(this.policy, fetchMs, extraDelayMs);
  }

  /** The claim is over: it leaves the in-flight count, and its host slot is freed unless it already was. */
  private release(url: ClaimedUrl, disposition: Disposition): void {
    this.countsValue.inFlight -= 1;
    this.freeHostSlot(url, disposition, !this.hostReleased.delete(url.id));
  }

  /**
   * Frees the host slot a claim holds (`slotHeld`), and makes the host wait as the disposition
   * says; a later disposition of the same claim can only push that time further out.
   */
  private freeHostSlot(url: ClaimedUrl, disposition: Disposition, slotHeld: boolean): void {
    const queue = this.queueFor(url.host);
    if (slotHeld) queue.inFlight -= 1;
    const eligibleAt = disposition.nowMs + this.politenessDelayMs(disposition.fetchMs, disposition.extraDelayMs);
    if (eligibleAt > queue.nextEligibleAtMs) {
      queue.nextEligibleAtMs = eligibleAt;
      const politeMs = adaptiveDelayMs(this.policy, disposition.fetchMs);
      queue.delayReason = (disposition.extraDelayMs ?? 0) > politeMs ? (disposition.extraDelayReason ?? 'robots Crawl-delay') : 'politeness delay';
    }
    this.wake(queue, queue.nextEligibleAtMs);
  }

  private queueFor(host: string): HostQueue {
    let queue = this.hosts.get(host);
    if (!queue) {
      queue = { host, delayReason: 'politeness delay', buffer: [], exhausted: false, inFlight: 0, nextEligibleAtMs: 0, inHeap: false };
      this.hosts.set(host, queue);
    }
    return queue;
  }

  /** Puts a host with work and a free slot into the heap at its eligibility time. */
  private wake(queue: HostQueue, atMs: number): void {
    if (queue.inHeap || queue.inFlight >= this.policy.maxInFlightPerHost) return;
    if (queue.buffer.length === 0 && queue.exhausted) return;
    queue.inHeap = true;
    this.heap.push(queue.host, Math.max(atMs, queue.nextEligibleAtMs));
  }
}
