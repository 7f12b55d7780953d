/**
 * The SQLite implementation of the storage ports (store/ports.ts) for one crawl: the frontier, the
 * crawl writer, the content index and redirect chains over one better-sqlite3 connection, and a
 * unit of work that is one BEGIN IMMEDIATE transaction.
 */
import type { CrawlSettings } from '../../../shared/types/crawl';
import type { CrawlStores, CrawlWriter, RedirectIndex, UnitOfWork } from '../ports';
import { ContentDedupe, sketchToBlob } from './content-dedupe';
import { CrawlRepository } from './crawl-repository';
import type { WritableDB } from './database';
import { SqliteFrontier } from './frontier';
import { RedirectChains } from './redirect-chains';

/**
 * A unit of work over `db`: `work` runs inside one immediate (write-locking) transaction and its
 * value is returned synchronously; a throw rolls everything back and is rethrown.
 */
export function sqliteUnitOfWork(db: WritableDB): UnitOfWork {
  return { run: (work) => db.transaction(work).immediate() };
}

/**
 * Opens the ports of crawl `crawlId` on `db` (a read-write handle). Opening the frontier returns
 * URLs a dead process left in flight to pending, so call it once per run, under the crawl lease.
 * @param settings the crawl's politeness knobs and near-duplicate threshold
 */
export function createSqliteCrawlStores(db: WritableDB, crawlId: number, settings: Pick<CrawlSettings, 'maxInFlightPerHost' | 'minDelayMs' | 'maxDelayMs' | 'delayFactor' | 'nearDuplicateThreshold'>): CrawlStores {
  const repository = new CrawlRepository(db);
  const chains = new RedirectChains(db);
  const writer: CrawlWriter = {
    insertPage: (page) => repository.insertPage(crawlId, { ...page, redirectChainJson: null, minhash: page.minhash ? sketchToBlob(page.minhash) : null }),
    insertPageText: (urlId, text) => repository.insertPageText(urlId, text),
    insertLink: (link) => repository.insertLink(crawlId, link),
    insertAlias: (urlId, rawUrl, fromUrlId) => repository.insertAlias(urlId, rawUrl, fromUrlId),
    setStatus: (status, finishedAtMs) => repository.setStatus(crawlId, status, finishedAtMs),
    summary: () => repository.getCrawl(crawlId),
    duplicateCount: () => repository.duplicateCount(crawlId),
  };
  const redirects: RedirectIndex = {
    closesLoop: (urlId, targetId, maxSteps) => chains.closesLoop(crawlId, urlId, targetId, maxSteps),
    seedRedirectTargets: () => chains.seedRedirectTargets(crawlId),
  };
  return {
    crawlId,
    frontier: new SqliteFrontier(db, crawlId, {
      maxInFlightPerHost: settings.maxInFlightPerHost,
      minDelayMs: settings.minDelayMs,
      maxDelayMs: settings.maxDelayMs,
      delayFactor: settings.delayFactor,
    }),
    writer,
    contentIndex: new ContentDedupe(db, crawlId, { threshold: settings.nearDuplicateThreshold }),
    redirects,
    unitOfWork: sqliteUnitOfWork(db),
  };
}
