import { createPostgresCrawlStores, CrawlRunner, PostgresCrawlRepository, validateSeeds, type CrawlListener, type PostgresStore, type ProcessInfo } from '../../engine';
import type { CrawlSettings, CrawlSummary } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import { effectiveSettings, type CrawlServiceOptions } from './crawl-service';
import { createCrawlIdentifier } from './url-services';

/** Options of one process's part in a shared crawl. */
export interface SharedCrawlOptions extends Pick<CrawlServiceOptions, 'hostOverrides' | 'closedResolver' | 'defaults'> {
  /**
   * How long a process may go without a heartbeat before the others take its in-flight URLs
   * back (PostgreSQL store `processes` lease), ms. @default 30_000
   */
  leaseMs?: number;
  /** How often this process reads the crawl-wide counts and hosts when it has nothing to claim, ms. @default 200 */
  pollMs?: number;
}

/** One process's run in a shared crawl. */
export interface SharedRun {
  crawlId: number;
  /** This process's id in the crawl's `processes` table. */
  processId: string;
  /** The crawl's summary when this process's part ends (the crawl's, not only this process's, counters). */
  done: Promise<CrawlSummary>;
}

/**
 * Runs this process's part of a crawl kept in a PostgreSQL store (issue 13; IIR 20.2.4: a
 * frontier partitioned among processes on several nodes): `start` creates the crawl, `join` adds
 * this process to a running one, `resume` takes up a stopped or interrupted one. Every process runs
 * the same CrawlRunner over the store's ports; the store's shared frontier hands each host to one
 * process at a time within the crawl's per-host limit and politeness delay, and a process's part
 * ends when the crawl's frontier is empty and no process has a URL in flight (or on stop()).
 * The store (its pool) is the caller's: open it with openPostgresStore and close it after `done`.
 */
export class SharedCrawlService {
  private readonly repository: PostgresCrawlRepository;
  private runner: CrawlRunner | null = null;
  private processesOf: (() => ProcessInfo[]) | null = null;

  constructor(
    private readonly store: PostgresStore,
    private readonly options: SharedCrawlOptions = {},
    private readonly listener: CrawlListener = {},
  ) {
    this.repository = new PostgresCrawlRepository(store);
  }

  /**
   * Creates a crawl in the store and starts working on it.
   * @throws CodedError INVALID_SEED, INVALID_SETTINGS, INVALID_URL_REGEX, STORE_UNREACHABLE …
   */
  async start(seeds: readonly string[], input: Partial<CrawlSettings> = {}): Promise<SharedRun> {
    const validSeeds = validateSeeds(seeds);
    const settings = effectiveSettings({ ...this.options.defaults?.(), ...input }, this.options);
    const crawlId = await this.repository.createCrawl(validSeeds, settings, Date.now());
    return this.run(crawlId, validSeeds, settings, 'crawl');
  }

  /**
   * Adds this process to crawl `crawlId`, or to the newest running crawl of the store. The crawl's
   * stored settings apply (its host overrides and closed mode included); this process's resolver
   * options are added, and `local` (e.g. threads) applies to this process only. Sitemap discovery
   * stays with the process that started (or resumed) the crawl, so no sitemap is fetched twice.
   * @throws CodedError NO_RUNNING_CRAWL (nothing to join), CRAWL_NOT_FOUND, STORE_UNREACHABLE …
   */
  async join(crawlId: number | null, local: Partial<Pick<CrawlSettings, 'threads'>> = {}): Promise<SharedRun> {
    const id = crawlId ?? (await this.repository.newestRunningCrawlId());
    if (id === null) throw new CodedError('NO_RUNNING_CRAWL', `No running crawl in ${this.store.url} to join`);
    const crawl = await this.repository.getCrawl(id);
    if (crawl.status !== 'running') throw new CodedError('NO_RUNNING_CRAWL', `Crawl ${id} in ${this.store.url} is ${crawl.status}, not running: resume it instead (crawlbench resume --store URL --crawl ${id})`);
    return this.run(id, crawl.seeds, effectiveSettings({ ...crawl.settings, ...local, sitemaps: 'off' }, this.options), 'join');
  }

  /**
   * Takes up a crawl that is not running (stopped, paused, interrupted): `crawlId`, or the newest
   * unfinished one; `overrides` (e.g. a higher maxPages) are stored with the crawl. Other
   * processes may join it once it runs.
   * @throws CodedError NOTHING_TO_RESUME, CRAWL_NOT_FOUND, STORE_UNREACHABLE …
   */
  async resume(crawlId: number | null, overrides: Partial<CrawlSettings> = {}): Promise<SharedRun> {
    const id = crawlId ?? (await this.repository.newestUnfinishedCrawlId());
    if (id === null) throw new CodedError('NOTHING_TO_RESUME', `No unfinished crawl in ${this.store.url}`);
    const crawl = await this.repository.getCrawl(id);
    const stored = { ...crawl.settings, ...overrides };
    if (Object.keys(overrides).length > 0) await this.repository.updateSettings(id, stored);
    return this.run(id, crawl.seeds, effectiveSettings(stored, this.options), 'resume');
  }

  /** Ends this process's part: its fetches in flight finish and are recorded, the rest stays for the others. */
  stop(): void {
    this.runner?.stop('stopped');
  }

  /** The processes working on the crawl now (this one included), as the last heartbeat read them. */
  processes(): ProcessInfo[] {
    return this.processesOf?.() ?? [];
  }

  private async run(crawlId: number, seeds: readonly string[], settings: CrawlSettings, role: 'crawl' | 'join' | 'resume'): Promise<SharedRun> {
    if (this.runner) throw new CodedError('CRAWL_RUNNING', 'This process already works on a crawl');
    // DUST rules are not kept in a PostgreSQL store (STORE_UNSUPPORTED): URLs are keyed by the profile alone.
    const identify = createCrawlIdentifier(settings.normalizationProfile, settings.tld);
    const stores = await createPostgresCrawlStores(this.store, crawlId, settings, {
      role,
      ...(this.options.leaseMs !== undefined ? { leaseMs: this.options.leaseMs } : {}),
      ...(this.options.pollMs !== undefined ? { pollMs: this.options.pollMs } : {}),
    });
    this.processesOf = () => stores.processes();
    const runner = new CrawlRunner({ stores, settings, seeds, identify, listener: this.listener });
    this.runner = runner;
    const done = runner.run().finally(async () => {
      await stores.close().catch(() => undefined);
    });
    done.catch(() => undefined);
    return { crawlId, processId: stores.processId, done };
  }
}
