import { type WritableDB, type TrapStateChange, changeTrapState, compileUrlPatterns, createCheckpoint, deleteCheckpoint, listCheckpoints, CrawlLease, CrawlRepository, isStorageError, storageError, createSqliteCrawlStores, CompiledExtractors, findChromium, CrawlRunner, CrawlRuleStore, validateSeeds, type CrawlListener, type CrawlRunnerOptions, type RefetchOutcome, type WarcSink } from '../../engine';
import { DEFAULT_CRAWL_SETTINGS, type CrawlProgress, type CrawlSettings, type CrawlSummary, type HostOverride } from '../../shared/types/crawl';
import { CodedError, toErrorInfo, type ErrorInfo } from '../../shared/types/result';
import type { TrapState } from '../../shared/types/traps';
import type { RequestRuleSecrets } from '../../shared/types/request-rules';
import { MAX_URL_PATTERNS } from '../../shared/url/url-patterns';
import { CrawlRuns } from './crawl-runs';
import { loadCookieJar, saveCookieJar } from './cookie-file';
import { hasDatabaseFile } from './private-json-file';
import { requestSecretsToResume } from './request-secrets';
import { createCrawlIdentifier } from './url-services';

/** Options every crawl of this process gets, from the command line (`--resolve`, `--closed`). */
export interface CrawlServiceOptions {
  hostOverrides?: readonly HostOverride[];
  closedResolver?: boolean;
  /** The Chromium that renders JavaScript when a crawl's settings name none (`serve --chromium PATH`). */
  chromiumPath?: string;
  /**
   * The app's saved defaults for new crawls (Settings view: normalization profile, TLD lists,
   * ignored extensions, …), read at each start; a crawl's own values win.
   */
  defaults?: () => Partial<CrawlSettings>;
  /** Take a named checkpoint `auto-<time>` this often while a crawl runs (file databases only; the 3 newest are kept). */
  autoCheckpointMs?: number;
  /** better-sqlite3's native addon, for the store-writer thread's own connection (Electron's ABI build). */
  nativeBinding?: string;
  /**
   * Write a file database's crawl rows on the store-writer thread (engine/store/sqlite/writer-thread.ts).
   * Off, every write runs on this connection (what a test limiting this connection needs). @default true
   */
  writerThread?: boolean;
}

/** Options of one run (not settings: nothing of them is stored with the crawl). */
export interface RunOptions {
  /** The run's live WARC (issue 14 part 6): its file is the caller's to open and close. */
  warc?: WarcSink;
  /** Request rules with their secrets (shared/types/request-rules.ts): the settings keep them masked. */
  requestRules?: readonly RequestRuleSecrets[];
}

/** What a run adds its own counters to: the crawl's totals from before it started. */
interface RunBaseline {
  /** The crawl_runs row of this run. */
  runId: number;
  /** Time the crawl ran before this run, ms. */
  elapsedMs: number;
  /** Links refused per rule before this run (stored with the links). */
  refusedByRule: Record<string, number>;
}

/**
 * A run's live progress as the whole crawl's: elapsed time and refusals add to those of the runs
 * before (a runner counts only its own run), so resuming does not reset them.
 */
export function wholeCrawlProgress(run: CrawlProgress, before: Pick<RunBaseline, 'elapsedMs' | 'refusedByRule'>): CrawlProgress {
  const refusedByRule = { ...before.refusedByRule };
  for (const [rule, count] of Object.entries(run.refusedByRule)) refusedByRule[rule] = (refusedByRule[rule] ?? 0) + count;
  return { ...run, elapsedMs: before.elapsedMs + run.elapsedMs, refusedByRule };
}

/** Automatic checkpoints kept per crawl. */
const AUTO_CHECKPOINTS_KEPT = 3;

/**
 * Settings of a new crawl: defaults, then the client's values, then the process's resolver
 * overrides (appended; a client's override for the same host wins) and closed mode (either side may turn it on).
 * @throws CodedError INVALID_SETTINGS (delays), INVALID_URL_REGEX naming a URL pattern the
 *   linear-time engine cannot run, INVALID_EXTRACTOR naming an extractor that does not compile,
 *   RENDER_UNAVAILABLE when the crawl renders JavaScript and no Chromium is found
 */
export function effectiveSettings(input: Partial<CrawlSettings> | undefined, options: CrawlServiceOptions): CrawlSettings {
  const merged: CrawlSettings = { ...DEFAULT_CRAWL_SETTINGS, ...input, hostOverrides: [...(input?.hostOverrides ?? [])] };
  const hosts = new Set(merged.hostOverrides.map((o) => o.host.toLowerCase()));
  for (const override of options.hostOverrides ?? []) if (!hosts.has(override.host)) merged.hostOverrides.push(override);
  merged.closedResolver = Boolean(input?.closedResolver) || Boolean(options.closedResolver);
  if (merged.maxDelayMs < merged.minDelayMs) throw new CodedError('INVALID_SETTINGS', 'maxDelayMs must be at least minDelayMs');
  // The linear-time engine's verdict on the URL patterns (the settings schema checks only syntax):
  // a pattern it cannot run stops the start, before any crawl row is written.
  compileUrlPatterns(merged);
  // The same for the extractors: a CSS selector cheerio cannot parse stops the start (INVALID_EXTRACTOR).
  CompiledExtractors.compile(merged.extractors);
  // Rendering needs a Chromium: without one the crawl does not start (rather than failing every page).
  if (merged.chromiumPath === '' && options.chromiumPath) merged.chromiumPath = options.chromiumPath;
  if (merged.render !== 'off') findChromium(merged.chromiumPath);
  return merged;
}

/**
 * Starts, stops and reports crawls over one database: the headless service behind the Electron
 * app, the browser-mode server and the CLI alike. While any crawl runs, the service holds the
 * database's crawl lease (db/crawl-lease.ts), so a second process cannot crawl the same file.
 */
export class CrawlService {
  private readonly repository: CrawlRepository;
  private readonly runs: CrawlRuns;
  private readonly running = new Map<number, { runner: CrawlRunner; done: Promise<CrawlSummary>; baseline: RunBaseline }>();
  /** Held while a crawl runs (or is being set up) in this service. */
  private lease: CrawlLease | null = null;
  /** Set while another job writes the crawls of this file (see {@link holdStarts}): what start and resume answer. */
  private startsHeld: CodedError | null = null;

  constructor(
    private readonly db: WritableDB,
    private readonly options: CrawlServiceOptions = {},
    private readonly listener: CrawlListener = {},
    /** Called when a run ends in failure (its crawl is left `interrupted`, resumable). */
    private readonly onFail?: (crawlId: number, error: ErrorInfo) => void,
  ) {
    this.repository = new CrawlRepository(db);
    this.runs = new CrawlRuns(db);
  }

  /**
   * Creates a crawl and starts it in the background.
   * @returns the crawl id and a promise of its final summary
   * @throws CodedError INVALID_SEED, INVALID_SETTINGS, DB_BUSY (another live process crawls this
   *   database), DISK_FULL or another storage code when the database refuses the first writes
   */
  start(seeds: readonly string[], input?: Partial<CrawlSettings>, runOptions: RunOptions = {}): { crawlId: number; done: Promise<CrawlSummary> } {
    if (this.startsHeld) throw new CodedError(this.startsHeld.code, this.startsHeld.message);
    const validSeeds = validateSeeds(seeds);
    const settings = effectiveSettings({ ...this.options.defaults?.(), ...input }, this.options);
    const lease = this.takeLease(null);
    try {
      const crawlId = this.repository.createCrawl(validSeeds, settings, Date.now());
      lease.setCrawl(crawlId);
      return { crawlId, done: this.run(crawlId, validSeeds, settings, runOptions, true) };
    } catch (error) {
      this.releaseLeaseIfIdle();
      throw storageError(error, this.db.name);
    }
  }

  /** This service's hold on the crawl lease, taken when it holds none. @throws CodedError DB_BUSY */
  private takeLease(crawlId: number | null): CrawlLease {
    if (this.lease) {
      if (crawlId !== null) this.lease.setCrawl(crawlId);
      return this.lease;
    }
    try {
      this.lease = CrawlLease.acquire(this.db, crawlId);
    } catch (error) {
      throw storageError(error, this.db.name);
    }
    return this.lease;
  }

  private releaseLeaseIfIdle(): void {
    if (this.running.size > 0 || !this.lease) return;
    this.lease.release();
    this.lease = null;
  }

  /**
   * Continues a crawl from its stored state: URLs left in flight by a dead process go back to
   * pending, everything committed stays done, and the URL-seen test skips what is known, so
   * nothing committed is fetched twice. The process's resolver options apply again; `overrides`
   * (e.g. a higher maxPages) are stored with the crawl.
   * `runOptions.requestRules` absent, the crawl's kept request-rule secrets are sent (app/services/request-secrets.ts).
   * @throws CodedError CRAWL_NOT_FOUND, CRAWL_RUNNING, DB_BUSY (another live process crawls this
   *   database), REQUEST_SECRETS_MISSING (its request rules' secrets are not kept), DISK_FULL or
   *   another storage code
   */
  resume(crawlId: number, overrides: Partial<CrawlSettings> = {}, runOptions: RunOptions = {}): { crawlId: number; done: Promise<CrawlSummary> } {
    if (this.running.has(crawlId)) throw new CodedError('CRAWL_RUNNING', `Crawl ${crawlId} is already running`);
    if (this.startsHeld) throw new CodedError(this.startsHeld.code, this.startsHeld.message);
    const crawl = this.repository.getCrawl(crawlId);
    const settings = effectiveSettings({ ...crawl.settings, ...overrides }, this.options);
    // Every resume (a checkpoint's, a DUST rule's, an exclusion's) sends the kept secrets of the
    // crawl's request rules unless the caller gives its own, and none goes on without them.
    const requestRules = runOptions.requestRules ?? requestSecretsToResume(this.db, crawlId, settings.requestRules);
    runOptions = { ...runOptions, ...(requestRules.length > 0 ? { requestRules } : {}) };
    this.takeLease(crawlId);
    try {
      if (Object.keys(overrides).length > 0) this.repository.updateSettings(crawlId, { ...crawl.settings, ...overrides });
      return { crawlId, done: this.run(crawlId, crawl.seeds, settings, runOptions, false) };
    } catch (error) {
      this.releaseLeaseIfIdle();
      throw storageError(error, this.db.name);
    }
  }

  /**
   * Runs crawl `crawlId` in the background (`fresh`: its first run, so no cookie jar is read back).
   * @throws CodedError COOKIE_JAR_UNREADABLE when a resumed crawl's kept cookies cannot be read
   */
  private run(crawlId: number, seeds: readonly string[], settings: CrawlSettings, runOptions: RunOptions, fresh: boolean): Promise<CrawlSummary> {
    const cookies = this.cookieKeeping(crawlId, settings, fresh);
    // Rules accepted into the crawl (crawlbench dust --accept) key its URLs from this run on.
    const identify = createCrawlIdentifier(settings.normalizationProfile, settings.tld, new CrawlRuleStore(this.db).activeRules(crawlId));
    const elapsedMs = this.elapsedMs(crawlId);
    if (elapsedMs > 0 && this.runs.elapsedMs(crawlId) === null) {
      // A crawl from before migration 0012: its time so far becomes one run, so the sum keeps it.
      const createdAtMs = this.repository.getCrawl(crawlId).createdAtMs;
      this.runs.record(crawlId, createdAtMs, createdAtMs + elapsedMs);
    }
    const baseline: RunBaseline = { elapsedMs, refusedByRule: this.repository.refusalCounts(crawlId), runId: this.runs.begin(crawlId, Date.now()) };
    const listener: CrawlListener = {
      ...this.listener,
      ...(this.listener.onProgress ? { onProgress: (progress) => this.listener.onProgress?.(wholeCrawlProgress(progress, baseline)) } : {}),
      ...(this.listener.onHousekeeping ? { onHousekeeping: (stats) => this.listener.onHousekeeping?.({ ...stats, ...wholeCrawlProgress(stats, baseline) }) } : {}),
    };
    // A database file gets its writes on the store-writer thread (engine/store/sqlite/writer-thread.ts).
    const onFile = this.db.name !== ':memory:' && !this.db.memory && this.options.writerThread !== false;
    const stores = createSqliteCrawlStores(this.db, crawlId, settings, onFile ? { writerThread: true, ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}) } : {});
    const runner = new CrawlRunner({
      stores,
      settings,
      seeds,
      identify,
      listener,
      ...(runOptions.warc ? { warc: runOptions.warc } : {}),
      ...(runOptions.requestRules ? { requestRules: runOptions.requestRules } : {}),
      ...(cookies ? { cookies } : {}),
    });
    const timer = this.options.autoCheckpointMs && this.db.name !== ':memory:' ? setInterval(() => void this.autoCheckpoint(crawlId), this.options.autoCheckpointMs) : null;
    const done = runner
      .run()
      .catch((error: unknown) => {
        if (isStorageError(error) && this.lease?.freeReserve()) {
          // The runner's own `interrupted` write may have failed like the one before it; with the reserve freed it gets through.
          try {
            this.repository.setStatus(crawlId, 'interrupted', null);
          } catch {
            // The next process to take the lease marks it interrupted.
          }
        }
        const reported = storageError(error, this.db.name);
        this.onFail?.(crawlId, toErrorInfo(reported));
        throw reported;
      })
      .finally(async () => {
        if (timer) clearInterval(timer);
        await stores.close().catch(() => undefined);
        try {
          this.runs.end(baseline.runId, Date.now());
        } catch {
          // A full disk: the run counts until its last fetch (CrawlRuns.elapsedMs).
        }
        this.running.delete(crawlId);
        this.releaseLeaseIfIdle();
      });
    // Callers that only start a crawl learn of a failure through onFail.
    done.catch(() => undefined);
    this.running.set(crawlId, { runner, done, baseline });
    return done;
  }

  /**
   * Where a file database's crawl keeps its cookie jar between runs (app/services/cookie-file.ts):
   * read back on resume, none on a first run (a stale entry of a crawl id is overwritten at the
   * first write). Undefined for a memory database or when the crawl keeps no jar (the runner's
   * jar then lives in memory).
   */
  private cookieKeeping(crawlId: number, settings: CrawlSettings, fresh: boolean): CrawlRunnerOptions['cookies'] {
    if (!settings.cookieJar || !hasDatabaseFile(this.db)) return undefined;
    const dbFile = this.db.name;
    return { serialized: fresh ? null : loadCookieJar(dbFile, crawlId), persist: (serialized) => saveCookieJar(dbFile, crawlId, serialized) };
  }

  /** Resolves when the crawl is not running in this process any more (at once when it is not). Never rejects. */
  async whenStopped(crawlId: number): Promise<void> {
    await this.running.get(crawlId)?.done.catch(() => undefined);
  }

  /**
   * Re-queues a stopped crawl's error URLs ("Clear error cache", seed 004) and/or its pages
   * fetched more than `refreshOlderThanMs` ago; `resume` then fetches them.
   * @returns counts re-queued
   * @throws CodedError CRAWL_RUNNING (stop it first), CRAWL_NOT_FOUND, DB_BUSY (another process
   *   crawls this database), DISK_FULL or another storage code
   */
  requeue(crawlId: number, options: { errors?: boolean; refreshOlderThanMs?: number }): { errors: number; refreshed: number } {
    if (this.running.has(crawlId)) throw new CodedError('CRAWL_RUNNING', `Crawl ${crawlId} is running: stop or pause it first`);
    this.repository.getCrawl(crawlId);
    this.takeLease(crawlId);
    try {
      return this.db
        .transaction(() => ({
          errors: options.errors ? this.repository.requeueErrors(crawlId) : 0,
          refreshed: options.refreshOlderThanMs === undefined ? 0 : this.repository.requeueOlderThan(crawlId, options.refreshOlderThanMs, Date.now()),
        }))
        .immediate();
    } catch (error) {
      throw storageError(error, this.db.name);
    } finally {
      this.releaseLeaseIfIdle();
    }
  }

  /** Pauses a running crawl: in-flight fetches finish and are recorded; `resume` continues it. @returns false when it was not running */
  pause(crawlId: number): boolean {
    const entry = this.running.get(crawlId);
    if (!entry) return false;
    entry.runner.stop('paused');
    return true;
  }

  /**
   * "Re-fetch now": puts a settled URL of a running crawl first in its host's queue (the URL
   * inspector's action).
   * @returns what the frontier did (queued, or already queued / in flight / not in the crawl)
   * @throws CodedError CRAWL_NOT_RUNNING when the crawl does not run in this process (or is stopping)
   */
  async refetch(crawlId: number, urlId: number): Promise<RefetchOutcome> {
    const entry = this.running.get(crawlId);
    if (!entry) throw new CodedError('CRAWL_NOT_RUNNING', `Crawl ${crawlId} is not running: resume it to fetch URLs`);
    // A refused write reaches the dispatcher, which reports its storage code in plain words.
    return entry.runner.refetch(urlId);
  }

  /**
   * Releases, excludes or suspects again a crawler trap of a crawl (issue 12): in the running crawl
   * through its frontier (released URLs are fetched at once), else in the database under the crawl
   * lease (a resumed run finds them pending).
   * Excluding a trap also makes its pattern a permanent exclude rule of the crawl: it joins the
   * stored settings' `excludeUrlPatterns`, so a later run refuses new matches by `exclude-pattern`
   * (this run keeps holding them) and the crawl form shows the rule.
   * @returns the trap's pattern and host, how many URLs went back to pending, and whether the
   *   exclude rule was added (false when it was there already or the list is full)
   * @throws CodedError TRAP_NOT_FOUND; DB_BUSY when another process crawls this database; a storage code when the write is refused
   */
  async setTrapState(crawlId: number, trapId: number, state: TrapState): Promise<TrapStateChange & { excludeRuleAdded: boolean }> {
    const entry = this.running.get(crawlId);
    let change: TrapStateChange | null;
    if (entry) change = await entry.runner.setTrapState(trapId, state);
    else {
      this.takeLease(null);
      try {
        change = changeTrapState(this.db, crawlId, trapId, state, Date.now());
      } catch (error) {
        throw storageError(error, this.db.name);
      } finally {
        this.releaseLeaseIfIdle();
      }
    }
    if (change === null) throw new CodedError('TRAP_NOT_FOUND', `Crawl ${crawlId} has no trap ${trapId}`);
    return { ...change, excludeRuleAdded: state === 'excluded' && this.addExcludePattern(crawlId, change.pattern) };
  }

  /** Adds `pattern` to a crawl's stored exclude patterns. @returns false when it is there already or the list is full */
  private addExcludePattern(crawlId: number, pattern: string): boolean {
    const { settings } = this.repository.getCrawl(crawlId);
    if (settings.excludeUrlPatterns.includes(pattern) || settings.excludeUrlPatterns.length >= MAX_URL_PATTERNS) return false;
    try {
      this.repository.updateSettings(crawlId, { ...settings, excludeUrlPatterns: [...settings.excludeUrlPatterns, pattern] });
    } catch (error) {
      throw storageError(error, this.db.name);
    }
    return true;
  }

  /** True while the crawl runs in this process. */
  isRunning(crawlId: number): boolean {
    return this.running.has(crawlId);
  }

  /** The crawls running in this process now (a paused crawl is not running), ascending. */
  runningCrawlIds(): number[] {
    return [...this.running.keys()].sort((a, b) => a - b);
  }

  /**
   * Refuses every `start` and `resume` of this service with `refusal` until the returned function
   * is called: for a job that writes crawls of this file outside a run (a re-run of extractors) and
   * must not have a crawl beside it. The caller checks first that none runs ({@link runningCrawlIds}).
   * @returns the function that lifts the hold (idempotent)
   * @throws CodedError the current hold's refusal, when another job holds starts already
   */
  holdStarts(refusal: CodedError): () => void {
    if (this.startsHeld) throw new CodedError(this.startsHeld.code, this.startsHeld.message);
    this.startsHeld = refusal;
    return () => {
      if (this.startsHeld === refusal) this.startsHeld = null;
    };
  }

  /** Live host states of a running crawl (empty when it is not running). */
  liveHostStates(crawlId: number): ReturnType<CrawlRunner['hostStates']> {
    return this.running.get(crawlId)?.runner.hostStates() ?? [];
  }

  /**
   * Stops a crawl: a running one after its in-flight fetches are recorded; a paused one at once
   * (it is marked `stopped`, still resumable, so a paused crawl can be ended without resuming it).
   * @returns false when it was neither running nor paused
   * @throws CodedError CRAWL_NOT_FOUND; DB_BUSY when another process crawls this database
   */
  stop(crawlId: number): boolean {
    const entry = this.running.get(crawlId);
    if (entry) {
      entry.runner.stop('stopped');
      return true;
    }
    if (this.repository.getCrawl(crawlId).status !== 'paused') return false;
    this.takeLease(null);
    try {
      this.repository.setStatus(crawlId, 'stopped', Date.now());
    } catch (error) {
      throw storageError(error, this.db.name);
    } finally {
      this.releaseLeaseIfIdle();
    }
    this.listener.onFinish?.(this.repository.getCrawl(crawlId));
    return true;
  }

  list(): CrawlSummary[] {
    return this.repository.listCrawls();
  }

  /**
   * Live counters of a running crawl, or the stored counters of one that is not running; either
   * way the elapsed time and the refusals are the whole crawl's, over all its runs.
   * @throws CodedError CRAWL_NOT_FOUND
   */
  progress(crawlId: number): CrawlProgress {
    const entry = this.running.get(crawlId);
    if (entry) return wholeCrawlProgress(entry.runner.progress(), entry.baseline);
    const summary = this.repository.getCrawl(crawlId);
    return {
      crawlId,
      status: summary.status,
      fetched: summary.fetched,
      queued: summary.queued,
      inFlight: 0,
      errors: summary.errors,
      blocked: summary.blocked,
      held: summary.held,
      pagesPerSecond: 0,
      elapsedMs: this.elapsedMs(crawlId),
      refusedByRule: this.repository.refusalCounts(crawlId),
      duplicates: this.repository.duplicateCount(crawlId),
    };
  }

  /**
   * Milliseconds a crawl not running now has run, over all its runs (migration 0012). A crawl
   * from before that has no runs recorded: from its creation to its finish or, when it died, its last fetch.
   */
  private elapsedMs(crawlId: number): number {
    const summed = this.runs.elapsedMs(crawlId);
    if (summed !== null) return summed;
    const summary = this.repository.getCrawl(crawlId);
    const endedAtMs = summary.finishedAtMs ?? this.repository.lastFetchedAtMs(crawlId) ?? summary.createdAtMs;
    return endedAtMs - summary.createdAtMs;
  }

  /** Pages per second over the whole crawl, from its stored fetch times (CrawlRuns.rateHistory). */
  rateHistory(crawlId: number): number[] {
    return this.runs.rateHistory(crawlId);
  }

  /** The crawl's seeds that failed, with the stored error code and message of each. */
  seedFailures(crawlId: number): { url: string; errorCode: string | null; errorReason: string | null }[] {
    return this.runs.seedFailures(crawlId);
  }

  get repositoryForQueries(): CrawlRepository {
    return this.repository;
  }

  /**
   * Takes an `auto-…` checkpoint and drops automatic ones beyond the newest AUTO_CHECKPOINTS_KEPT.
   * A storage failure (full disk, I/O error) ends the crawl as `interrupted` through the runner's
   * error path; other failures are reported as warnings. Never throws.
   */
  private async autoCheckpoint(crawlId: number): Promise<void> {
    try {
      const name = `auto-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await createCheckpoint(this.db, crawlId, name);
      const autos = listCheckpoints(this.db, crawlId).filter((c) => c.name.startsWith('auto-'));
      for (const old of autos.slice(AUTO_CHECKPOINTS_KEPT)) deleteCheckpoint(this.db, old);
    } catch (error) {
      const reported = isStorageError(error) ? storageError(error, this.db.name) : null;
      // A full or failing disk ends the run; a write lock held too long (the store-writer thread's
      // commit) only skips this checkpoint: the next one comes at the next interval.
      if (reported && (reported as { code?: string }).code !== 'DB_BUSY') this.running.get(crawlId)?.runner.fail(reported);
      else process.emitWarning(`Automatic checkpoint of crawl ${crawlId} failed: ${(error as Error).message}`);
    }
  }

  /** Stops every running crawl and waits for them to record their in-flight URLs. */
  async close(): Promise<void> {
    const pending = [...this.running.values()];
    for (const entry of pending) entry.runner.stop('stopped');
    await Promise.allSettled(pending.map((entry) => entry.done));
  }
}
