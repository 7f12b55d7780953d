/**
 * The crawl runner: wires the scheduler, robots gate, link pipeline and result committer over a
 * crawl's storage ports and the worker pool, and owns the run's lifecycle (run, stop, fail/abort,
 * finish), its timers and its listener.
 */
import os from 'node:os';
import type { CrawlProgress, CrawlSettings, CrawlStatus, CrawlSummary } from '../../shared/types/crawl';
import { CodedError, type Result } from '../../shared/types/result';
import { ResultCommitter } from '../commit/result-committer';
import { LinkPipeline } from '../links/link-pipeline';
import { SitemapDiscovery } from '../sitemaps/sitemap-discovery';
import type { UrlIdentity } from '../links/url-identity';
import type { TrapState } from '../../shared/types/traps';
import type { CrawlStores, FrontierCandidate, HostState, RefetchOutcome, TrapStateChange } from '../store/ports';
import { TrapGuard } from '../traps/trap-guard';
import { WorkerPool, type FetchTask, type PoolMessage } from '../worker/worker-pool';
import { CrawlCookieJar } from '../cookies/crawl-cookie-jar';
import type { WarcSink } from '../warc/warc-sink';
import { requestHeaders } from '../fetch/fetcher';
import type { RequestRuleSecrets } from '../../shared/types/request-rules';
import { housekeepingStats, ProgressMeter, type HousekeepingStats } from './progress';
import { settle } from './retry-policy';
import { RobotsGate } from './robots-gate';
import { Scheduler, type TaskPool } from './scheduler';

export type { HousekeepingStats } from './progress';
export { validateSeeds } from './seeds';

/** Callbacks a crawl reports through; the service turns them into IPC events, the CLI into stderr lines. */
export interface CrawlListener {
  /** At most every `progressIntervalMs`, when something changed; once more at the end. */
  onProgress?(progress: CrawlProgress): void;
  /** Every second while the crawl runs. */
  onHousekeeping?(stats: HousekeepingStats): void;
  /** The crawl ended (finished, stopped or paused), with its stored summary. */
  onFinish?(summary: CrawlSummary): void;
}

/** What a run needs: the crawl's stores, settings, seeds, URL identity, and its listener. */
export interface CrawlRunnerOptions {
  /**
   * The crawl's storage ports (store/ports.ts), e.g. createSqliteCrawlStores(db, crawlId, settings)
   * under the crawl lease. The run writes only through them.
   */
  stores: CrawlStores;
  /** The crawl's effective settings (seed document 004: limits, politeness, link rules, robots). */
  settings: CrawlSettings;
  /** Seed URLs as stored with the crawl (validateSeeds); each must have an identity. */
  seeds: readonly string[];
  /**
   * A URL's identity under `settings.normalizationProfile` and `settings.tld` (see
   * createCrawlIdentifier). The runner caches it per URL, fragment-free when that profile drops
   * fragments.
   */
  identify: (raw: string) => Result<UrlIdentity>;
  /** Where progress, housekeeping and the end are reported. */
  listener?: CrawlListener;
  /** Minimum gap between two progress reports, ms. @default 250 (at most 4 a second) */
  progressIntervalMs?: number;
  /**
   * Longest time a finished fetch waits before its disposition is committed, ms. Results are
   * written in one transaction per window (earlier when fetch slots would otherwise sit idle), so
   * a killed process loses at most the URLs in flight or in this window, which resume as pending.
   * @default 500
   */
  commitIntervalMs?: number;
  /** The clock, epoch ms. @default Date.now */
  now?: () => number;
  /**
   * The run's live WARC (issue 14 part 6): the workers build each page fetch's records and the
   * sink appends them; the run's end waits for its last append. The caller opens and closes its
   * file. A failed append ends the run as a failed write does. Absent: no WARC.
   */
  warc?: WarcSink;
  /** Request rules with their secrets (issue 14 part 4), handed to the workers in memory. @default none */
  requestRules?: readonly RequestRuleSecrets[];
  /**
   * Where the crawl's cookie jar is kept between runs, when settings.cookieJar is on (issue 14
   * part 4): its state from the last run (CrawlCookieJar.serialize; null: empty), and a write of
   * its state, called before each commit batch when cookies changed since the last (so a page is
   * never committed before the cookies its answer set). A failed write ends the run (interrupted)
   * as a failed store write does. Absent: the jar lives in this run's memory only.
   */
  cookies?: { serialized: string | null; persist: (serialized: string) => void };
}

/**
 * Runs one crawl to its end (IIR 20.2 cycle): claims eligible URLs from the frontier, fetches and
 * parses them on the worker pool, records each result and its links in one unit of work per
 * commit batch (so a killed process loses at most the URLs in flight), and ends when the frontier
 * is empty and nothing is in flight, on the page limit, or on stop().
 */
export class CrawlRunner {
  private readonly stores: CrawlStores;
  private readonly now: () => number;
  private readonly meter: ProgressMeter;
  private readonly gate: RobotsGate;
  private readonly links: LinkPipeline;
  private readonly committer: ResultCommitter;
  private readonly scheduler: Scheduler;
  /** The crawl's trap guard; null when settings.trapGuard is off. */
  private readonly traps: TrapGuard | null;
  /** The crawl's cookie jar; null when settings.cookieJar is off. */
  private readonly cookies: CrawlCookieJar | null;
  private pool: WorkerPool | null = null;
  /** Sitemap discovery (settings.sitemaps 'auto'), made in run() once the stored sitemaps are read. */
  private sitemaps: SitemapDiscovery | null = null;
  private progressTimer: NodeJS.Timeout | null = null;
  private housekeepingTimer: NodeJS.Timeout | null = null;
  private stopping: CrawlStatus | null = null;
  private finished: ((summary: CrawlSummary) => void) | null = null;
  private failedRun: ((error: Error) => void) | null = null;
  /** finish() is under way (its last commit, the pool's shutdown): nothing more is scheduled. */
  private finishing = false;
  private finalStatus: CrawlStatus | null = null;

  constructor(private readonly options: CrawlRunnerOptions) {
    const { stores, settings } = options;
    this.stores = stores;
    this.now = options.now ?? Date.now;
    this.meter = new ProgressMeter(stores.crawlId, this.now);
    const countRefusal = (rule: string, count?: number) => this.meter.countRefusal(rule, count);
    this.gate = new RobotsGate({
      settings,
      frontier: stores.frontier,
      record: (outcome) => {
        // Decided without a fetch: the host's slot is free now, the outcome commits with the batch.
        stores.frontier.releaseHost(outcome.url, outcome.disposition);
        this.committer.addOutcome(outcome);
      },
      countRefusal,
      dispatchRobots: (urlId, robotsUrl) => this.pool!.dispatch({ urlId, url: robotsUrl, purpose: 'robots' }),
      ...(stores.robots ? { store: stores.robots, onStoreError: (error: Error) => void this.abort(error) } : {}),
    });
    this.links = new LinkPipeline({ settings, seeds: options.seeds, identify: options.identify, countRefusal });
    this.traps = settings.trapGuard ? new TrapGuard() : null;
    this.cookies = settings.cookieJar ? new CrawlCookieJar(options.cookies ?? {}) : null;
    this.committer = new ResultCommitter({
      stores,
      settings,
      links: this.links,
      onDuplicates: (count) => this.meter.countDuplicate(count),
      onWindowCommitted: () => this.scheduler.pump(),
      onError: (error) => void this.abort(error),
      // A page's cookies are kept before the page is committed: a resume after a crash never lacks
      // the session cookie of a login it will not fetch again.
      ...(this.cookies ? { beforeWrite: () => this.persistCookies() } : {}),
      ...(options.commitIntervalMs !== undefined ? { commitIntervalMs: options.commitIntervalMs } : {}),
      ...(this.traps ? { traps: this.traps } : {}),
    });
    this.scheduler = new Scheduler({
      frontier: stores.frontier,
      gate: this.gate,
      committer: this.committer,
      maxPages: settings.maxPages,
      now: this.now,
      running: () => this.finished !== null && !this.finishing,
      stopping: () => this.stopping,
      finish: (status) => void this.finish(status),
      abort: (error) => void this.abort(error),
      sideWork: {
        dispatch: (room, nowMs) => this.sitemaps?.dispatch(room, nowMs) ?? 0,
        busy: () => this.sitemaps?.busy() ?? false,
        nextWakeAtMs: () => this.sitemaps?.nextWakeAtMs() ?? null,
      },
    });
  }

  /** The crawl this runner runs. */
  get crawlId(): number {
    return this.stores.crawlId;
  }

  /**
   * Enqueues the seeds (the URL-seen test skips seeds already known, so a resumed crawl
   * re-adds nothing) and runs until the crawl ends.
   * @returns the final summary
   * @throws CodedError INVALID_SEED when no seed can be identified; a storage error when the
   *   store refuses a write (the crawl is left `interrupted`)
   */
  async run(): Promise<CrawlSummary> {
    this.meter.startedAtMs = this.now();
    const seeds: FrontierCandidate[] = [];
    // In list mode the seeds are the list (issue 12 part 2): recorded with source `list`, and no sitemap is read.
    const listMode = this.options.settings.crawlMode === 'list';
    for (const seed of this.options.seeds) {
      const identity = this.options.identify(seed);
      if (!identity.ok) throw new CodedError('INVALID_SEED', `Seed ${seed}: ${identity.error.message}`);
      seeds.push({ ...identity.value, depth: 0, discoveredFrom: null, source: listMode ? 'list' : 'seed' });
    }
    const { writer } = this.stores;
    const { settings } = this.options;
    // At most a worker per core (and per fetch slot). The pool starts with one and adds the others
    // while its workers are busy and cores idle (engine/worker/pool-growth.ts); a rendering crawl
    // starts them all, since each has its own Chromium and its loop waits on it (never looks busy).
    const workers = Math.max(1, Math.min(settings.threads, os.availableParallelism()));
    const initialWorkers = (settings.render ?? 'off') === 'off' ? 1 : workers;
    const warc = this.options.warc ? { warc: { gzip: this.options.warc.gzip } } : {};
    const rules = this.options.requestRules && this.options.requestRules.length > 0 ? { requestRules: [...this.options.requestRules] } : {};
    const pool = new WorkerPool(workers, { settings, concurrency: settings.threads, ...warc, ...rules }, (message) => this.onWorkerMessage(message), {
      initialSize: initialWorkers,
      // Workers that cannot start at all end the run (interrupted, resumable), not its URLs one by one.
      onUnavailable: (error) => void this.abort(error),
    });
    // The workers load while the store answers below (each thread compiles the engine: about a
    // third of a second on 2 cores, which the store's first reads and the seeds' commit no longer wait
    // behind); the pool takes no task before `started` settles and the seeds are stored.
    const started = pool.start();
    started.catch(() => undefined);
    try {
      // What earlier runs stored: duplicates counted so far, and seed redirects that widen the scope.
      const [duplicates, seedRedirectTargets, knownTraps, storedSitemaps] = await Promise.all([writer.duplicateCount(), writer.seedRedirectTargets(), writer.knownTraps(), writer.storedSitemaps()]);
      this.meter.countDuplicate(duplicates);
      this.traps?.addKnown(knownTraps);
      this.links.addSeedRedirectTargets(seedRedirectTargets);
      if (this.options.settings.sitemaps === 'auto' && !listMode) {
        this.sitemaps = this.sitemapDiscovery(storedSitemaps);
        // Stored robots.txt files of the seed origins first: a resumed crawl does not ask again within their TTL.
        await this.gate.prepareOrigins(this.sitemaps.pendingOrigins(), this.now());
      }
      const aliases = seeds.flatMap((seed) => this.links.alias(seed.normalizedKey, seed.url, null) ?? []);
      await writer.commit({ nowMs: this.now(), candidates: seeds, aliases, status: { status: 'running', finishedAtMs: null } });
    } catch (error) {
      await pool.shutdown();
      await this.markInterrupted();
      throw error;
    }

    this.options.warc?.attach({ requestHeaders: requestHeaders(settings.userAgent), onError: (error) => void this.abort(error) });
    this.pool = pool;
    try {
      await started;
    } catch (error) {
      await pool.shutdown();
      await this.markInterrupted();
      throw error;
    }
    const done = new Promise<CrawlSummary>((resolve, reject) => {
      this.finished = resolve;
      this.failedRun = reject;
    });
    this.progressTimer = setInterval(() => this.reportProgress(false), this.options.progressIntervalMs ?? 250);
    this.housekeepingTimer = setInterval(() => this.options.listener?.onHousekeeping?.(this.housekeeping()), 1000);
    this.scheduler.start(this.cookies ? withCookies(pool, this.cookies, (this.options.settings.render ?? 'off') !== 'off') : pool);
    return done;
  }

  /**
   * Ends the run on an error from outside it (e.g. an automatic checkpoint that hit a full disk):
   * the same path as a failed write, the crawl left `interrupted` and run() rejecting with `error`.
   */
  fail(error: Error): void {
    void this.abort(error);
  }

  /** Stops claiming new URLs; in-flight fetches finish and are recorded, then the crawl ends as `stopped` (or `paused`). */
  stop(status: Extract<CrawlStatus, 'stopped' | 'paused'> = 'stopped'): void {
    if (this.stopping) return;
    this.stopping = status;
    this.scheduler.pump();
  }

  /**
   * Fetches a settled URL of this crawl again, first in its host's queue ("Re-fetch now"): the
   * robots gate and the host's politeness delay apply as to any URL.
   * @returns what the frontier did (queued, or already queued / in flight / not in this crawl)
   * @throws CodedError CRAWL_NOT_RUNNING when the run is over or stopping (nothing would fetch it);
   *   a storage error when the write is refused
   */
  async refetch(urlId: number): Promise<RefetchOutcome> {
    if (!this.finished || this.finishing || this.stopping) throw new CodedError('CRAWL_NOT_RUNNING', `Crawl ${this.crawlId} is not running: resume it to fetch URLs`);
    const outcome = await this.stores.frontier.refetch(urlId, this.now());
    if (outcome === 'queued') this.scheduler.pump();
    return outcome;
  }

  /**
   * Releases or excludes a suspected crawler trap of this crawl (or suspects it again): released,
   * its held URLs go back to pending and are fetched, and the guard no longer holds its matches;
   * excluded, they stay held and new matches are held too.
   * @returns the change, or null when the crawl has no such trap
   * @throws CodedError CRAWL_NOT_RUNNING when the run is over or stopping (change the database instead);
   *   a storage error when the write is refused
   */
  async setTrapState(trapId: number, state: TrapState): Promise<TrapStateChange | null> {
    if (!this.finished || this.finishing) throw new CodedError('CRAWL_NOT_RUNNING', `Crawl ${this.crawlId} is not running: its traps are changed in the database directly`);
    const change = await this.stores.frontier.setTrapState(trapId, state, this.now());
    if (change === null) return null;
    this.traps?.setState(change.pattern, state);
    if (change.released > 0) this.scheduler.pump();
    return change;
  }

  /**
   * Live state of every host this run has met: in flight, next eligible time (epoch ms), and why
   * it waits (robots.txt pending comes from the robots gate; delays from the frontier).
   */
  hostStates(): HostState[] {
    return this.stores.frontier.hostStates(this.now()).map((state) => {
      const robotsReason = this.gate.waitingReason(state.host);
      return robotsReason && state.waitingReason === null ? { ...state, waitingReason: robotsReason } : state;
    });
  }

  /** The housekeeping report: progress plus frontier size and host activity. */
  housekeeping(): HousekeepingStats {
    return housekeepingStats(this.progress(), this.stores.frontier.hostStates(this.now()));
  }

  /** Current counters (pages per second over the last 5 s). */
  progress(): CrawlProgress {
    return this.meter.progress(this.stores.frontier.counts(), this.finalStatus ?? this.stopping ?? 'running');
  }

  /** Sitemap discovery over this run's robots gate, worker pool, politeness and committer. */
  private sitemapDiscovery(stored: readonly string[]): SitemapDiscovery {
    const { frontier } = this.stores;
    return new SitemapDiscovery(
      {
        seeds: this.options.seeds,
        robots: this.gate,
        dispatch: (url) => this.pool!.dispatch({ urlId: 0, url, purpose: 'sitemap' }),
        hosts: frontier,
        record: (settled) => this.committer.addSitemap(settled),
      },
      stored,
    );
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
      this.scheduler.addReady(this.gate.onRobots(message.seq, message.result, this.now()));
      this.scheduler.pump();
      return;
    }
    if (message.type === 'sitemap') {
      this.sitemaps?.onResult(message.seq, message.result, this.now());
      this.scheduler.pump();
      return;
    }
    const url = this.scheduler.takeInFlight(message.urlId);
    if (!url) return;
    if (message.type === 'page' && message.result.warc) {
      // Every fetch is archived, a retried 503 too: it happened. The records leave the result here (the committer keeps it until its batch).
      this.options.warc?.record(message.result);
      delete message.result.warc;
    }
    if (message.type === 'page' && message.result.setCookies) {
      this.cookies?.store(message.result.finalUrl, message.result.setCookies);
      delete message.result.setCookies;
    }
    // A page fetch follows no redirect: the answer that failed to parse or render came from url.url.
    if (message.type === 'failed' && message.setCookies) {
      this.cookies?.store(url.url, message.setCookies);
      delete message.setCookies;
    }
    const nowMs = this.now();
    const settled = settle(url, message, nowMs, this.options.settings, this.gate.crawlDelayMs(url.host));
    // The host's slot and politeness delay do not wait for the commit: the fetch is over.
    this.stores.frontier.releaseHost(url, settled.disposition);
    this.meter.countCompletion(nowMs);
    this.committer.add(settled);
    this.scheduler.pump();
  }

  /**
   * Ends a run that cannot go on (e.g. the store refused a write): timers stop, the pool shuts
   * down, and the crawl is left `interrupted` (resumable: its in-flight URLs go back to pending).
   */
  private async abort(error: Error): Promise<void> {
    const reject = this.failedRun;
    if (!this.finished || !reject) return;
    this.finished = null;
    this.failedRun = null;
    this.stopTimers();
    this.committer.cancel();
    try {
      // Best effort: the cookies received until now, for the resume.
      this.cookies?.persistIfChanged();
    } catch {
      // The run already ends with `error`.
    }
    await this.pool?.shutdown().catch(() => undefined);
    await this.markInterrupted();
    reject(error);
  }

  /**
   * Writes the cookie jar where the caller keeps it, when it changed.
   * @throws CodedError COOKIE_JAR_WRITE_FAILED when the write failed (the committer then aborts the run)
   */
  private persistCookies(): void {
    try {
      this.cookies?.persistIfChanged();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CodedError('COOKIE_JAR_WRITE_FAILED', `Cannot keep the crawl's cookies (${reason}): the crawl is interrupted; free disk space (or fix the folder), then resume`);
    }
  }

  /** Leaves the crawl `interrupted` (resumable), if the store still takes that one write. */
  private async markInterrupted(): Promise<void> {
    this.finalStatus = 'interrupted';
    try {
      await this.stores.writer.setStatus('interrupted', null);
    } catch {
      // The database itself failed: the next process to take the crawl lease marks it interrupted.
    }
  }

  private stopTimers(): void {
    if (this.progressTimer) clearInterval(this.progressTimer);
    if (this.housekeepingTimer) clearInterval(this.housekeepingTimer);
    this.scheduler.cancel();
  }

  private reportProgress(force: boolean): void {
    const progress = this.progress();
    if (this.meter.shouldReport(progress, force)) this.options.listener?.onProgress?.(progress);
  }

  private async finish(status: CrawlStatus): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    // A failed last commit aborts the run (clearing `finished`): nothing more to do here.
    await this.committer.commit();
    await this.options.warc?.flush();
    const resolve = this.finished;
    const reject = this.failedRun;
    if (!resolve || !reject) return;
    this.finished = null;
    this.failedRun = null;
    this.stopTimers();
    await this.pool?.shutdown();
    let summary: CrawlSummary;
    try {
      await this.stores.writer.setStatus(status, this.now());
      summary = await this.stores.writer.summary();
    } catch (error) {
      await this.markInterrupted();
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

/**
 * The pool as the scheduler sees it, each page fetch carrying the cookie jar's Cookie header for
 * its URL, and in a crawl that renders the jar's cookies for its host (for the rendering's own
 * requests: engine/render/page-cookies.ts); robots.txt and sitemap fetches carry none.
 */
function withCookies(pool: TaskPool, jar: CrawlCookieJar, renders: boolean): TaskPool {
  return {
    freeSlots: () => pool.freeSlots(),
    inFlight: () => pool.inFlight(),
    dispatch: (task: FetchTask) => {
      if (task.purpose !== 'page') return pool.dispatch(task);
      const cookie = jar.cookieHeader(task.url);
      const siteCookies = renders ? jar.siteCookies(task.url) : null;
      return pool.dispatch({ ...task, ...(cookie === null ? {} : { cookie }), ...(siteCookies === null ? {} : { siteCookies }) });
    },
  };
}
