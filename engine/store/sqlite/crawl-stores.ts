/**
 * The SQLite implementation of the storage ports (store/ports.ts) for one crawl: the frontier and
 * the batch writer over one better-sqlite3 connection; each claim and each commit batch is one
 * BEGIN IMMEDIATE transaction.
 */
import type { CrawlSettings } from '../../../shared/types/crawl';
import type { CrawlStores, FrontierStore } from '../ports';
import { SqliteCrawlWriter } from './batch-writer';
import { ContentDedupe } from './content-dedupe';
import { CrawlRepository } from './crawl-repository';
import type { WritableDB } from './database';
import { SqliteFrontier } from './frontier';
import { RedirectChains } from './redirect-chains';
import { SqliteRobotsStore } from './robots-store';

/**
 * Opens the ports of crawl `crawlId` on `db` (a read-write handle). Opening the frontier returns
 * URLs a dead process left in flight to pending, so call it once per run, under the crawl lease.
 * @param settings the crawl's politeness knobs and near-duplicate threshold
 */
export function createSqliteCrawlStores(db: WritableDB, crawlId: number, settings: Pick<CrawlSettings, 'maxInFlightPerHost' | 'minDelayMs' | 'maxDelayMs' | 'delayFactor' | 'nearDuplicateThreshold'>): CrawlStores {
  const sqliteFrontier = new SqliteFrontier(db, crawlId, {
    maxInFlightPerHost: settings.maxInFlightPerHost,
    minDelayMs: settings.minDelayMs,
    maxDelayMs: settings.maxDelayMs,
    delayFactor: settings.delayFactor,
  });
  const claim = db.transaction((max: number, nowMs: number) => sqliteFrontier.claimBatch(max, nowMs));
  const refetch = db.transaction((urlId: number, nowMs: number) => sqliteFrontier.refetch(urlId, nowMs));
  const frontier: FrontierStore = {
    claimBatch: async (max, nowMs) => claim.immediate(max, nowMs),
    refetch: async (urlId, nowMs) => refetch.immediate(urlId, nowMs),
    releaseHost: (url, disposition) => sqliteFrontier.releaseHost(url, disposition),
    nextEligibleAtMs: () => sqliteFrontier.nextEligibleAtMs(),
    counts: () => sqliteFrontier.counts(),
    hostStates: (nowMs) => sqliteFrontier.hostStates(nowMs),
    politenessDelayMs: (fetchMs, extraDelayMs) => sqliteFrontier.politenessDelayMs(fetchMs, extraDelayMs),
  };
  const writer = new SqliteCrawlWriter({
    db,
    crawlId,
    repository: new CrawlRepository(db),
    frontier: sqliteFrontier,
    contentIndex: new ContentDedupe(db, crawlId, { threshold: settings.nearDuplicateThreshold }),
    chains: new RedirectChains(db),
  });
  return { crawlId, frontier, writer, robots: new SqliteRobotsStore(db, crawlId) };
}
