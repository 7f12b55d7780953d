/**
 * The SQLite implementation of the storage ports (store/ports.ts) for one crawl. The frontier's
 * back queues, counts and host slots live on the scheduler's thread (SqliteFrontier, reading
 * refills from its connection); every write goes through a CrawlRowWriter: on the same connection,
 * or on the store-writer thread with its own connection (writer-thread.ts), so that no fetch and
 * no claim waits on a commit. Each claim, commit batch and re-fetch is one BEGIN IMMEDIATE
 * transaction wherever it runs.
 */
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../../shared/types/crawl';
import type { WriterSettings } from './writer-protocol';
import type { CommitBatch, CrawlStores, FrontierStore, RobotsStore, UrlOutcome } from '../ports';
import { SqliteCrawlWriter, type CrawlRowWriter } from './batch-writer';
import { SqliteBodyRows } from './body-rows';
import { ContentDedupe } from './content-dedupe';
import { CrawlRepository } from './crawl-repository';
import type { WritableDB } from './database';
import { SqliteFrontier, type SettledState } from './frontier';
import { FrontierRows } from './frontier-rows';
import { RedirectChains } from './redirect-chains';
import { SqliteRobotsStore } from './robots-store';
import { storedSitemapUrls } from './sitemap-rows';
import { TrapRows } from './trap-rows';
import { VersionIndex } from './version-index';
import { WriterThreadClient } from './writer-client';
import { storedTraps } from './queries/trap-queries';

/** The settings the SQLite stores read: politeness knobs and the near-duplicate threshold. */
export type SqliteStoreSettings = Pick<CrawlSettings, 'maxInFlightPerHost' | 'minDelayMs' | 'maxDelayMs' | 'delayFactor' | 'nearDuplicateThreshold'> & Partial<Pick<CrawlSettings, 'maxStoredBodiesBytes'>>;

export interface SqliteStoreOptions {
  /**
   * Writes on their own thread (a second connection to the same file). Needs a database file, not
   * `:memory:`. @default false
   */
  writerThread?: boolean;
  /** better-sqlite3's native addon for the writer thread's connection (Electron). */
  nativeBinding?: string;
}

/** The settings the row writer reads, picked from the store's (a message to the writer thread carries no more). */
function writerSettings(settings: SqliteStoreSettings): WriterSettings {
  return { nearDuplicateThreshold: settings.nearDuplicateThreshold, ...(settings.maxStoredBodiesBytes !== undefined ? { maxStoredBodiesBytes: settings.maxStoredBodiesBytes } : {}) };
}

/**
 * The writes of crawl `crawlId` on connection `db` (this thread, or the writer thread's own). The
 * version-template index first catches up with the URLs already stored (a resumed crawl: one pass
 * over its URLs, before the first write).
 */
export function createSqliteRowWriter(db: WritableDB, crawlId: number, settings: WriterSettings): SqliteCrawlWriter {
  const versions = new VersionIndex(db, crawlId);
  versions.catchUp();
  return new SqliteCrawlWriter({
    db,
    crawlId,
    repository: new CrawlRepository(db),
    frontier: new FrontierRows(db, crawlId),
    contentIndex: new ContentDedupe(db, crawlId, { threshold: settings.nearDuplicateThreshold }),
    chains: new RedirectChains(db),
    robots: new SqliteRobotsStore(db, crawlId),
    versions,
    traps: new TrapRows(db, crawlId),
    bodies: new SqliteBodyRows(db, crawlId, settings.maxStoredBodiesBytes ?? DEFAULT_CRAWL_SETTINGS.maxStoredBodiesBytes),
  });
}

/**
 * Opens the ports of crawl `crawlId` on `db` (a read-write handle). Opening returns URLs a dead
 * process left in flight to pending, so call it once per run, under the crawl lease; call
 * `close()` when the run is over (it ends the writer thread after its last write).
 * @throws Error when `writerThread` is asked for on a `:memory:` database
 */
export function createSqliteCrawlStores(db: WritableDB, crawlId: number, settings: SqliteStoreSettings, options: SqliteStoreOptions = {}): CrawlStores {
  const policy = { maxInFlightPerHost: settings.maxInFlightPerHost, minDelayMs: settings.minDelayMs, maxDelayMs: settings.maxDelayMs, delayFactor: settings.delayFactor };
  const reader = new CrawlRepository(db);
  const chains = new RedirectChains(db);
  if (options.writerThread && (db.memory || db.name === ':memory:')) throw new Error('A writer thread needs a database file, not :memory:');
  // In flight left by a dead process goes back to pending, before any writer (thread) opens.
  new FrontierRows(db, crawlId).resetInFlight();
  const queues = new SqliteFrontier(db, crawlId, policy, null);
  const rows: CrawlRowWriter = options.writerThread
    ? new WriterThreadClient({ file: db.name, crawlId, settings: writerSettings(settings), ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) })
    : createSqliteRowWriter(db, crawlId, settings);
  // Stored robots.txt files are read here and written by the row writer: with a writer thread, a
  // second writing connection would contend with its commits for SQLite's one write lock.
  const stored = new SqliteRobotsStore(db, crawlId);
  const robots: RobotsStore = { load: (origins, nowMs) => stored.load(origins, nowMs), save: (entry) => rows.saveRobots(entry) };
  return composeStores(crawlId, queues, rows, robots, options.writerThread ? CLAIM_AHEAD_PER_SLOT : 0, {
    summary: async () => reader.getCrawl(crawlId),
    duplicateCount: async () => reader.duplicateCount(crawlId),
    seedRedirectTargets: async () => chains.seedRedirectTargets(crawlId),
    knownTraps: async () => storedTraps(db, crawlId),
    storedSitemaps: async () => storedSitemapUrls(db, crawlId),
  });
}

/**
 * URLs per fetch slot claimed ahead with the store-writer thread (FrontierStore.claimAheadPerSlot).
 * A claim waits for the batch the thread is writing (tens of milliseconds); without URLs in hand
 * the scheduler waited on claims for 60 of the 76 s of the 20,200-page synthetic crawl, its slots
 * idle. With the writer on the scheduler's thread a claim is written at once: none ahead.
 */
export const CLAIM_AHEAD_PER_SLOT = 1;

/** The state each outcome leaves its URL in, for the queues' counts (a redirect is done unless the writer finds a loop). */
const SETTLED_STATE: Readonly<Record<UrlOutcome['kind'], SettledState>> = { done: 'done', redirected: 'done', failed: 'error', blocked: 'blocked', requeued: 'pending' };

/** The ports over the scheduler's queues and a row writer: each write updates the queues as its rows land. */
function composeStores(
  crawlId: number,
  queues: SqliteFrontier,
  rows: CrawlRowWriter,
  robots: RobotsStore,
  claimAheadPerSlot: number,
  reads: Pick<CrawlStores['writer'], 'summary' | 'duplicateCount' | 'seedRedirectTargets' | 'knownTraps' | 'storedSitemaps'>,
): CrawlStores {
  const frontier: FrontierStore = {
    claimAheadPerSlot,
    async claimBatch(max, nowMs) {
      const claimed = queues.claimQueued(max, nowMs);
      await rows.claimed(
        claimed.map((url) => url.id),
        nowMs,
      );
      return claimed;
    },
    refetch: async (urlId, nowMs) => queues.noteRefetched(await rows.refetch(urlId), nowMs),
    releaseHost: (url, disposition) => queues.releaseHost(url, disposition),
    takeHostSlot: (host, nowMs) => queues.takeHostSlot(host, nowMs),
    returnHostSlot: (host, disposition) => queues.returnHostSlot(host, disposition),
    nextEligibleAtMs: () => queues.nextEligibleAtMs(),
    counts: () => queues.counts(),
    hostStates: (nowMs) => queues.hostStates(nowMs),
    async setTrapState(trapId, state, nowMs) {
      const change = await rows.setTrapState(trapId, state, nowMs);
      if (change !== null) queues.noteReleased(change.host, change.released, nowMs);
      return change;
    },
    politenessDelayMs: (fetchMs, extraDelayMs) => queues.politenessDelayMs(fetchMs, extraDelayMs),
  };
  return {
    crawlId,
    frontier,
    writer: {
      async commit(batch: CommitBatch) {
        // The outcomes count and free their host slots now; the rows follow.
        for (const outcome of batch.outcomes ?? []) queues.noteSettled(SETTLED_STATE[outcome.kind], outcome.url, outcome.disposition);
        const result = await rows.commit(batch);
        for (let i = 0; i < result.redirectLoops.length; i += 1) queues.noteRedirectLoop();
        queues.noteAdded(result.addedHosts, batch.nowMs);
        queues.noteHeld(result.held ?? 0, result.heldFromPending ?? []);
        queues.settled(
          (batch.outcomes ?? []).map((outcome) => outcome.url.id),
          batch.nowMs,
        );
        return result;
      },
      setStatus: (status, finishedAtMs) => rows.setStatus(status, finishedAtMs),
      ...reads,
    },
    robots,
    close: () => rows.close(),
  };
}
