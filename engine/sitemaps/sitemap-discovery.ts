/**
 * Sitemap discovery (sitemaps.org protocol) on the scheduler's thread: which sitemaps a crawl
 * fetches, when, and what each one settled as. Kept light: the fetch and the XML reading happen
 * in the crawl workers (purpose `sitemap`); this keeps the queue, robots.txt and politeness.
 *
 * - Where from: each seed origin's robots.txt `Sitemap:` lines (RFC 9309 §2.3.5) and a probe of
 *   its `/sitemap.xml`, once its robots.txt is known; a sitemap index's `<sitemap><loc>` entries.
 *   An index listed by an index is not read (sitemaps.org: an index lists sitemaps, not indexes),
 *   so discovery always ends. A crawl that ignores robots.txt (`obeyRobots: false`) reads no
 *   `Sitemap:` line (it never fetches robots.txt): only the probe.
 * - robots.txt applies to a sitemap URL as to a page (RobotsGate.decideOutside): a disallowed one
 *   is recorded ROBOTS_DISALLOWED and never requested.
 * - Politeness: a sitemap fetch takes one of its host's request slots in the frontier
 *   (FrontierStore.takeHostSlot), so it waits for the host's politeness delay and connection
 *   limit like a page, and the host's next request waits k × its fetch time (and Crawl-delay) after it.
 */
import type { ErrorInfo } from '../../shared/types/result';
import type { OutsideDecision } from '../schedule/robots-gate';
import type { FrontierStore } from '../store/ports';
import type { SitemapResult } from '../worker/protocol';

/** Seed origins asked about per {@link SitemapDiscovery.dispatch} call. */
const ORIGINS_PER_DISPATCH = 64;

/**
 * Sitemap files one crawl reads at most (stored ones from earlier runs included): one full
 * sitemap index's worth (sitemaps.org: 50,000 sitemaps per index). It bounds the discovery's own
 * memory and work against a robots.txt of thousands of `Sitemap:` lines each naming an index of
 * 50,000 more (a sitemap bomb); past it, an index's entries are counted as refused on its row and
 * robots.txt lines are skipped.
 */
export const MAX_SITEMAPS_PER_CRAWL = 50_000;

/** How a sitemap was found: a robots.txt `Sitemap:` line, the `/sitemap.xml` probe, or a sitemap index. */
export type SitemapFoundVia = 'robots' | 'probe' | 'index';

/** A sitemap the crawl settled: fetched (its result), or refused before any fetch (`result` null, `error` set). */
export interface SettledSitemap {
  url: string;
  foundVia: SitemapFoundVia;
  /** The index that listed it (found via `index`), else null. */
  parentUrl: string | null;
  /** The fetch and what the file held; null when it was never requested. */
  result: SitemapResult | null;
  /**
   * Why it was not used whole, or null: the fetch's or parse's error, ROBOTS_DISALLOWED,
   * SITEMAP_ROBOTS_UNAVAILABLE, SITEMAP_NESTED_INDEX or SITEMAP_TOO_MANY_URLS.
   */
  error: ErrorInfo | null;
  /** An index's entries that are not absolute http(s) URLs, too long, or past MAX_SITEMAPS_PER_CRAWL: not fetched, counted here. */
  refusedEntries: number;
  /** When it settled, epoch ms. */
  settledAtMs: number;
}

interface SitemapTask {
  url: string;
  host: string;
  foundVia: SitemapFoundVia;
  parentUrl: string | null;
}

export interface SitemapDiscoveryOptions {
  /** The crawl's seeds: their origins are where sitemaps are looked for. */
  seeds: readonly string[];
  /** robots.txt, as the robots gate knows it. */
  robots: {
    decideOutside(url: string, nowMs: number): OutsideDecision;
    robotsSitemaps(origin: string): string[] | null;
  };
  /** Sends a sitemap fetch to the worker pool (a free slot is there). @returns the task's sequence number */
  dispatch(url: string): number;
  /** The frontier's host slots: a sitemap fetch holds one, as a page does. */
  hosts: Pick<FrontierStore, 'takeHostSlot' | 'returnHostSlot'>;
  /** A sitemap settled: the result committer stores it and offers its URLs to the frontier. */
  record(settled: SettledSitemap): void;
}

/** Finds, queues and settles a crawl's sitemaps (see the module comment). */
export class SitemapDiscovery {
  /**
   * Seed origins whose robots.txt is awaited before their sitemaps are queued, in the order they
   * are asked next (one asked and still waiting goes to the back, so no origin starves).
   */
  private readonly origins = new Set<string>();
  /** Queued sitemaps per host, first queued first (a host's next one waits for its slot). */
  private readonly queues = new Map<string, { tasks: SitemapTask[]; next: number }>();
  private queued = 0;
  /** Sitemap URLs queued, fetched or stored (a resumed crawl's), so none is fetched twice. */
  private readonly seen = new Set<string>();
  private readonly inFlight = new Map<number, SitemapTask & { crawlDelayMs: number }>();
  /** When waiting work is eligible again (a robots.txt retry, a host's politeness delay), epoch ms; null: only a result wakes it. */
  private wakeAtMs: number | null = null;

  /**
   * @param stored sitemap URLs an earlier run of the crawl stored (not fetched again); a seed
   *   origin whose probe is among them was discovered then, and is not again
   */
  constructor(
    private readonly options: SitemapDiscoveryOptions,
    stored: Iterable<string> = [],
  ) {
    for (const url of stored) this.seen.add(url);
    for (const seed of options.seeds) {
      const { origin } = new URL(seed);
      if (!this.seen.has(probeUrl(origin))) this.origins.add(origin);
    }
  }

  /** Seed origins whose sitemaps are not queued yet (their robots.txt is awaited). */
  pendingOrigins(): string[] {
    return [...this.origins];
  }

  /** True while a sitemap is waiting, queued or being fetched: the crawl is not over. */
  busy(): boolean {
    return this.origins.size > 0 || this.queued > 0 || this.inFlight.size > 0;
  }

  /** When queued work next becomes eligible (epoch ms), as the last {@link dispatch} found; null when only a fetch's end can wake it. */
  nextWakeAtMs(): number | null {
    return this.queued > 0 || this.origins.size > 0 ? this.wakeAtMs : null;
  }

  /**
   * Queues the sitemaps of seed origins whose robots.txt is known (at most
   * {@link ORIGINS_PER_DISPATCH} origins asked per call, so a crawl of many seeds stays cheap per
   * scheduling step), and dispatches eligible ones within `room` fetch slots (a robots.txt fetch
   * asked for on the way takes one). Work per call: the origins asked plus one look per host with
   * queued sitemaps, however many an index queued.
   * @returns slots used
   */
  dispatch(room: number, nowMs: number): number {
    let used = 0;
    this.wakeAtMs = null;
    let asked = 0;
    for (const origin of [...this.origins]) {
      if (used >= room) break;
      if (asked === ORIGINS_PER_DISPATCH) {
        // The rest are asked on the next step, which must come even if nothing else wakes it.
        this.wakeAt(nowMs + 1);
        break;
      }
      asked += 1;
      const decision = this.options.robots.decideOutside(probeUrl(origin), nowMs);
      this.origins.delete(origin);
      if (decision.kind === 'pending') {
        used += decision.slotsUsed;
        this.wakeAt(decision.wakeAtMs);
        this.origins.add(origin);
        continue;
      }
      const host = new URL(origin).hostname;
      for (const listed of this.options.robots.robotsSitemaps(origin) ?? []) this.enqueue(listed, 'robots', null);
      this.enqueue(probeUrl(origin), 'probe', null, host);
    }
    for (const [host, queue] of this.queues) {
      while (queue.next < queue.tasks.length && used < room) {
        const task = queue.tasks[queue.next]!;
        const outcome = this.tryDispatch(task, nowMs);
        if (typeof outcome === 'number') {
          used += outcome;
          break;
        }
        queue.next += 1;
        this.queued -= 1;
        if (outcome === 'dispatched') used += 1;
      }
      if (queue.next === queue.tasks.length) this.queues.delete(host);
      if (used >= room) break;
    }
    return used;
  }

  /**
   * Asks robots.txt and the host's slot for one queued sitemap: dispatched, settled without a
   * fetch (refused), or it waits (a number: the fetch slots its robots.txt fetch took, 0 or 1).
   */
  private tryDispatch(task: SitemapTask, nowMs: number): 'dispatched' | 'settled' | number {
    const decision = this.options.robots.decideOutside(task.url, nowMs);
    switch (decision.kind) {
      case 'pending':
        this.wakeAt(decision.wakeAtMs);
        return decision.slotsUsed;
      case 'allowed': {
        const slot = this.options.hosts.takeHostSlot(task.host, nowMs);
        if (!slot.taken) {
          this.wakeAt(slot.retryAtMs);
          return 0;
        }
        this.inFlight.set(this.options.dispatch(task.url), { ...task, crawlDelayMs: decision.crawlDelayMs });
        return 'dispatched';
      }
      case 'disallowed':
        this.settle(task, null, { code: 'ROBOTS_DISALLOWED', message: `robots.txt disallows the sitemap ${task.url}${decision.robotsLine ? ` (${decision.robotsLine})` : ''}: not fetched` }, nowMs);
        return 'settled';
      case 'unavailable':
        this.settle(task, null, { code: 'SITEMAP_ROBOTS_UNAVAILABLE', message: `robots.txt of ${new URL(task.url).origin} stayed unavailable (${decision.error.code}): the sitemap ${task.url} was not fetched` }, nowMs);
        return 'settled';
      default: {
        const exhaustive: never = decision;
        throw new Error(`Unknown robots decision ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  /**
   * A sitemap fetch ended (task `seq`): its host's next sitemap waits the politeness delay; an
   * index's sitemaps are queued. @returns false when `seq` is not a sitemap task of this run
   */
  onResult(seq: number, result: SitemapResult, nowMs: number): boolean {
    const task = this.inFlight.get(seq);
    if (!task) return false;
    this.inFlight.delete(seq);
    this.options.hosts.returnHostSlot(task.host, { fetchMs: result.fetchMs, nowMs, httpStatus: result.status, extraDelayMs: task.crawlDelayMs });
    const parsed = result.parsed;
    let error = result.error ?? parsed?.error ?? null;
    if (parsed?.kind === 'sitemapindex' && task.foundVia === 'index') {
      this.settle(task, { ...result, parsed: { ...parsed, entries: [] } }, { code: 'SITEMAP_NESTED_INDEX', message: `${task.url} is a sitemap index listed by the index ${task.parentUrl}: its ${parsed.entries.length} entries were not read (sitemaps.org: an index lists sitemaps only)` }, nowMs);
      return true;
    }
    if (error === null && parsed !== null && parsed.entriesOverCap > 0) {
      error = { code: 'SITEMAP_TOO_MANY_URLS', message: `${task.url} lists ${parsed.entries.length + parsed.entriesOverCap} entries, more than sitemaps.org's 50,000: the ${parsed.entriesOverCap} past the first 50,000 were not used` };
    }
    let refused = 0;
    if (parsed?.kind === 'sitemapindex') {
      for (const entry of parsed.entries) if (entry.tooLong === true || !this.enqueue(entry.loc, 'index', task.url)) refused += 1;
    }
    this.settle(task, result, error, nowMs, refused);
    return true;
  }

  private settle(task: SitemapTask, result: SitemapResult | null, error: ErrorInfo | null, nowMs: number, refusedEntries = 0): void {
    this.options.record({ url: task.url, foundVia: task.foundVia, parentUrl: task.parentUrl, result, error, settledAtMs: nowMs, refusedEntries });
  }

  private wakeAt(atMs: number | null): void {
    if (atMs !== null) this.wakeAtMs = Math.min(this.wakeAtMs ?? Infinity, atMs);
  }

  /**
   * Queues a sitemap URL once per crawl (one met again is not queued, and not refused).
   * @returns false when `raw` is not an absolute http(s) URL (an index's entry, a robots.txt line),
   *   or the crawl has met MAX_SITEMAPS_PER_CRAWL sitemaps: refused
   */
  private enqueue(raw: string, foundVia: SitemapFoundVia, parentUrl: string | null, knownHost?: string): boolean {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    url.hash = '';
    const href = url.href;
    if (this.seen.has(href)) return true;
    if (this.seen.size >= MAX_SITEMAPS_PER_CRAWL) return false;
    this.seen.add(href);
    const host = knownHost ?? url.hostname;
    let queue = this.queues.get(host);
    if (!queue) {
      queue = { tasks: [], next: 0 };
      this.queues.set(host, queue);
    }
    queue.tasks.push({ url: href, host, foundVia, parentUrl });
    this.queued += 1;
    return true;
  }
}

/**
 * The `/sitemap.xml` probed on each seed origin.
 * @example probeUrl('http://a.test') → 'http://a.test/sitemap.xml'
 */
export function probeUrl(origin: string): string {
  return `${origin}/sitemap.xml`;
}
