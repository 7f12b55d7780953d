/**
 * The robots gate: settles each claimed URL against robots.txt right before its fetch (seed 003,
 * RFC 9309) and against the redirect-hop limit; holds URLs whose origin's robots.txt is not known
 * yet, and keeps each host's Crawl-delay for the politeness delay (IIR 20.2.3).
 */
import type { CrawlSettings } from '../../shared/types/crawl';
import { crawlDelayCache } from '../links/link-budget';
import { RobotsCache } from '../robots/robots-cache';
import type { ClaimedUrl, FrontierStore, HostWaitReason, RobotsStore, UrlError, UrlOutcome } from '../store/ports';
import type { RobotsResult } from '../worker/protocol';

/** What the gate needs of the crawl. */
export interface RobotsGateOptions {
  settings: Pick<CrawlSettings, 'obeyRobots' | 'userAgent' | 'robotsCacheTtlMs' | 'maxCrawlDelayMs' | 'robotsRetryDelayMs' | 'maxRedirects'>;
  frontier: Pick<FrontierStore, 'politenessDelayMs'>;
  /** Records an outcome decided without a fetch (refused, retried later): the result committer's addOutcome. */
  record(outcome: UrlOutcome): void;
  countRefusal(rule: string): void;
  /** Dispatches a robots.txt fetch for `urlId`'s origin. @returns the task's sequence number */
  dispatchRobots(urlId: number, robotsUrl: string): number;
  /**
   * The backing tier of the robots.txt cache: asked on a cache miss before any fetch, given every
   * robots.txt that decides rules. Absent: robots.txt lives in memory only.
   */
  store?: RobotsStore;
  /** A robots store write failed (the crawl cannot keep its promises about what is stored): abort the run. */
  onStoreError?(error: Error): void;
}

/**
 * robots.txt's word on a URL fetched outside the frontier (a sitemap): fetch it, refused (never
 * requested), its host unavailable, or not known yet (`wakeAtMs`: when to ask again, epoch ms;
 * null: when a robots.txt arrives). `slotsUsed` is 1 when asking dispatched the robots.txt fetch.
 */
export type OutsideDecision =
  | { kind: 'allowed'; crawlDelayMs: number }
  | { kind: 'disallowed'; robotsLine: string | null }
  | { kind: 'unavailable'; error: UrlError }
  | { kind: 'pending'; wakeAtMs: number | null; slotsUsed: number };

/** A URL cleared by robots, eligible at `atMs` (epoch ms: its host's politeness delay). */
export interface ReadyUrl {
  url: ClaimedUrl;
  atMs: number;
}

export class RobotsGate {
  /** robots.txt per origin; null when the crawl ignores robots (`obeyRobots: false`). */
  private readonly robots: RobotsCache | null;
  /** Robots decisions of URLs in the current claim: 'allowed', 'wait', or the robots.txt URL to fetch. */
  private readonly pendingDecision = new Map<number, string>();
  /** Claimed URLs waiting for their origin's robots.txt. */
  private readonly held = new Map<string, ClaimedUrl[]>();
  /** robots.txt fetches in flight, by task sequence number. */
  private readonly robotsTasks = new Map<number, string>();
  /** Capped robots Crawl-delay per host, added to the politeness delay (IIR 20.2.3). */
  private readonly crawlDelayByHost = crawlDelayCache();

  constructor(private readonly options: RobotsGateOptions) {
    const { settings } = options;
    this.robots = settings.obeyRobots
      ? new RobotsCache({ userAgent: settings.userAgent, ttlMs: settings.robotsCacheTtlMs, maxCrawlDelayMs: settings.maxCrawlDelayMs, retryDelayMs: settings.robotsRetryDelayMs })
      : null;
  }

  /** The host's robots Crawl-delay, ms (0 when none is known). */
  crawlDelayMs(host: string): number {
    return this.crawlDelayByHost.get(host) ?? 0;
  }

  /** Why `host` waits on robots.txt (pending, or unavailable and retried), or null. */
  waitingReason(host: string): HostWaitReason | null {
    return this.robots?.waitingReason(`http://${host}`) ?? this.robots?.waitingReason(`https://${host}`) ?? null;
  }

  /**
   * Loads from the robots store the robots.txt of every origin among `urls` this run does not
   * know yet (one store call for the batch), so {@link admit} asks for a fetch only when neither
   * memory nor the store has it within its TTL (RFC 9309 §2.4). Call it before admitting a claim.
   * @throws the store's error when the read fails
   */
  async prepare(urls: readonly ClaimedUrl[], nowMs: number): Promise<void> {
    await this.prepareOrigins(urls.map((url) => new URL(url.url).origin), nowMs);
  }

  /**
   * Loads from the robots store the robots.txt of every origin of `origins` this run does not
   * know yet (as {@link prepare} does for a claim): sitemap discovery asks it for the seed origins
   * before its first {@link decideOutside}, so a resumed crawl does not fetch them again.
   * @throws the store's error when the read fails
   */
  async prepareOrigins(origins: readonly string[], nowMs: number): Promise<void> {
    const { store } = this.options;
    const robots = this.robots;
    if (!store || !robots || origins.length === 0) return;
    const missing = new Set<string>();
    for (const origin of origins) if (robots.misses(origin)) missing.add(origin);
    if (missing.size === 0) return;
    for (const entry of await store.load([...missing], nowMs)) robots.restore(entry, nowMs);
  }

  /**
   * Settles a claimed URL: refused by the redirect-hop limit (an error) or by robots.txt
   * (blocked), never requested; retried later; or on its way.
   * @returns true when the URL goes on (see {@link clears})
   */
  admit(url: ClaimedUrl, nowMs: number): boolean {
    return this.settleRedirectLimit(url, nowMs) && this.settleRobots(url, nowMs);
  }

  /** True when an admitted URL may be fetched now; otherwise it goes to {@link hold}. */
  clears(url: ClaimedUrl): boolean {
    if (this.robots === null) return true;
    const decision = this.pendingDecision.get(url.id);
    if (decision === 'allowed') this.pendingDecision.delete(url.id);
    return decision === 'allowed';
  }

  /** True when {@link hold} would dispatch the robots.txt fetch of `url`'s origin (it needs a free fetch slot). */
  holdNeedsSlot(url: ClaimedUrl): boolean {
    const decision = this.pendingDecision.get(url.id);
    return decision !== undefined && decision !== 'wait' && decision !== 'allowed';
  }

  /** Holds a URL until its origin's robots.txt arrives, fetching it when asked to. @returns fetch slots used */
  hold(url: ClaimedUrl): number {
    const decision = this.pendingDecision.get(url.id);
    this.pendingDecision.delete(url.id);
    const origin = new URL(url.url).origin;
    const list = this.held.get(origin) ?? [];
    list.push(url);
    this.held.set(origin, list);
    if (decision === undefined || decision === 'wait' || decision === 'allowed') return 0;
    const seq = this.options.dispatchRobots(url.id, decision);
    this.robotsTasks.set(seq, origin);
    return 1;
  }

  /**
   * A robots.txt arrived (task `seq`): decides every URL held for its origin.
   * @returns the URLs now cleared, each eligible after its host's politeness delay
   */
  onRobots(seq: number, result: RobotsResult, nowMs: number): ReadyUrl[] {
    const origin = this.robotsTasks.get(seq);
    this.robotsTasks.delete(seq);
    if (!origin || !this.robots) return [];
    const stored = this.robots.record(result, nowMs);
    const { store, onStoreError } = this.options;
    if (stored && store) {
      store.save(stored).catch((error: unknown) => onStoreError?.(error instanceof Error ? error : new Error(String(error))));
    }
    const held = this.held.get(origin) ?? [];
    this.held.delete(origin);
    const politeAt = nowMs + this.options.frontier.politenessDelayMs(result.fetchMs);
    const ready: ReadyUrl[] = [];
    for (const url of held) {
      if (this.settleRobots(url, nowMs)) {
        if (this.clears(url)) ready.push({ url, atMs: politeAt });
        else this.hold(url);
      }
    }
    return ready;
  }

  /**
   * robots.txt's word on `url` fetched outside the frontier (a sitemap, sitemaps.org: robots.txt
   * applies to it as to any URL): asked like a page's, the origin's robots.txt fetched on a miss
   * (one fetch slot: call only with one free). With robots ignored (`obeyRobots: false`) every URL
   * is allowed.
   */
  decideOutside(url: string, nowMs: number): OutsideDecision {
    if (!this.robots) return { kind: 'allowed', crawlDelayMs: 0 };
    const decision = this.robots.decide(url, nowMs);
    switch (decision.kind) {
      case 'allowed':
      case 'disallowed':
        return decision;
      case 'unavailable':
        return { kind: 'unavailable', error: decision.error };
      case 'wait':
        return { kind: 'pending', wakeAtMs: null, slotsUsed: 0 };
      case 'retry-later':
        return { kind: 'pending', wakeAtMs: decision.retryAtMs, slotsUsed: 0 };
      case 'fetch': {
        const origin = new URL(url).origin;
        this.robotsTasks.set(this.options.dispatchRobots(0, decision.robotsUrl), origin);
        return { kind: 'pending', wakeAtMs: null, slotsUsed: 1 };
      }
      default: {
        const exhaustive: never = decision;
        throw new Error(`Unknown robots decision ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  /**
   * The `Sitemap:` lines of `origin`'s robots.txt (RFC 9309 §2.3.5); [] when it has none or the
   * crawl ignores robots.txt; null while it is not known (ask {@link decideOutside} first).
   */
  robotsSitemaps(origin: string): string[] | null {
    return this.robots ? this.robots.sitemaps(origin) : [];
  }

  /** Hands over every held URL (on stop, to go back to pending). */
  takeHeld(): ClaimedUrl[] {
    const held = [...this.held.values()].flat();
    this.held.clear();
    return held;
  }

  /** Refuses a URL reached through more than `maxRedirects` consecutive redirects, unfetched. @returns true when the URL goes on */
  private settleRedirectLimit(url: ClaimedUrl, now: number): boolean {
    const { maxRedirects } = this.options.settings;
    if (url.redirectHops <= maxRedirects) return true;
    this.options.record({ kind: 'failed', url, error: { code: 'REDIRECT_LIMIT', message: `${url.url} is reached through ${url.redirectHops} consecutive redirects, more than ${maxRedirects}` }, disposition: { fetchMs: 0, nowMs: now } });
    return false;
  }

  /** Settles URLs robots rules out. @returns true when the URL goes on */
  private settleRobots(url: ClaimedUrl, now: number): boolean {
    if (!this.robots) return true;
    const { record } = this.options;
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
        this.options.countRefusal('robots');
        // Blocked, not failed: robots.txt answered, and it says no (state blocked, with the rule).
        record({ kind: 'blocked', url, reason: { code: 'ROBOTS_DISALLOWED', message: `robots.txt disallows ${url.url} for ${this.options.settings.userAgent}` }, robotsLine: decision.robotsLine, disposition: { fetchMs: 0, nowMs: now } });
        return false;
      case 'unavailable': {
        // An unreachable host fails with its own error (what fetching the page would say);
        // a robots.txt that kept failing is ROBOTS_UNAVAILABLE.
        const error = decision.hostUnreachable
          ? decision.error
          : { code: 'ROBOTS_UNAVAILABLE', message: `robots.txt of ${new URL(url.url).origin} stayed unavailable: ${decision.error.message}` };
        record({ kind: 'failed', url, error, disposition: { fetchMs: 0, nowMs: now } });
        return false;
      }
      case 'retry-later':
        record({ kind: 'requeued', url, disposition: { fetchMs: 0, nowMs: now, extraDelayMs: decision.retryAtMs - now, extraDelayReason: 'robots.txt unavailable, retrying' } });
        return false;
      default: {
        const exhaustive: never = decision;
        throw new Error(`Unknown robots decision ${JSON.stringify(exhaustive)}`);
      }
    }
  }
}
