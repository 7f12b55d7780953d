/** The Mercator frontier over SQLite (IIR 20.2.3): per-host back queues, a heap of next eligible times, the URL-seen test. */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from './database';
import { FrontierRows, type RefetchRow } from './frontier-rows';
import { HostHeap } from '../../schedule/host-heap';
import { adaptiveDelayMs, politenessDelayMs } from '../../schedule/politeness';
import type { AddResult, ClaimedUrl, Disposition, FrontierCandidate, FrontierCounts, HeldUrl, HostSlot, HostState, HostWaitReason, PolitenessPolicy, RefetchOutcome, UrlError } from '../ports';

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
  /** Claimed URLs of this host whose outcome is not yet written (a refill may read them as pending). */
  unsettled: number;
  nextEligibleAtMs: number;
  inHeap: boolean;
}

/** Where a claimed URL's outcome leaves it: `pending` is a requeue. */
export type SettledState = 'done' | 'error' | 'blocked' | 'pending';

/** Pending URLs read ahead per host: small, so memory stays flat with many hosts (10k hosts × 16). */
const REFILL_BATCH = 16;

/**
 * SQLite-backed Mercator frontier (IIR 20.2.3). Front-queue priority is (depth, discovery order):
 * breadth-first, first come first served. Back queues are one per host, read ahead in batches of 16
 * from the (crawl_id, host, state, priority, id) index; a min-heap of host eligibility times picks
 * the next host, so a giant host cannot starve others. A host gets at most `maxInFlightPerHost`
 * requests at once and then waits `clamp(max(minDelayMs, k × fetchMs, extraDelayMs), maxDelayMs)`.
 * Memory is O(hosts × 16), flat as the frontier grows.
 *
 * The back queues, counts and host slots live here, on the scheduler's thread; the rows are
 * FrontierRows' (frontier-rows.ts). Constructed with `rows`, each method writes its rows at once
 * (one connection, one thread). Without, the caller writes the rows elsewhere (the store-writer
 * thread, crawl-stores.ts) and tells the queues with the `note*` methods; claimed URLs stay out of
 * refills until {@link settled} says their outcome is written.
 */
export class SqliteFrontier {
  private readonly hosts = new Map<string, HostQueue>();
  private readonly heap = new HostHeap();
  private readonly countsValue: FrontierCounts = { pending: 0, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 };
  private readonly refill: Statement;
  /** Claimed URLs whose outcome is not yet written (id → host): a refill may still read them as pending. */
  private readonly unsettled = new Map<number, string>();
  /** Claimed URLs whose host slot was released before their outcome was recorded. */
  private readonly hostReleased = new Set<number>();
  /** Requeued URLs whose pending row is not yet written: their host reads again once it is. */
  private readonly requeuedHosts = new Map<number, string>();

  /**
   * @param db the connection refills read from
   * @param rows the crawl's URL rows on the same connection, written by each method; omit when
   *   another thread writes them (then call the `note*` methods and {@link settled})
   */
  constructor(
    db: WritableDB,
    private readonly crawlId: number,
    private readonly policy: PolitenessPolicy,
    private readonly rows: FrontierRows | null = new FrontierRows(db, crawlId),
  ) {
    this.refill = db.prepare(
      `SELECT id, url, host, depth, attempts, redirect_hops AS redirectHops FROM urls WHERE crawl_id = ? AND host = ? AND state = 'pending' ORDER BY priority, id LIMIT ?`,
    );
    // In flight left by a dead process: pending again (with `rows`; else the writer did it before this opened).
    this.rows?.resetInFlight();
    this.load(db);
  }

  /** Reads counts and pending hosts. */
  private load(db: WritableDB): void {
    const rows = db.prepare(`SELECT state, COUNT(*) AS n FROM urls WHERE crawl_id = ? GROUP BY state`).all(this.crawlId) as { state: string; n: number }[];
    for (const row of rows) {
      if (row.state === 'pending' || row.state === 'in_flight') this.countsValue.pending += row.n;
      else if (row.state === 'done') this.countsValue.done = row.n;
      else if (row.state === 'error') this.countsValue.error = row.n;
      else if (row.state === 'blocked') this.countsValue.blocked = row.n;
      else if (row.state === 'held') this.countsValue.held = row.n;
    }
    const pendingHosts = db.prepare(`SELECT DISTINCT host FROM urls WHERE crawl_id = ? AND state = 'pending'`).pluck().all(this.crawlId) as string[];
    for (const host of pendingHosts) this.wake(this.queueFor(host), 0);
  }

  /** The URL-seen test and the queues (with `rows`): new candidates become pending. */
  add(candidates: readonly FrontierCandidate[], nowMs: number): AddResult {
    const result = this.writer().insert(candidates, nowMs);
    this.noteAdded(result.addedHosts, nowMs);
    return { ids: result.ids, added: result.addedHosts.length };
  }

  /** Claims up to `max` URLs (with `rows`: marked in flight at once). */
  claimBatch(max: number, nowMs: number): ClaimedUrl[] {
    const claimed = this.claimQueued(max, nowMs);
    this.writer().claimed(
      claimed.map((url) => url.id),
      nowMs,
    );
    return claimed;
  }

  /**
   * Takes up to `max` URLs from the back queues of eligible hosts (host-fair: one per host per heap
   * pop) without writing; the caller marks them in flight.
   */
  claimQueued(max: number, nowMs: number): ClaimedUrl[] {
    const claimed: ClaimedUrl[] = [];
    const postponed: { host: string; atMs: number }[] = [];
    while (claimed.length < max) {
      const top = this.heap.peek();
      if (!top || top.atMs > nowMs) break;
      this.heap.pop();
      const queue = this.hosts.get(top.host);
      if (!queue) continue;
      queue.inHeap = false;
      // A slot taken since the host was queued (a sitemap fetch): it is woken again when one frees.
      if (queue.inFlight >= this.policy.maxInFlightPerHost) continue;
      if (queue.nextEligibleAtMs > nowMs) {
        postponed.push({ host: top.host, atMs: queue.nextEligibleAtMs });
        continue;
      }
      if (queue.buffer.length === 0 && !queue.exhausted) {
        // Read past this host's unsettled claims too: their rows may still say pending.
        const limit = REFILL_BATCH + queue.unsettled;
        const read = this.refill.all(this.crawlId, top.host, limit) as ClaimedUrl[];
        queue.exhausted = read.length < limit;
        queue.buffer = queue.unsettled === 0 ? read : read.filter((url) => !this.unsettled.has(url.id));
      }
      const next = queue.buffer.shift();
      if (!next) continue;
      this.unsettled.set(next.id, queue.host);
      queue.unsettled += 1;
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
    this.freeHostSlot(url.host, disposition, true);
  }

  /** A slot of `host` for a fetch outside the frontier (store/ports.ts FrontierStore.takeHostSlot). */
  takeHostSlot(host: string, nowMs: number): HostSlot {
    const queue = this.queueFor(host);
    if (queue.inFlight >= this.policy.maxInFlightPerHost) return { taken: false, retryAtMs: null };
    if (queue.nextEligibleAtMs > nowMs) return { taken: false, retryAtMs: queue.nextEligibleAtMs };
    queue.inFlight += 1;
    return { taken: true };
  }

  /** Gives back a slot {@link takeHostSlot} took; the host waits as `disposition` says. */
  returnHostSlot(host: string, disposition: Disposition): void {
    this.freeHostSlot(host, disposition, true);
  }

  /** Records a claimed URL as done. @param committedAtMs epoch ms the outcome is written (default: the disposition's) */
  complete(url: ClaimedUrl, disposition: Disposition, committedAtMs = disposition.nowMs): void {
    this.writer().done(url, disposition, committedAtMs);
    this.noteSettled('done', url, disposition);
    this.settled([url.id]);
  }

  /** Records a claimed URL as failed with `error`. @param committedAtMs epoch ms the outcome is written (default: the disposition's) */
  fail(url: ClaimedUrl, error: UrlError, disposition: Disposition, committedAtMs = disposition.nowMs): void {
    this.writer().failed(url, error, disposition, committedAtMs);
    this.noteSettled('error', url, disposition);
    this.settled([url.id]);
  }

  /** Records a claimed URL as blocked by robots.txt (never requested). @param committedAtMs epoch ms the outcome is written (default: the disposition's) */
  block(url: ClaimedUrl, reason: UrlError, robotsLine: string | null, disposition: Disposition, committedAtMs = disposition.nowMs): void {
    this.writer().blocked(url, reason, robotsLine, committedAtMs);
    this.noteSettled('blocked', url, disposition);
    this.settled([url.id]);
  }

  /**
   * Puts a claimed URL back to pending; its host waits as the disposition says.
   * @param reason the error of the try that failed (kept as the URL's retry reason); absent for a stop
   * @param committedAtMs epoch ms the outcome is written (default: the disposition's)
   */
  requeue(url: ClaimedUrl, disposition: Disposition, reason?: UrlError, committedAtMs = disposition.nowMs): void {
    this.writer().requeued(url, reason, committedAtMs);
    this.noteSettled('pending', url, disposition);
    this.settled([url.id]);
  }

  refetch(urlId: number, nowMs: number): RefetchOutcome {
    return this.noteRefetched(this.writer().refetch(urlId), nowMs);
  }

  /** New URLs passed the URL-seen test (one host per new URL): their hosts have work. */
  noteAdded(addedHosts: readonly string[], nowMs: number): void {
    for (const host of addedHosts) {
      this.countsValue.pending += 1;
      const queue = this.queueFor(host);
      queue.exhausted = false;
      this.wake(queue, nowMs);
    }
  }

  /**
   * A claimed URL's outcome, for the counts and its host slot: `pending` is a requeue (the host's
   * queue reads again). The rows are written by the caller.
   */
  noteSettled(state: SettledState, url: ClaimedUrl, disposition: Disposition): void {
    if (state === 'pending') {
      this.countsValue.pending += 1;
      this.queueFor(url.host).exhausted = false;
      this.requeuedHosts.set(url.id, url.host);
    } else this.countsValue[state] += 1;
    this.release(url, disposition);
  }

  /**
   * Crawler traps (issue 12) took URLs out of the queues: `added` new URLs were stored held, and
   * `fromPending` pending URLs became held. Those still in a host's read-ahead leave it, so a held
   * URL is never claimed; one claimed before its hold landed (its claim was written after) is
   * fetched as claimed.
   */
  noteHeld(added: number, fromPending: readonly HeldUrl[]): void {
    this.countsValue.held += added;
    if (fromPending.length === 0) return;
    const byHost = new Map<string, Set<number>>();
    for (const url of fromPending) {
      if (this.unsettled.has(url.id)) continue;
      this.countsValue.pending -= 1;
      this.countsValue.held += 1;
      let ids = byHost.get(url.host);
      if (ids === undefined) byHost.set(url.host, (ids = new Set()));
      ids.add(url.id);
    }
    for (const [host, ids] of byHost) {
      const queue = this.hosts.get(host);
      if (queue) queue.buffer = queue.buffer.filter((url) => !ids.has(url.id));
    }
  }

  /** A released trap put `count` held URLs of `host` back to pending: the host's queue reads again and wakes. */
  noteReleased(host: string, count: number, nowMs: number): void {
    if (count === 0) return;
    this.countsValue.held -= count;
    this.countsValue.pending += count;
    const queue = this.queueFor(host);
    queue.buffer = [];
    queue.exhausted = false;
    this.wake(queue, nowMs);
  }

  /** A redirect first counted done was failed as a loop by the writer. */
  noteRedirectLoop(): void {
    this.countsValue.done -= 1;
    this.countsValue.error += 1;
  }

  /** The outcomes of these claimed URLs are written: refills may read them again (a requeued one's host at once). */
  settled(urlIds: readonly number[], nowMs = 0): void {
    for (const id of urlIds) {
      const claimedHost = this.unsettled.get(id);
      if (claimedHost !== undefined) {
        this.unsettled.delete(id);
        this.queueFor(claimedHost).unsettled -= 1;
      }
      const host = this.requeuedHosts.get(id);
      if (host === undefined) continue;
      this.requeuedHosts.delete(id);
      const queue = this.queueFor(host);
      queue.exhausted = false;
      this.wake(queue, nowMs);
    }
  }

  /** "Re-fetch now" as the rows answered it: counts and the host's queue follow. */
  noteRefetched(row: RefetchRow, nowMs: number): RefetchOutcome {
    if (row === null) return 'not-found';
    if (!row.queued) return row.previousState === 'pending' ? 'already-queued' : row.previousState === 'held' ? 'held' : 'in-flight';
    if (row.previousState === 'done') this.countsValue.done -= 1;
    else if (row.previousState === 'error') this.countsValue.error -= 1;
    else if (row.previousState === 'blocked') this.countsValue.blocked -= 1;
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
    this.freeHostSlot(url.host, disposition, !this.hostReleased.delete(url.id));
  }

  /**
   * Frees the host slot a claim holds (`slotHeld`), and makes the host wait as the disposition
   * says; a later disposition of the same claim can only push that time further out.
   */
  private freeHostSlot(host: string, disposition: Disposition, slotHeld: boolean): void {
    const queue = this.queueFor(host);
    if (slotHeld) queue.inFlight -= 1;
    const eligibleAt = disposition.nowMs + this.politenessDelayMs(disposition.fetchMs, disposition.extraDelayMs);
    if (eligibleAt > queue.nextEligibleAtMs) {
      queue.nextEligibleAtMs = eligibleAt;
      const politeMs = adaptiveDelayMs(this.policy, disposition.fetchMs);
      queue.delayReason = (disposition.extraDelayMs ?? 0) > politeMs ? (disposition.extraDelayReason ?? 'robots Crawl-delay') : 'politeness delay';
    }
    this.wake(queue, queue.nextEligibleAtMs);
  }

  private writer(): FrontierRows {
    if (!this.rows) throw new Error('This frontier writes no rows (another thread does): use the note* methods');
    return this.rows;
  }

  private queueFor(host: string): HostQueue {
    let queue = this.hosts.get(host);
    if (!queue) {
      queue = { host, delayReason: 'politeness delay', buffer: [], exhausted: false, inFlight: 0, unsettled: 0, nextEligibleAtMs: 0, inHeap: false };
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
