/**
 * The scheduler: one scheduling step at a time (never two claims at once), claiming eligible URLs
 * from the frontier in batches, passing them through the robots gate, dispatching them to the
 * worker pool within its free slots and the page limit, and waking when the next host is eligible
 * (IIR 20.2.3: the back-queue heap decides who is next, the politeness delay when). Where the
 * store allows it (FrontierStore.claimAheadPerSlot), it claims URLs ahead of free slots, and a
 * slot freed while a step waits on a claim's write is filled from them at once.
 */
import type { CrawlStatus } from '../../shared/types/crawl';
import type { ClaimedUrl, FrontierStore, UrlOutcome } from '../store/ports';
import type { FetchTask } from '../worker/worker-pool';
import type { ReadyUrl, RobotsGate } from './robots-gate';

/**
 * Share of the URLs claimable ahead (FrontierStore.claimAheadPerSlot × slots) that must be gone
 * from hand before the scheduler claims ahead again with no slot free. Each claim is a transaction
 * on the store-writer thread; topping up at every freed slot took one URL or a few at a time
 * (20,200-page synthetic crawl: 6,681-8,563 claims for 22,200 URLs, 2.0-2.1 s of the writer's
 * time), refilling from half empty takes about eight (1,863-2,028 claims, 1.3-1.4 s). A freed slot
 * is still filled at once from the URLs in hand; a slot with none in hand claims at once.
 */
export const CLAIM_AHEAD_REFILL_SHARE = 0.5;

/** What the scheduler needs of the worker pool (WorkerPool; a fake in tests). */
export interface TaskPool {
  /** Fetch slots free now. */
  freeSlots(): number;
  /** Tasks dispatched and not answered yet. */
  inFlight(): number;
  /** @returns the task's sequence number */
  dispatch(task: FetchTask): number;
}

export interface SchedulerOptions {
  frontier: FrontierStore;
  gate: RobotsGate;
  /** The result committer: results waiting, committing them (their links may be the next work), and outcomes decided here. */
  committer: { readonly pending: number; readonly backlogged: boolean; commit(): Promise<void>; addOutcome(outcome: UrlOutcome): void };
  /** Stop after this many fetched or failed pages; 0: no limit. */
  maxPages: number;
  /** Epoch ms. */
  now: () => number;
  /** False once the run is over (finished, finishing or aborted): nothing is scheduled then. */
  running(): boolean;
  /** The status a stop asked for, or null while the crawl goes on. */
  stopping(): CrawlStatus | null;
  /** Nothing is in flight and nothing more will be claimed: end the run as `status`. */
  finish(status: CrawlStatus): void;
  /** A store write failed: the run cannot go on. */
  abort(error: Error): void;
  /**
   * Fetches that are not the frontier's (sitemaps: engine/sitemaps/sitemap-discovery.ts), given
   * slots before claims; while `busy()` the crawl does not finish for want of pending URLs.
   */
  sideWork?: SideWork;
}

/** Work the scheduler runs beside the frontier's claims (SitemapDiscovery). */
export interface SideWork {
  /** Dispatches what is eligible within `room` slots. @returns slots used */
  dispatch(room: number, nowMs: number): number;
  /** Work is waiting or in flight. */
  busy(): boolean;
  /** When waiting work next becomes eligible (epoch ms), or null when only a result can wake it. */
  nextWakeAtMs(): number | null;
}

export class Scheduler {
  private pool: TaskPool | null = null;
  /** Claimed URLs in flight, by URL id. */
  private readonly inFlight = new Map<number, ClaimedUrl>();
  /** Claimed URLs cleared by robots, waiting for a slot or their host's politeness delay. */
  private readonly ready: ReadyUrl[] = [];
  /** Claimed ahead with no slot free, whose origin's robots.txt fetch (RobotsGate.hold) waits for one. */
  private readonly robotsWaiting: ClaimedUrl[] = [];
  private wakeTimer: NodeJS.Timeout | null = null;
  /** A scheduling step is under way (it may await the store). */
  private pumping = false;
  /** pump() was called during a step: run another one after it. */
  private again = false;

  constructor(private readonly options: SchedulerOptions) {}

  /** Starts scheduling onto `pool`. */
  start(pool: TaskPool): void {
    this.pool = pool;
    this.pump();
  }

  /** Stops waking up (the run is over). */
  cancel(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
  }

  /** A page fetch ended: its claim, or undefined when it is not this run's. */
  takeInFlight(urlId: number): ClaimedUrl | undefined {
    const url = this.inFlight.get(urlId);
    this.inFlight.delete(urlId);
    return url;
  }

  /** URLs the robots gate cleared after their robots.txt arrived. */
  addReady(urls: readonly ReadyUrl[]): void {
    this.ready.push(...urls);
  }

  /**
   * One scheduling step, or another one after the step under way. Every store call outside the
   * committer (claims) happens here: a failure takes the same path as a failed commit (abort),
   * never an unhandled rejection.
   */
  pump(): void {
    if (this.pumping) {
      this.again = true;
      // The step may be waiting on a claim's write: URLs claimed ahead fill freed slots meanwhile.
      if (this.pool && this.options.running() && !this.options.stopping()) this.dispatchReady(this.pool, this.pool.freeSlots());
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.again = false;
          await this.schedule();
        } while (this.again);
      } catch (error) {
        this.options.abort(error instanceof Error ? error : new Error(String(error)));
      } finally {
        this.pumping = false;
      }
    })();
  }

  private async schedule(): Promise<void> {
    const pool = this.pool;
    if (!pool || !this.options.running()) return;
    this.cancel();
    const { frontier, committer, maxPages } = this.options;
    const stopping = this.options.stopping();
    if (stopping) await this.requeueWaiting();
    // The store is behind: let it catch up before fetching more (memory stays bounded).
    if (committer.backlogged) await committer.commit();
    if (!this.options.running()) return;
    let room = stopping ? 0 : pool.freeSlots();
    room -= this.dispatchReady(pool, room);
    room -= this.dispatchRobotsWaiting(room);
    const side = this.options.sideWork;
    if (side && room > 0) room -= side.dispatch(room, this.options.now());
    if (maxPages > 0) {
      const counts = frontier.counts();
      room = Math.min(room, maxPages - (counts.done + counts.error + counts.inFlight));
    }
    // With no slot free, the URLs claimed ahead may still be short (a slot is filled from them).
    if (room > 0 || this.claimAheadDue(pool)) {
      let dispatched = await this.claim(pool, room);
      // Idle slots and results waiting to be committed: commit now, their links may be the work.
      if (dispatched < room && committer.pending > 0) {
        await committer.commit();
        dispatched += await this.claim(pool, room - dispatched);
      }
    }
    // Nothing is being fetched: results waiting for their commit have nothing to wait for (a
    // page limit reached, the last pages of a crawl).
    if (committer.pending > 0 && pool.inFlight() === 0) await committer.commit();
    if (!this.options.running()) return;
    const counts = frontier.counts();
    if (counts.inFlight === 0) {
      const limitReached = maxPages > 0 && counts.done + counts.error >= maxPages;
      // Sitemaps still to read may bring URLs: the crawl is not over while they are.
      const sideBusy = side?.busy() === true;
      if (stopping || (counts.pending === 0 && !sideBusy) || limitReached) {
        // A limit leaves work in the frontier: that crawl is stopped (resumable), not finished.
        this.options.finish(stopping ?? (counts.pending === 0 && !sideBusy ? 'finished' : 'stopped'));
        return;
      }
    }
    if (stopping || pool.freeSlots() === 0) return;
    const wakeAt = Math.min(frontier.nextEligibleAtMs() ?? Infinity, side?.nextWakeAtMs() ?? Infinity, ...this.ready.map((entry) => entry.atMs));
    if (wakeAt !== Infinity) this.wakeTimer = setTimeout(() => this.pump(), Math.max(1, wakeAt - this.options.now()));
  }

  /** Dispatches robots-cleared URLs whose politeness wait is over. @returns slots used */
  private dispatchReady(pool: TaskPool, room: number): number {
    const now = this.options.now();
    let used = 0;
    for (let index = 0; index < this.ready.length && used < room; ) {
      const entry = this.ready[index]!;
      if (entry.atMs > now) {
        index += 1;
        continue;
      }
      this.ready.splice(index, 1);
      this.dispatchPage(pool, entry.url);
      used += 1;
    }
    return used;
  }

  /** Holds URLs claimed ahead in the robots gate, their robots.txt fetch dispatched, within `room`. @returns slots used */
  private dispatchRobotsWaiting(room: number): number {
    let used = 0;
    while (used < room && this.robotsWaiting.length > 0) used += this.options.gate.hold(this.robotsWaiting.shift()!);
    return used;
  }

  /**
   * URLs the scheduler may hold claimed beyond the free slots (FrontierStore.claimAheadPerSlot per
   * slot): none under a page limit (a URL claimed ahead might be one too many), while the committer
   * is backlogged (fetching is ahead of the store) or when stopping.
   */
  private claimAheadMost(pool: TaskPool): number {
    const perSlot = this.options.frontier.claimAheadPerSlot ?? 0;
    if (perSlot <= 0 || this.options.maxPages > 0 || this.options.committer.backlogged || this.options.stopping()) return 0;
    return perSlot * (pool.freeSlots() + pool.inFlight());
  }

  /** URLs to claim beyond the free slots: {@link claimAheadMost} less those in hand. */
  private claimAheadRoom(pool: TaskPool): number {
    return Math.max(0, this.claimAheadMost(pool) - this.ready.length - this.robotsWaiting.length);
  }

  /**
   * With no slot free, whether to claim ahead now: once the URLs in hand have fallen by
   * {@link CLAIM_AHEAD_REFILL_SHARE} of what claimAheadMost allows, not at every freed slot.
   */
  private claimAheadDue(pool: TaskPool): boolean {
    const room = this.claimAheadRoom(pool);
    return room > 0 && room >= this.claimAheadMost(pool) * CLAIM_AHEAD_REFILL_SHARE;
  }

  private dispatchPage(pool: TaskPool, url: ClaimedUrl): void {
    this.inFlight.set(url.id, url);
    pool.dispatch({ urlId: url.id, url: url.url, purpose: 'page' });
  }

  /**
   * Claims eligible URLs, one batch per store call, and settles each against the robots gate
   * right before its fetch (seed 003): allowed → fetched; disallowed or unavailable → an error,
   * never requested; no rules yet → its robots.txt is fetched and the URL waits. Settled URLs free
   * their slot, so claiming goes on. Beyond the `room` free slots it claims up to
   * {@link claimAheadRoom} URLs ahead; a claimed URL finding no free slot (they may have been
   * filled from `ready` while the claim was written) waits in `ready`, or in `robotsWaiting` when
   * it needs a robots.txt fetch. @returns URLs taken: fetch slots used plus URLs left waiting
   */
  private async claim(pool: TaskPool, room: number): Promise<number> {
    const { frontier, gate } = this.options;
    const budget = room + this.claimAheadRoom(pool);
    let taken = 0;
    while (taken < budget) {
      const now = this.options.now();
      const next = frontier.nextEligibleAtMs();
      if (next === null || next > now) break;
      const claimed = await frontier.claimBatch(budget - taken, now);
      if (claimed.length === 0 && frontier.nextEligibleAtMs() === next) break;
      await gate.prepare(claimed, now);
      for (const url of claimed) {
        if (!gate.admit(url, now)) continue;
        const slotFree = pool.freeSlots() > 0;
        if (gate.clears(url)) {
          if (slotFree) this.dispatchPage(pool, url);
          else this.ready.push({ url, atMs: now });
          taken += 1;
        } else if (!slotFree && gate.holdNeedsSlot(url)) {
          this.robotsWaiting.push(url);
          taken += 1;
        } else {
          taken += gate.hold(url);
        }
      }
    }
    return taken;
  }

  /** On stop: URLs waiting for robots or a slot go back to pending (committed now), so none is lost. */
  private async requeueWaiting(): Promise<void> {
    const waiting = [...this.options.gate.takeHeld(), ...this.ready.map((entry) => entry.url), ...this.robotsWaiting];
    if (waiting.length === 0) return;
    this.ready.length = 0;
    this.robotsWaiting.length = 0;
    const now = this.options.now();
    for (const url of waiting) this.options.committer.addOutcome({ kind: 'requeued', url, disposition: { fetchMs: 0, nowMs: now } });
    await this.options.committer.commit();
  }
}
