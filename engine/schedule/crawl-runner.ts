import os from 'node:os';
import type { Database } from 'better-sqlite3';
import type { CrawlProgress, CrawlSettings, CrawlStatus, CrawlSummary } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import { errorClass } from '../../shared/types/error-codes';
import { CrawlRepository } from '../store/sqlite/crawl-repository';
import { SqliteFrontier, type ClaimedUrl, type Disposition, type FrontierCandidate, type HostState } from '../store/sqlite/frontier';
import { LINK_KINDS, type FromWorker, type LinkKind, type PageResult } from '../worker/protocol';

type RobotsResultMessage = Extract<FromWorker, { type: 'robots' }>;
import { ContentDedupe, sketchToBlob } from '../store/sqlite/content-dedupe';
import { RedirectChains } from '../store/sqlite/redirect-chains';
import { compileLinkRules, linkParts, STORED_RAW_URL_CHARS, type LinkParts, type LinkRuleName, type LinkUnderTest } from '../links/link-rules';
import { aliasCache, crawlDelayCache, linkTargetCache } from '../links/link-budget';
import { addRedirectSeed, redirectRefusal } from '../links/redirects';
import { RobotsCache } from '../robots/robots-cache';
import type { RedirectTarget } from '../fetch/redirects';
import { retryAfterMs } from './retry-after';
import { scopeSeeds, type ScopeSeeds } from '../links/scope';
import type { UrlIdentity } from '../links/url-identity';
import { WorkerPool, type PoolMessage } from '../worker/worker-pool';
import type { Result } from '../../shared/types/result';

/** The housekeeping thread's report (IIR 20.2: wakes every few seconds to log progress). */
export interface HousekeepingStats extends CrawlProgress {
  /** URLs pending or in flight. */
  frontierSize: number;
  /** Hosts with a request in flight now. */
  activeHosts: number;
  /** Hosts this run has met. */
  knownHosts: number;
}

/** Callbacks a crawl reports through; the service turns them into IPC events, the CLI into stderr lines. */
export interface CrawlListener {
  onProgress?(progress: CrawlProgress): void;
  /** Every second while the crawl runs. */
  onHousekeeping?(stats: HousekeepingStats): void;
  onFinish?(summary: CrawlSummary): void;
}

export interface CrawlRunnerOptions {
  db: Database;
  crawlId: number;
  settings: CrawlSettings;
  seeds: readonly string[];
  /**
   * A URL's identity under `settings.normalizationProfile` and `settings.tld` (see
   * createCrawlIdentifier). The runner caches it per URL, fragment-free when that profile drops
   * fragments.
   */
  identify: (raw: string) => Result<UrlIdentity>;
  listener?: CrawlListener;
  /** Minimum gap between two progress reports. @default 250 (at most 4 a second) */
  progressIntervalMs?: number;
  /**
   * Longest time a finished fetch waits before its disposition is committed. Results are written
   * in one transaction per window (earlier when fetch slots would otherwise sit idle), so a
   * killed process loses at most the URLs in flight or in this window, which resume as pending.
   * @default 500
   */
  commitIntervalMs?: number;
  now?: () => number;
}

const RATE_WINDOW_MS = 5_000;

/** What a link's URL is, worked out once per URL string. */
interface LinkTarget {
  /** Parts of the URL to fetch (no fragment), for the link rules. */
  parts: LinkParts;
  /** The URL's identity, `url` being the URL to fetch; null when the link is refused before any rule. */
  identity: UrlIdentity | null;
  /** Why `identity` is null. */
  refusal: Extract<LinkRuleName, 'protocol' | 'invalid-url'> | null;
}

/** A fetch that ended and waits for its outcome to be committed. */
interface SettledFetch {
  url: ClaimedUrl;
  message: Extract<PoolMessage, { type: 'page' | 'failed' }>;
  /** Host bookkeeping of the fetch, worked out when it ended. */
  disposition: Disposition;
  /** True when the URL goes back to pending for another try (transient failure, 429/503). */
  retry: boolean;
}

/**
 * Results buffered beyond this many are committed at once. A commit blocks the scheduler (about
 * 2 ms a page with its links), and no fetch is dispatched meanwhile: small batches keep the
 * workers fed (256 left them idle for ~300 ms per commit on the docs crawl).
 */
const MAX_UNCOMMITTED = 32;

/**
 * Validates seed URLs: absolute http(s) URLs, at most 8192 characters.
 * @throws CodedError INVALID_SEED naming the first bad seed
 */
export function validateSeeds(seeds: readonly string[]): string[] {
  if (seeds.length === 0) throw new CodedError('INVALID_SEED', 'At least one seed URL is needed');
  return seeds.map((seed) => {
    let url: URL;
    try {
      url = new URL(seed.trim());
    } catch {
      throw new CodedError('INVALID_SEED', `Seed "${seed}" is not an absolute URL (expected e.g. https://example.com/)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CodedError('INVALID_SEED', `Seed "${seed}" is not an http(s) URL`);
    url.hash = '';
    return url.href;
  });
}

/**
 * Runs one crawl to its end (IIR 20.2 cycle): claims eligible URLs from the frontier, fetches and
 * parses them on the worker pool, records each result and its links in one SQLite transaction
 * (so a killed process loses at most the URLs in flight), and ends when the frontier is empty and
 * nothing is in flight, on the page limit, or on stop().
 */
export class CrawlRunner {
  private readonly repository: CrawlRepository;
  private readonly frontier: SqliteFrontier;
  private readonly linkRules: (link: LinkUnderTest) => LinkRuleName | null;
  private readonly contentDedupe: ContentDedupe;
  private readonly allowedProtocols: Set<string>;
  /** Links refused per rule in this run (persisted per link in `links.refused_by`). */
  private readonly refusals: Record<string, number> = {};
  /** Robots decisions of URLs in the current claim: 'allowed', 'wait', or the robots.txt URL to fetch. */
  private readonly pendingDecision = new Map<number, string>();
  private readonly now: () => number;
  private readonly inFlight = new Map<number, ClaimedUrl>();
  private readonly completions: number[] = [];
  /** Raw spellings already stored as aliases (bounded by bytes: link-budget.ts). */
  private readonly aliasesSeen = aliasCache();
  private pool: WorkerPool | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private commitTimer: NodeJS.Timeout | null = null;
  private readonly uncommitted: SettledFetch[] = [];
  /** Link targets by URL string (a crawl meets the same navigation links on every page); bounded by bytes. */
  private readonly linkTargets = linkTargetCache<LinkTarget>();
  /** The profile drops fragments, so `x#a` and `x#b` share x's identity (and one cache entry). */
  private readonly fragmentFree: boolean;
  /** robots.txt per origin; null when the crawl ignores robots (`obeyRobots: false`). */
  private readonly robots: RobotsCache | null;
  /** Claimed URLs waiting for their origin's robots.txt. */
  private readonly held = new Map<string, ClaimedUrl[]>();
  /** Claimed URLs cleared by robots, waiting for a slot or their host's politeness delay. */
  private readonly ready: { url: ClaimedUrl; atMs: number }[] = [];
  /** robots.txt fetches in flight, by task sequence number. */
  private readonly robotsTasks = new Map<number, string>();
  /** Capped robots Crawl-delay per host, added to the politeness delay (IIR 20.2.3). */
  private readonly crawlDelayByHost = crawlDelayCache();
  private progressTimer: NodeJS.Timeout | null = null;
  private housekeepingTimer: NodeJS.Timeout | null = null;
  private stopping: CrawlStatus | null = null;
  private startedAtMs = 0;
  private finished: ((summary: CrawlSummary) => void) | null = null;
  private failedRun: ((error: Error) => void) | null = null;
  private lastProgressJson = '';
  private finalStatus: CrawlStatus | null = null;
  /** Pages found to duplicate earlier content (stored groups hold the detail). */
  private duplicates = 0;
  /** What the scope rule compares with; a seed's redirect target joins it (see redirects.ts). */
  private readonly scope: ScopeSeeds;
  private readonly redirectChains: RedirectChains;

  constructor(private readonly options: CrawlRunnerOptions) {
    this.repository = new CrawlRepository(options.db);
    this.now = options.now ?? Date.now;
    this.frontier = new SqliteFrontier(options.db, options.crawlId, {
      maxInFlightPerHost: options.settings.maxInFlightPerHost,
      minDelayMs: options.settings.minDelayMs,
      maxDelayMs: options.settings.maxDelayMs,
      delayFactor: options.settings.delayFactor,
    });
    const seeds = scopeSeeds(options.seeds, (host) => {
      const identity = options.identify(`http://${host}/`);
      return identity.ok ? identity.value.registrableDomain : null;
    });
    this.redirectChains = new RedirectChains(options.db);
    for (const target of this.redirectChains.seedRedirectTargets(options.crawlId)) addRedirectSeed(seeds, target.url, target.registrableDomain);
    this.scope = seeds;
    this.linkRules = compileLinkRules(options.settings, seeds);
    this.allowedProtocols = new Set(options.settings.allowedProtocols.map((p) => `${p}:`));
    this.fragmentFree = options.settings.normalizationProfile.rules.removeFragment;
    this.contentDedupe = new ContentDedupe(options.db, options.crawlId, { threshold: options.settings.nearDuplicateThreshold });
    this.duplicates = this.repository.duplicateCount(options.crawlId);
    this.robots = options.settings.obeyRobots
      ? new RobotsCache({
          userAgent: options.settings.userAgent,
          ttlMs: options.settings.robotsCacheTtlMs,
          maxCrawlDelayMs: options.settings.maxCrawlDelayMs,
          retryDelayMs: options.settings.robotsRetryDelayMs,
        })
      : null;
  }

  get crawlId(): number {
    return this.options.crawlId;
  }

  /**
   * Enqueues the seeds (the URL-seen test skips seeds already known, so a resumed crawl
   * re-adds nothing) and runs until the crawl ends.
   * @returns the final summary
   * @throws CodedError INVALID_SEED when no seed can be identified
   */
  async run(): Promise<CrawlSummary> {
    this.startedAtMs = this.now();
    const seeds: FrontierCandidate[] = [];
    for (const seed of this.options.seeds) {
      const identity = this.options.identify(seed);
      if (!identity.ok) throw new CodedError('INVALID_SEED', `Seed ${seed}: ${identity.error.message}`);
      seeds.push({ ...identity.value, depth: 0, discoveredFrom: null });
    }
    try {
      this.options.db
        .transaction(() => {
          const { ids } = this.frontier.add(seeds, this.now());
          ids.forEach((id, index) => this.recordAlias(id, seeds[index]!.url, null));
          this.repository.setStatus(this.options.crawlId, 'running', null);
        })
        .immediate();
    } catch (error) {
      this.markInterrupted();
      throw error;
    }

    const { settings } = this.options;
    const workers = Math.max(1, Math.min(settings.threads, os.availableParallelism()));
    this.pool = new WorkerPool(workers, { settings, concurrency: Math.ceil(settings.threads / workers) }, (message) => this.onWorkerMessage(message));
    try {
      await this.pool.start();
    } catch (error) {
      await this.pool.shutdown();
      this.markInterrupted();
      throw error;
    }
    const done = new Promise<CrawlSummary>((resolve, reject) => {
      this.finished = resolve;
      this.failedRun = reject;
    });
    this.progressTimer = setInterval(() => this.reportProgress(false), this.options.progressIntervalMs ?? 250);
    this.housekeepingTimer = setInterval(() => this.options.listener?.onHousekeeping?.(this.housekeeping()), 1000);
    this.pump();
    return done;
  }

  /**
   * Ends the run on an error from outside it (e.g. an automatic checkpoint that hit a full disk):
   * the same path as a failed write, the crawl left `interrupted` and run() rejecting with `error`.
   */
  fail(error: Error): void {
    void this.abort(error);
  }

  /** Stops claiming new URLs; in-flight fetches finish and are recorded, then the crawl ends as `stopped`. */
  stop(status: Extract<CrawlStatus, 'stopped' | 'paused'> = 'stopped'): void {
    if (this.stopping) return;
    this.stopping = status;
    this.pump();
  }

  /**
   * Live state of every host this run has met: in flight, next eligible time, and why it waits
   * (robots.txt pending comes from the robots cache; delays from the frontier).
   */
  hostStates(): HostState[] {
    const now = this.now();
    return this.frontier.hostStates(now).map((state) => {
      const robotsReason = this.robots?.waitingReason(`http://${state.host}`) ?? this.robots?.waitingReason(`https://${state.host}`) ?? null;
      return robotsReason && state.waitingReason === null ? { ...state, waitingReason: robotsReason } : state;
    });
  }

  /** The housekeeping report: progress plus frontier size and host activity. */
  housekeeping(): HousekeepingStats {
    const progress = this.progress();
    const hosts = this.frontier.hostStates(this.now());
    return {
      ...progress,
      frontierSize: progress.queued + progress.inFlight,
      activeHosts: hosts.filter((host) => host.inFlight > 0).length,
      knownHosts: hosts.length,
    };
  }

  /** Current counters. */
  progress(): CrawlProgress {
    const counts = this.frontier.counts();
    const now = this.now();
    while (this.completions.length > 0 && this.completions[0]! < now - RATE_WINDOW_MS) this.completions.shift();
    const windowMs = Math.min(RATE_WINDOW_MS, Math.max(1, now - this.startedAtMs));
    return {
      crawlId: this.options.crawlId,
      status: this.finalStatus ?? this.stopping ?? 'running',
      fetched: counts.done,
      queued: counts.pending,
      inFlight: counts.inFlight,
      errors: counts.error,
      pagesPerSecond: Math.round((this.completions.length * 1000 * 10) / windowMs) / 10,
      elapsedMs: now - this.startedAtMs,
      refusedByRule: { ...this.refusals },
      duplicates: this.duplicates,
    };
  }

  /**
   * One scheduling step. Every database write outside commit() (claims, robots bookkeeping,
   * requeues on stop) happens under it or under onWorkerMessage: a failure there takes the same
   * path as a failed commit (abort: crawl `interrupted`, run() rejects), never an uncaught throw.
   */
  private pump(): void {
    try {
      this.schedule();
    } catch (error) {
      void this.abort(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private schedule(): void {
    if (!this.pool || !this.finished) return;
    if (this.wakeTimer) {
      clearTimeout(this.wakeTimer);
      this.wakeTimer = null;
    }
    if (this.stopping) this.requeueWaiting();
    const { maxPages } = this.options.settings;
    let room = this.stopping ? 0 : this.pool.freeSlots();
    room -= this.dispatchReady(room);
    if (maxPages > 0) {
      const counts = this.frontier.counts();
      room = Math.min(room, maxPages - (counts.done + counts.error + counts.inFlight));
    }
    if (room > 0) {
      let dispatched = this.claim(room);
      // Idle slots and results waiting to be committed: commit now, their links may be the work.
      if (dispatched < room && this.uncommitted.length > 0) {
        this.commit();
        dispatched += this.claim(room - dispatched);
      }
    }
    // Nothing is being fetched: results waiting for their commit have nothing to wait for (a
    // page limit reached, the last pages of a crawl).
    if (this.uncommitted.length > 0 && this.pool.inFlight() === 0) this.commit();
    const counts = this.frontier.counts();
    if (counts.inFlight === 0) {
      const limitReached = maxPages > 0 && counts.done + counts.error >= maxPages;
      if (this.stopping || counts.pending === 0 || limitReached) {
        // A limit leaves work in the frontier: that crawl is stopped (resumable), not finished.
        void this.finish(this.stopping ?? (counts.pending === 0 ? 'finished' : 'stopped'));
        return;
      }
    }
    if (this.stopping || this.pool.freeSlots() === 0) return;
    const wakeAt = Math.min(this.frontier.nextEligibleAtMs() ?? Infinity, ...this.ready.map((entry) => entry.atMs));
    if (wakeAt !== Infinity) this.wakeTimer = setTimeout(() => this.pump(), Math.max(1, wakeAt - this.now()));
  }

  /** Dispatches robots-cleared URLs whose politeness wait is over. @returns slots used */
  private dispatchReady(room: number): number {
    const now = this.now();
    let used = 0;
    for (let index = 0; index < this.ready.length && used < room; ) {
      const entry = this.ready[index]!;
      if (entry.atMs > now) {
        index += 1;
        continue;
      }
      this.ready.splice(index, 1);
      this.dispatchPage(entry.url);
      used += 1;
    }
    return used;
  }

  private dispatchPage(url: ClaimedUrl): void {
    this.inFlight.set(url.id, url);
    this.pool!.dispatch({ urlId: url.id, url: url.url, purpose: 'page' });
  }

  /**
   * Claims eligible URLs and settles each against robots.txt right before its fetch (seed 003):
   * allowed → fetched; disallowed or unavailable → an error, never requested; no rules yet → its
   * robots.txt is fetched and the URL waits. Settled URLs free their slot, so claiming goes on.
   * @returns fetch slots used (page and robots.txt fetches)
   */
  private claim(room: number): number {
    let used = 0;
    while (used < room) {
      const now = this.now();
      const next = this.frontier.nextEligibleAtMs();
      if (next === null || next > now) break;
      const claimed = this.options.db
        .transaction(() => {
          const urls = this.frontier.claimNext(room - used, now);
          return urls.filter((url) => this.settleRedirectLimit(url, now) && this.settleRobots(url, now));
        })
        .immediate();
      if (claimed.length === 0 && this.frontier.nextEligibleAtMs() === next) break;
      for (const url of claimed) {
        if (this.robots === null || this.robotsDecisionAllows(url)) {
          this.dispatchPage(url);
          used += 1;
        } else {
          used += this.holdForRobots(url);
        }
      }
    }
    return used;
  }

  /**
   * Refuses a URL reached through more than `maxRedirects` consecutive redirects, unfetched (inside
   * the claim transaction). @returns true when the URL goes on
   */
  private settleRedirectLimit(url: ClaimedUrl, now: number): boolean {
    const { maxRedirects } = this.options.settings;
    if (url.redirectHops <= maxRedirects) return true;
    this.frontier.fail(url, { code: 'REDIRECT_LIMIT', message: `${url.url} is reached through ${url.redirectHops} consecutive redirects, more than ${maxRedirects}` }, { fetchMs: 0, nowMs: now });
    return false;
  }

  /** Settles URLs robots rules out (inside the claim transaction). @returns true when the URL goes on */
  private settleRobots(url: ClaimedUrl, now: number): boolean {
    if (!this.robots) return true;
    const decision = this.robots.decide(url.url, now);
    switch (decision.kind) {
      case 'allowed':
        this.crawlDelayByHost.set(url.host, decision.crawlDelayMs);
        this.pendingDecision.set(url.id, 'allowed');
        return true;
      case 'fetch':
        this.pendingDecision.set(url.id, decision.robotsUrl);
        return true;
      case 'wait':
        this.pendingDecision.set(url.id, 'wait');
        return true;
      case 'disallowed':
        this.countRefusal('robots');
        this.frontier.fail(url, { code: 'ROBOTS_DISALLOWED', message: `robots.txt disallows ${url.url} for ${this.options.settings.userAgent}` }, { fetchMs: 0, nowMs: now });
        return false;
      case 'unavailable': {
        // An unreachable host fails with its own error (what fetching the page would say);
        // a robots.txt that kept failing is ROBOTS_UNAVAILABLE.
        const error = decision.hostUnreachable
          ? decision.error
          : { code: 'ROBOTS_UNAVAILABLE', message: `robots.txt of ${new URL(url.url).origin} stayed unavailable: ${decision.error.message}` };
        this.frontier.fail(url, error, { fetchMs: 0, nowMs: now });
        return false;
      }
      case 'retry-later':
        this.frontier.requeue(url, { fetchMs: 0, nowMs: now, extraDelayMs: decision.retryAtMs - now, extraDelayReason: 'robots.txt unavailable, retrying' });
        return false;
      default: {
        const exhaustive: never = decision;
        throw new Error(`Unknown robots decision ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  private robotsDecisionAllows(url: ClaimedUrl): boolean {
    const decision = this.pendingDecision.get(url.id);
    if (decision === 'allowed') this.pendingDecision.delete(url.id);
    return decision === 'allowed';
  }

  /** Holds a URL until its origin's robots.txt arrives, fetching it when asked to. @returns slots used */
  private holdForRobots(url: ClaimedUrl): number {
    const decision = this.pendingDecision.get(url.id);
    this.pendingDecision.delete(url.id);
    const origin = new URL(url.url).origin;
    const list = this.held.get(origin) ?? [];
    list.push(url);
    this.held.set(origin, list);
    if (decision === undefined || decision === 'wait' || decision === 'allowed') return 0;
    const seq = this.pool!.dispatch({ urlId: url.id, url: decision, purpose: 'robots' });
    this.robotsTasks.set(seq, origin);
    return 1;
  }

  /** A robots.txt arrived: decide every URL held for its origin. */
  private onRobots(seq: number, result: RobotsResultMessage['result']): void {
    const origin = this.robotsTasks.get(seq);
    this.robotsTasks.delete(seq);
    if (!origin || !this.robots) return;
    const now = this.now();
    this.robots.record(result, now);
    const held = this.held.get(origin) ?? [];
    this.held.delete(origin);
    const politeAt = now + this.frontier.politenessDelayMs(result.fetchMs);
    this.options.db.transaction(() => {
      for (const url of held) {
        if (this.settleRobots(url, now)) {
          if (this.robotsDecisionAllows(url)) this.ready.push({ url, atMs: politeAt });
          else this.holdForRobots(url);
        }
      }
    }).immediate();
  }

  /** On stop: URLs waiting for robots or a slot go back to pending, so none is lost. */
  private requeueWaiting(): void {
    const waiting = [...[...this.held.values()].flat(), ...this.ready.map((entry) => entry.url)];
    if (waiting.length === 0) return;
    this.held.clear();
    this.ready.length = 0;
    const now = this.now();
    this.options.db.transaction(() => {
      for (const url of waiting) this.frontier.requeue(url, { fetchMs: 0, nowMs: now });
    }).immediate();
  }

  private countRefusal(rule: string, count = 1): void {
    this.refusals[rule] = (this.refusals[rule] ?? 0) + count;
  }

  private onWorkerMessage(message: PoolMessage): void {
    // After an abort, fetches still in flight while the pool shuts down are dropped, not
    // committed: the run is over and another run may own the crawl (those URLs resume as pending).
    if (!this.finished) return;
    try {
      this.handleWorkerMessage(message);
    } catch (error) {
      void this.abort(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private handleWorkerMessage(message: PoolMessage): void {
    if (message.type === 'robots') {
      this.onRobots(message.seq, message.result);
      this.pump();
      return;
    }
    const url = this.inFlight.get(message.urlId);
    if (!url) return;
    this.inFlight.delete(message.urlId);
    const nowMs = this.now();
    const settled = this.settle(url, message, nowMs);
    // The host's slot and politeness delay do not wait for the commit: the fetch is over.
    this.frontier.releaseHost(url, settled.disposition);
    this.uncommitted.push(settled);
    this.completions.push(nowMs);
    if (this.uncommitted.length >= MAX_UNCOMMITTED) this.commit();
    else this.commitTimer ??= setTimeout(() => {
      this.commitTimer = null;
      this.commit();
      this.pump();
    }, this.options.commitIntervalMs ?? 500);
    this.pump();
  }

  /** Writes every buffered result, its page row, links and newly discovered URLs, in one transaction. */
  private commit(): void {
    if (this.commitTimer) {
      clearTimeout(this.commitTimer);
      this.commitTimer = null;
    }
    if (this.uncommitted.length === 0) return;
    const batch = this.uncommitted.splice(0);
    try {
      this.options.db
        .transaction(() => {
          for (const { url, message, disposition, retry } of batch) {
            if (retry) this.frontier.requeue(url, disposition);
            else if (message.type === 'page') this.recordPage(url, message.result, disposition);
            else this.frontier.fail(url, message.error, disposition);
          }
        })
        .immediate();
    } catch (error) {
      void this.abort(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Ends a run that cannot go on (e.g. the database refused a write): timers stop, the pool shuts
   * down, and the crawl is left `interrupted` (resumable: its in-flight URLs go back to pending).
   */
  private async abort(error: Error): Promise<void> {
    const reject = this.failedRun;
    if (!this.finished || !reject) return;
    this.finished = null;
    this.failedRun = null;
    if (this.progressTimer) clearInterval(this.progressTimer);
    if (this.housekeepingTimer) clearInterval(this.housekeepingTimer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    if (this.commitTimer) clearTimeout(this.commitTimer);
    await this.pool?.shutdown().catch(() => undefined);
    this.markInterrupted();
    reject(error);
  }

  /** Leaves the crawl `interrupted` (resumable), if the database still takes that one write. */
  private markInterrupted(): void {
    this.finalStatus = 'interrupted';
    try {
      this.repository.setStatus(this.options.crawlId, 'interrupted', null);
    } catch {
      // The database itself failed: the next process to take the crawl lease marks it interrupted.
    }
  }

  /**
   * How a fetch ended, for the frontier: a transient failure or 429/503 (RFC 9110 §10.2.3,
   * RFC 6585 §4) within `maxRetries` goes back to pending, and its host waits the server's
   * Retry-After or an exponential backoff (capped at maxDelayMs); anything else is recorded.
   * The robots Crawl-delay is the floor of every host wait.
   */
  private settle(url: ClaimedUrl, message: Extract<PoolMessage, { type: 'page' | 'failed' }>, nowMs: number): SettledFetch {
    const { maxRetries, maxDelayMs } = this.options.settings;
    const crawlDelayMs = this.crawlDelayByHost.get(url.host) ?? 0;
    const backoffMs = 1000 * 2 ** url.attempts;
    if (message.type === 'failed') {
      const retry = errorClass(message.error.code) === 'retry' && url.attempts < maxRetries;
      const extraDelayMs = retry ? Math.max(crawlDelayMs, backoffMs) : crawlDelayMs;
      return { url, message, retry, disposition: { fetchMs: message.fetchMs, nowMs, extraDelayMs, ...(retry ? { extraDelayReason: 'Retry-After backoff' } : {}) } };
    }
    const page = message.result;
    if ((page.status === 429 || page.status === 503) && url.attempts < maxRetries) {
      const waitMs = Math.min(maxDelayMs, retryAfterMs(page.retryAfter, nowMs) ?? backoffMs);
      return { url, message, retry: true, disposition: { fetchMs: page.fetchMs, nowMs, extraDelayMs: Math.max(waitMs, crawlDelayMs), extraDelayReason: 'Retry-After backoff' } };
    }
    return { url, message, retry: false, disposition: { fetchMs: page.fetchMs, nowMs, httpStatus: page.status, extraDelayMs: crawlDelayMs } };
  }

  /**
   * What a link's URL is: its parts, and its identity unless its scheme is not crawled or it
   * cannot be normalized. Cached by URL string (by the URL without its fragment when the profile
   * drops fragments): navigation links recur on every page, and their identity does not change.
   */
  private linkTarget(raw: string): LinkTarget {
    const hash = raw.indexOf('#');
    // The URL fetched carries no fragment (never sent to a server); the raw spelling is kept as an alias.
    const fetchUrl = hash === -1 ? raw : raw.slice(0, hash);
    const key = this.fragmentFree ? fetchUrl : raw;
    let target = this.linkTargets.get(key);
    if (target !== undefined) return target;
    const parts = linkParts(fetchUrl);
    if (!this.allowedProtocols.has(parts.protocol)) {
      // Scheme first: mailto:/javascript: are never normalized, only counted.
      target = { parts, identity: null, refusal: 'protocol' };
    } else {
      const identity = this.options.identify(key);
      target = identity.ok ? { parts, identity: { ...identity.value, url: fetchUrl }, refusal: null } : { parts, identity: null, refusal: 'invalid-url' };
    }
    this.linkTargets.set(key, target);
    return target;
  }

  private recordPage(url: ClaimedUrl, page: PageResult, disposition: Disposition): void {
    const { crawlId } = this.options;
    const now = disposition.nowMs;
    this.repository.insertPage(crawlId, {
      urlId: url.id,
      finalUrl: page.finalUrl,
      httpStatus: page.status,
      contentType: page.contentType,
      bodyBytes: page.bodyBytes,
      truncated: page.truncated,
      fetchMs: page.fetchMs,
      title: page.title,
      redirectChainJson: null,
      location: page.redirect === null ? null : (page.redirect.location ?? page.redirect.raw),
      fetchedAtMs: now,
      fingerprint: page.content?.fingerprint ?? null,
      minhash: page.content ? sketchToBlob(page.content.minhash) : null,
      textChars: page.content?.textChars ?? null,
      noindex: page.noindex,
      linksOverCap: page.linksOverCap,
    });
    if (page.content && page.content.excerpt !== '') this.repository.insertPageText(url.id, page.content.excerpt);
    // Content-seen test (seed 003): only successful pages take part; error pages often share text,
    // and 3xx bodies are not pages.
    if (page.content && page.status < 300 && this.contentDedupe.record(url.id, page.content, now).kind !== 'unique') this.duplicates += 1;
    if (page.redirect !== null) {
      this.recordRedirect(url, page.redirect, disposition);
      return;
    }
    if (page.status >= 400) {
      this.frontier.fail(url, { code: `HTTP_${page.status}`, message: `HTTP ${page.status} from ${page.finalUrl}` }, disposition);
    } else {
      this.frontier.complete(url, disposition);
    }

    const depth = url.depth + 1;
    const candidates: FrontierCandidate[] = [];
    const pendingLinks: { raw: string; kind: LinkKind; refusedBy: LinkRuleName | null }[] = [];
    const refuse = (raw: string, kind: LinkKind, rule: LinkRuleName) => {
      this.countRefusal(rule);
      pendingLinks.push({ raw: raw.slice(0, STORED_RAW_URL_CHARS), kind, refusedBy: rule });
    };
    const { maxUrlLength } = this.options.settings;
    for (const link of page.links) {
      // By length before any other work: a too-long URL is never parsed, normalized nor cached.
      if (link.tooLong === true || link.url.length > maxUrlLength) {
        refuse(link.url, link.kind, 'url-length');
        continue;
      }
      const target = this.linkTarget(link.url);
      const identity = target.identity;
      if (identity === null) {
        refuse(link.url, link.kind, target.refusal ?? 'invalid-url');
        continue;
      }
      const rule = this.linkRules({ url: target.parts, raw: link.url, registrableDomain: identity.registrableDomain, depth, pageNofollow: page.nofollow });
      if (rule !== null) {
        refuse(link.url, link.kind, rule);
        continue;
      }
      candidates.push({
        url: identity.url,
        normalized: identity.normalized,
        normalizedKey: identity.normalizedKey,
        host: identity.host,
        registrableDomain: identity.registrableDomain,
        depth,
        discoveredFrom: url.id,
      });
      pendingLinks.push({ raw: link.url, kind: link.kind, refusedBy: null });
    }
    for (let i = 0; i < page.unresolvableLinks; i += 1) this.countRefusal('invalid-url');
    // Links past the page's cap were not passed on: counted, and stored with the page.
    if (page.linksOverCap > 0) this.countRefusal('max-links-per-page', page.linksOverCap);
    const { ids } = this.frontier.add(candidates, now);
    let next = 0;
    // One link row per (target, kind) of a page: `#fragment` variants of one target are one link.
    const writtenTargets = new Set<number>();
    const writtenRefusals = new Set<string>();
    for (const link of pendingLinks) {
      const toUrlId = link.refusedBy === null ? (ids[next++] ?? null) : null;
      if (toUrlId !== null) {
        this.recordAlias(toUrlId, link.raw, url.id);
        const written = toUrlId * LINK_KINDS.length + LINK_KINDS.indexOf(link.kind);
        if (writtenTargets.has(written)) continue;
        writtenTargets.add(written);
      } else {
        const written = `${link.kind} ${link.raw}`;
        if (writtenRefusals.has(written)) continue;
        writtenRefusals.add(written);
      }
      this.repository.insertLink(crawlId, { fromUrlId: url.id, rawUrl: link.raw, toUrlId, kind: link.kind, refusedBy: link.refusedBy });
    }
  }

  /**
   * A redirect answer (RFC 9110 §15.4) is the URL's own result: done with its 3xx status, and its
   * target offered to the frontier like a link (kind `redirect`, same depth, one more redirect hop)
   * so the URL-seen test, robots.txt, politeness and the link rules apply to it before any fetch.
   * A known target whose stored redirects lead back here makes this hop a REDIRECT_LOOP error.
   */
  private recordRedirect(url: ClaimedUrl, redirect: RedirectTarget, disposition: Disposition): void {
    const { crawlId } = this.options;
    // By length before any other work, as for links: a too-long Location is never normalized nor cached.
    const tooLong = redirect.location !== null && redirect.location.length > this.options.settings.maxUrlLength;
    const target = redirect.location === null || tooLong ? null : this.linkTarget(redirect.location);
    const identity = target?.identity ?? null;
    const raw = (redirect.location ?? redirect.raw).slice(0, STORED_RAW_URL_CHARS);
    let refusedBy: LinkRuleName | null = tooLong ? 'url-length' : target === null ? 'invalid-url' : target.refusal;
    if (target !== null && identity !== null) {
      refusedBy = redirectRefusal(this.linkRules, this.scope, { url: identity.url, parts: target.parts, raw, registrableDomain: identity.registrableDomain }, url.depth);
    }
    if (refusedBy !== null || identity === null) {
      this.countRefusal(refusedBy ?? 'invalid-url');
      this.frontier.complete(url, disposition);
      this.repository.insertLink(crawlId, { fromUrlId: url.id, rawUrl: raw, toUrlId: null, kind: 'redirect', refusedBy: refusedBy ?? 'invalid-url' });
      return;
    }
    const candidate: FrontierCandidate = {
      url: identity.url,
      normalized: identity.normalized,
      normalizedKey: identity.normalizedKey,
      host: identity.host,
      registrableDomain: identity.registrableDomain,
      depth: url.depth,
      discoveredFrom: url.id,
      redirectHops: url.redirectHops + 1,
    };
    const { ids, added } = this.frontier.add([candidate], disposition.nowMs);
    const toUrlId = ids[0]!;
    if (added === 0 && this.redirectChains.closesLoop(crawlId, url.id, toUrlId, this.options.settings.maxRedirects + 1)) {
      this.frontier.fail(url, { code: 'REDIRECT_LOOP', message: `Redirect loop: ${url.url} redirects to ${identity.url}, earlier in its own redirect chain` }, disposition);
    } else {
      this.frontier.complete(url, disposition);
    }
    this.recordAlias(toUrlId, raw, url.id);
    this.repository.insertLink(crawlId, { fromUrlId: url.id, rawUrl: raw, toUrlId, kind: 'redirect', refusedBy: null });
  }

  /**
   * Stores each distinct raw spelling of a URL once; a bounded cache skips the repeats (a raw
   * spelling always names the same URL id within a crawl, so the spelling alone is the key).
   */
  private recordAlias(urlId: number, raw: string, fromUrlId: number | null): void {
    if (this.aliasesSeen.has(raw)) return;
    this.aliasesSeen.set(raw, true);
    this.repository.insertAlias(urlId, raw, fromUrlId);
  }

  private reportProgress(force: boolean): void {
    const progress = this.progress();
    const json = JSON.stringify({ ...progress, elapsedMs: 0 });
    if (!force && json === this.lastProgressJson) return;
    this.lastProgressJson = json;
    this.options.listener?.onProgress?.(progress);
  }

  private async finish(status: CrawlStatus): Promise<void> {
    // A failed last commit aborts the run (clearing `finished`): nothing more to do here.
    this.commit();
    const resolve = this.finished;
    const reject = this.failedRun;
    if (!resolve || !reject) return;
    this.finished = null;
    this.failedRun = null;
    if (this.progressTimer) clearInterval(this.progressTimer);
    if (this.housekeepingTimer) clearInterval(this.housekeepingTimer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    await this.pool?.shutdown();
    let summary: CrawlSummary;
    try {
      this.repository.setStatus(this.options.crawlId, status, this.now());
      summary = this.repository.getCrawl(this.options.crawlId);
    } catch (error) {
      this.markInterrupted();
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.stopping = status === 'finished' ? null : (status as 'stopped' | 'paused');
    this.finalStatus = status;
    this.reportProgress(true);
    this.options.listener?.onFinish?.(summary);
    resolve(summary);
  }
}
