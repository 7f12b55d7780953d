import os from 'node:os';
import type { Database } from 'better-sqlite3';
import type { CrawlProgress, CrawlSettings, CrawlStatus, CrawlSummary } from '../../../shared/types/crawl';
import { CodedError } from '../../../shared/types/result';
import { CrawlRepository } from '../db/crawl-repository';
import { SqliteFrontier, type ClaimedUrl, type FrontierCandidate } from './frontier';
import type { PageResult } from './protocol';
import { compileLinkRules, type LinkRuleName, type LinkUnderTest } from './link-rules';
import { scopeSeeds } from './scope';
import type { UrlIdentity } from './url-identity';
import { WorkerPool, type PoolMessage } from './worker-pool';
import type { Result } from '../../../shared/types/result';

/** Callbacks a crawl reports through; the service turns them into IPC events, the CLI into stderr lines. */
export interface CrawlListener {
  onProgress?(progress: CrawlProgress): void;
  onFinish?(summary: CrawlSummary): void;
}

export interface CrawlRunnerOptions {
  db: Database;
  crawlId: number;
  settings: CrawlSettings;
  seeds: readonly string[];
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
/** Results buffered beyond this many are committed at once. */
const MAX_UNCOMMITTED = 256;

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
  private readonly allowedProtocols: Set<string>;
  /** Links refused per rule in this run (persisted per link in `links.refused_by`). */
  private readonly refusals: Partial<Record<LinkRuleName, number>> = {};
  private readonly now: () => number;
  private readonly inFlight = new Map<number, ClaimedUrl>();
  private readonly completions: number[] = [];
  private readonly aliasesSeen = new Set<string>();
  private pool: WorkerPool | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private commitTimer: NodeJS.Timeout | null = null;
  private readonly uncommitted: { url: ClaimedUrl; message: PoolMessage; nowMs: number }[] = [];
  private progressTimer: NodeJS.Timeout | null = null;
  private stopping: CrawlStatus | null = null;
  private startedAtMs = 0;
  private finished: ((summary: CrawlSummary) => void) | null = null;
  private failedRun: ((error: Error) => void) | null = null;
  private lastProgressJson = '';
  private finalStatus: CrawlStatus | null = null;

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
    this.linkRules = compileLinkRules(options.settings, seeds);
    this.allowedProtocols = new Set(options.settings.allowedProtocols.map((p) => `${p}:`));
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
    this.options.db.transaction(() => {
      const { ids } = this.frontier.add(seeds, this.now());
      ids.forEach((id, index) => this.recordAlias(id, seeds[index]!.url, null));
    })();
    this.repository.setStatus(this.options.crawlId, 'running', null);

    const { settings } = this.options;
    const workers = Math.max(1, Math.min(settings.threads, os.availableParallelism()));
    this.pool = new WorkerPool(workers, { settings, concurrency: Math.ceil(settings.threads / workers) }, (message) => this.onWorkerMessage(message));
    try {
      await this.pool.start();
    } catch (error) {
      await this.pool.shutdown();
      this.repository.setStatus(this.options.crawlId, 'interrupted', null);
      throw error;
    }
    const done = new Promise<CrawlSummary>((resolve, reject) => {
      this.finished = resolve;
      this.failedRun = reject;
    });
    this.progressTimer = setInterval(() => this.reportProgress(false), this.options.progressIntervalMs ?? 250);
    this.pump();
    return done;
  }

  /** Stops claiming new URLs; in-flight fetches finish and are recorded, then the crawl ends as `stopped`. */
  stop(status: Extract<CrawlStatus, 'stopped' | 'paused'> = 'stopped'): void {
    if (this.stopping) return;
    this.stopping = status;
    this.pump();
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
    };
  }

  private pump(): void {
    if (!this.pool || !this.finished) return;
    if (this.wakeTimer) {
      clearTimeout(this.wakeTimer);
      this.wakeTimer = null;
    }
    const { maxPages } = this.options.settings;
    const fetchedOrFetching = () => {
      const counts = this.frontier.counts();
      return counts.done + counts.error + counts.inFlight;
    };
    let room = this.stopping ? 0 : this.pool.freeSlots();
    if (maxPages > 0) room = Math.min(room, maxPages - fetchedOrFetching());
    if (room > 0) {
      let claimed = this.claim(room);
      // Idle slots and results waiting to be committed: commit now, their links may be the work.
      if (claimed < room && this.uncommitted.length > 0) {
        this.commit();
        claimed += this.claim(room - claimed);
      }
    }
    const counts = this.frontier.counts();
    if (counts.inFlight === 0) {
      if (this.uncommitted.length > 0) this.commit();
      const limitReached = maxPages > 0 && counts.done + counts.error >= maxPages;
      if (this.stopping || counts.pending === 0 || limitReached) {
        // A limit leaves work in the frontier: that crawl is stopped (resumable), not finished.
        void this.finish(this.stopping ?? (counts.pending === 0 ? 'finished' : 'stopped'));
        return;
      }
    }
    const nextAt = this.frontier.nextEligibleAtMs();
    if (nextAt !== null && this.pool.freeSlots() > 0 && !this.stopping) {
      this.wakeTimer = setTimeout(() => this.pump(), Math.max(1, nextAt - this.now()));
    }
  }

  /** Claims up to `room` eligible URLs and hands them to the pool. @returns how many */
  private claim(room: number): number {
    const now = this.now();
    const next = this.frontier.nextEligibleAtMs();
    if (next === null || next > now) return 0;
    const claimed = this.options.db.transaction(() => this.frontier.claimNext(room, now))();
    for (const url of claimed) {
      this.inFlight.set(url.id, url);
      this.pool!.dispatch({ urlId: url.id, url: url.url });
    }
    return claimed.length;
  }

  private onWorkerMessage(message: PoolMessage): void {
    const url = this.inFlight.get(message.urlId);
    if (!url) return;
    this.inFlight.delete(message.urlId);
    const nowMs = this.now();
    this.uncommitted.push({ url, message, nowMs });
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
      this.options.db.transaction(() => {
        for (const { url, message, nowMs } of batch) {
          if (message.type === 'page') this.recordPage(url, message.result, nowMs);
          else this.frontier.fail(url, message.error, { fetchMs: message.fetchMs, nowMs });
        }
      })();
    } catch (error) {
      this.failedRun?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private recordPage(url: ClaimedUrl, page: PageResult, now: number): void {
    const { crawlId } = this.options;
    this.repository.insertPage(crawlId, {
      urlId: url.id,
      finalUrl: page.finalUrl,
      httpStatus: page.status,
      contentType: page.contentType,
      bodyBytes: page.bodyBytes,
      truncated: page.truncated,
      fetchMs: page.fetchMs,
      title: page.title,
      redirectChainJson: page.redirectChain.length > 0 ? JSON.stringify(page.redirectChain) : null,
      fetchedAtMs: now,
    });
    const disposition = { fetchMs: page.fetchMs, nowMs: now, httpStatus: page.status };
    if (page.status >= 400) {
      this.frontier.fail(url, { code: `HTTP_${page.status}`, message: `HTTP ${page.status} from ${page.finalUrl}` }, disposition);
    } else {
      this.frontier.complete(url, disposition);
    }

    const depth = url.depth + 1;
    const candidates: FrontierCandidate[] = [];
    const pendingLinks: { raw: string; kind: string; refusedBy: LinkRuleName | null }[] = [];
    const refuse = (raw: string, kind: string, rule: LinkRuleName) => {
      this.refusals[rule] = (this.refusals[rule] ?? 0) + 1;
      pendingLinks.push({ raw: raw.slice(0, 2048), kind, refusedBy: rule });
    };
    for (const link of page.links) {
      let parsed: URL;
      try {
        parsed = new URL(link.url);
      } catch {
        refuse(link.url, link.kind, 'invalid-url');
        continue;
      }
      // Scheme first: mailto:/javascript: are never normalized, only counted.
      if (!this.allowedProtocols.has(parsed.protocol)) {
        refuse(link.url, link.kind, 'protocol');
        continue;
      }
      const identity = this.options.identify(link.url);
      if (!identity.ok) {
        refuse(link.url, link.kind, 'invalid-url');
        continue;
      }
      const target = identity.value;
      const rule = this.linkRules({ url: parsed, raw: link.url, registrableDomain: target.registrableDomain, depth, pageNofollow: page.nofollow });
      if (rule !== null) {
        refuse(link.url, link.kind, rule);
        continue;
      }
      candidates.push({ ...target, depth, discoveredFrom: url.id });
      pendingLinks.push({ raw: link.url, kind: link.kind, refusedBy: null });
    }
    for (let i = 0; i < page.unresolvableLinks; i += 1) this.refusals['invalid-url'] = (this.refusals['invalid-url'] ?? 0) + 1;
    const { ids } = this.frontier.add(candidates, now);
    let next = 0;
    const written = new Set<string>();
    for (const link of pendingLinks) {
      const toUrlId = link.refusedBy === null ? (ids[next++] ?? null) : null;
      if (toUrlId !== null) this.recordAlias(toUrlId, link.raw, url.id);
      // One link row per (target, kind) of a page: `#fragment` variants of one target are one link.
      const dedupe = toUrlId !== null ? `${link.kind} ${toUrlId}` : `${link.kind} ${link.raw}`;
      if (written.has(dedupe)) continue;
      written.add(dedupe);
      this.repository.insertLink(crawlId, { fromUrlId: url.id, rawUrl: link.raw, toUrlId, kind: link.kind, refusedBy: link.refusedBy });
    }
  }

  /** Stores each distinct raw spelling of a URL once; a bounded cache skips the repeats. */
  private recordAlias(urlId: number, raw: string, fromUrlId: number | null): void {
    const key = `${urlId} ${raw}`;
    if (this.aliasesSeen.has(key)) return;
    if (this.aliasesSeen.size >= 100_000) this.aliasesSeen.clear();
    this.aliasesSeen.add(key);
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
    const resolve = this.finished;
    if (!resolve) return;
    this.finished = null;
    if (this.progressTimer) clearInterval(this.progressTimer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.commit();
    await this.pool?.shutdown();
    this.repository.setStatus(this.options.crawlId, status, this.now());
    this.stopping = status === 'finished' ? null : (status as 'stopped' | 'paused');
    this.finalStatus = status;
    this.reportProgress(true);
    const summary = this.repository.getCrawl(this.options.crawlId);
    this.options.listener?.onFinish?.(summary);
    resolve(summary);
  }
}
