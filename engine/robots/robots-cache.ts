/** robots.txt per origin (RFC 9309 §2.3–2.4): what to do before each fetch, fetch and retry bookkeeping, a byte-bounded cache. */
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import type { ErrorInfo } from '../../shared/types/result';
import { ROBOTS_REDIRECT_FAILURES } from '../fetch/redirects';
import type { HostWaitReason, StoredRobots } from '../store/ports';
import type { RobotsResult } from '../worker/protocol';
import { RobotsTxt, robotsSourceText } from './robots';
import { BoundedCache, estimateStringBytes } from '../dedupe/seen-cache';

/** Origins whose robots.txt state is kept at most. */
export const ROBOTS_CACHE_ENTRIES = 20_000;
/**
 * Estimated bytes of robots.txt rules kept at most (one file is up to 500 KiB of rules): an
 * origin evicted is read back from the robots store (RobotsGate.prepare), or asked for its
 * robots.txt again when the crawl has none.
 */
export const ROBOTS_CACHE_BYTES = 64 * 1024 * 1024;

function originStateBytes(origin: string, state: OriginState): number {
  const rules = state.state === 'ready' && state.rules !== null ? state.rules.approxBytes : 0;
  return estimateStringBytes(origin) + 256 + rules;
}

/** What the scheduler must do with a URL about to be fetched, as far as robots.txt goes. */
export type RobotsDecision =
  | { kind: 'allowed'; crawlDelayMs: number }
  /** robots.txt refuses the URL; `robotsLine` quotes the rule (`12: Disallow: /private/`, RobotsTxt.ruleLine). */
  | { kind: 'disallowed'; robotsLine: string | null }
  /** No rules yet: fetch `robotsUrl` (the caller dispatches it and calls {@link RobotsCache.record}). */
  | { kind: 'fetch'; robotsUrl: string }
  /** The origin's robots.txt is being fetched: hold the URL until it arrives. */
  | { kind: 'wait' }
  /** robots.txt answered 5xx or was unreachable: treat the host as disallowed and retry at `retryAtMs`. */
  | { kind: 'retry-later'; retryAtMs: number }
  /**
   * robots.txt stayed unavailable after every retry, or the host is unreachable (DNS, refused,
   * not in the resolver map): the host's URLs are not fetched in this crawl.
   */
  | { kind: 'unavailable'; error: ErrorInfo; hostUnreachable: boolean };

/**
 * Errors that mean the host cannot be reached at all: retrying robots.txt would only delay the
 * same failure for its pages, so they fail at once with this error.
 */
const UNREACHABLE_HOST = new Set(['HOST_NOT_MAPPED', 'DNS_FAILED', 'CONNECTION_REFUSED']);

type OriginState =
  | { state: 'fetching'; failures: number }
  | { state: 'ready'; rules: RobotsTxt | null; expiresAtMs: number }
  | { state: 'failed'; failures: number; retryAtMs: number; error: ErrorInfo };

export interface RobotsCacheOptions {
  userAgent: string;
  /** How long fetched rules are reused. */
  ttlMs: number;
  maxCrawlDelayMs: number;
  /** Wait before asking again after a 5xx / unreachable robots.txt, ms; doubles per failure. @default DEFAULT_CRAWL_SETTINGS.robotsRetryDelayMs (10 000) */
  retryDelayMs?: number;
  /** Failed fetches before the origin is given up for this crawl. @default 4 */
  maxFailures?: number;
}

/**
 * Per-origin robots.txt state (seed 003: a cache of robots.txt files, checked immediately before
 * each fetch). RFC 9309 §2.3.1: 2xx → parse; 4xx → no rules, everything allowed; 5xx or no
 * answer → the whole host is disallowed for now and retried later (with doubling delay), given up
 * after `maxFailures`. Redirects are followed by the fetch (RFC 9309 §2.3.1.2, at least five, the
 * rules applying to the origin asked); a redirect loop, more redirects than that limit or a
 * Location that is not http(s) makes robots.txt "unavailable" (§2.3.1.2 "MAY assume that the
 * robots.txt file is unavailable"), which §2.3.1.3 treats like a 4xx: no rules, everything allowed.
 */
export class RobotsCache {
  /** Per origin, bounded by entries and bytes (a crawl with scope any meets unbounded origins). */
  private readonly origins = new BoundedCache<OriginState>({ maxEntries: ROBOTS_CACHE_ENTRIES, maxBytes: ROBOTS_CACHE_BYTES, sizeOf: originStateBytes });

  constructor(private readonly options: RobotsCacheOptions) {}

  /** The decision for `url` at `nowMs`. A 'fetch' decision marks the origin as fetching. */
  decide(url: string, nowMs: number): RobotsDecision {
    const { origin } = new URL(url);
    const entry = this.origins.get(origin);
    const robotsUrl = `${origin}/robots.txt`;
    if (url === robotsUrl) return { kind: 'allowed', crawlDelayMs: 0 };
    if (!entry || (entry.state === 'ready' && entry.expiresAtMs <= nowMs)) {
      this.origins.set(origin, { state: 'fetching', failures: 0 });
      return { kind: 'fetch', robotsUrl };
    }
    switch (entry.state) {
      case 'fetching':
        return { kind: 'wait' };
      case 'failed':
        if (entry.failures >= (this.options.maxFailures ?? 4)) return { kind: 'unavailable', error: entry.error, hostUnreachable: UNREACHABLE_HOST.has(entry.error.code) };
        if (entry.retryAtMs > nowMs) return { kind: 'retry-later', retryAtMs: entry.retryAtMs };
        this.origins.set(origin, { state: 'fetching', failures: entry.failures });
        return { kind: 'fetch', robotsUrl };
      case 'ready': {
        if (!entry.rules) return { kind: 'allowed', crawlDelayMs: 0 };
        const verdict = entry.rules.check(url, this.options.userAgent);
        if (!verdict.allowed) return { kind: 'disallowed', robotsLine: verdict.matchedLine === null ? null : entry.rules.ruleLine(verdict.matchedLine) };
        const delay = entry.rules.crawlDelayMs(this.options.userAgent) ?? 0;
        return { kind: 'allowed', crawlDelayMs: Math.min(delay, this.options.maxCrawlDelayMs) };
      }
      default: {
        const exhaustive: never = entry;
        throw new Error(`Unknown robots state ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  /**
   * Records a robots.txt fetch for its origin.
   * @returns what to keep in the robots store when the answer decides rules (2xx, 4xx, a redirect
   *   failure: ready until `nowMs + ttlMs`); null when it is retried (5xx, unreachable), as those
   *   are not cached past this crawl's retries (RFC 9309 §2.4: "unless unreachable")
   */
  record(result: RobotsResult, nowMs: number): StoredRobots | null {
    const { origin } = new URL(result.url);
    const previous = this.origins.get(origin);
    const failures = previous && previous.state !== 'ready' ? previous.failures : 0;
    const expiresAtMs = nowMs + this.options.ttlMs;
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      const body = robotsSourceText(result.text);
      this.origins.set(origin, { state: 'ready', rules: new RobotsTxt(result.url, result.text), expiresAtMs });
      return { origin, status: result.status, errorCode: null, body, fetchedAtMs: nowMs, expiresAtMs };
    }
    if ((result.status !== null && result.status >= 400 && result.status < 500) || (result.error !== null && ROBOTS_REDIRECT_FAILURES.has(result.error.code))) {
      this.origins.set(origin, { state: 'ready', rules: null, expiresAtMs });
      return { origin, status: result.status, errorCode: result.error?.code ?? null, body: '', fetchedAtMs: nowMs, expiresAtMs };
    }
    const error = result.error ?? { code: `ROBOTS_HTTP_${result.status}`, message: `robots.txt answered HTTP ${result.status}` };
    const delay = (this.options.retryDelayMs ?? DEFAULT_CRAWL_SETTINGS.robotsRetryDelayMs) * 2 ** failures;
    const given = UNREACHABLE_HOST.has(error.code) ? (this.options.maxFailures ?? 4) : failures + 1;
    this.origins.set(origin, { state: 'failed', failures: given, retryAtMs: nowMs + delay, error });
    return null;
  }

  /**
   * True when nothing is known of `origin` (never asked in this run, or evicted): the robots
   * store may know it. An origin being fetched, retried or ready (even expired) is known.
   */
  misses(origin: string): boolean {
    return this.origins.get(origin) === undefined;
  }

  /**
   * Takes back a robots.txt a store kept (as {@link record} returned it), unless this run already
   * knows the origin. It stays ready until its stored expiry, or `fetchedAtMs + ttlMs` when this
   * crawl's TTL is shorter now; an entry expired by then is ignored (the origin is asked again).
   */
  restore(entry: StoredRobots, nowMs: number): void {
    if (!this.misses(entry.origin)) return;
    const expiresAtMs = Math.min(entry.expiresAtMs, entry.fetchedAtMs + this.options.ttlMs);
    if (expiresAtMs <= nowMs) return;
    const hasRules = entry.status !== null && entry.status >= 200 && entry.status < 300;
    this.origins.set(entry.origin, { state: 'ready', rules: hasRules ? new RobotsTxt(`${entry.origin}/robots.txt`, entry.body) : null, expiresAtMs });
  }

  /**
   * The `Sitemap:` URLs of `origin`'s robots.txt as written (RFC 9309 §2.3.5), [] when it has no
   * rules (4xx, unavailable); null when its robots.txt is not known (never asked, being fetched, failed).
   */
  sitemaps(origin: string): string[] | null {
    const entry = this.origins.get(origin);
    if (!entry || entry.state !== 'ready') return null;
    return entry.rules?.sitemaps() ?? [];
  }

  /** Estimated bytes of the robots.txt state held (at most ROBOTS_CACHE_BYTES). */
  get bytes(): number {
    return this.origins.bytes;
  }

  /** Why an origin's URLs are waiting, for the Frontier view; null when nothing robots-related holds them. */
  waitingReason(origin: string): HostWaitReason | null {
    const entry = this.origins.get(origin);
    if (!entry) return null;
    if (entry.state === 'fetching') return 'robots.txt pending';
    if (entry.state === 'failed') return 'robots.txt unavailable, retrying';
    return null;
  }
}
