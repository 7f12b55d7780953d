// The crawl store contract (store/contract/) against the SQLite stores: an in-memory database per test.
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import { frontierStoreContract, type StoreHarness } from '../contract/frontier-store.contract';
import { robotsStoreContract } from '../contract/robots-store.contract';
import type { CrawlStores, PolitenessPolicy } from '../ports';
import { openDatabase } from './connection';
import { CrawlRepository } from './crawl-repository';
import { createSqliteCrawlStores } from './crawl-stores';
import type { WritableDB } from './database';

function sqliteHarness(): StoreHarness {
  const db: WritableDB = openDatabase(':memory:');
  const settings = (policy: PolitenessPolicy) => ({ ...DEFAULT_CRAWL_SETTINGS, ...policy });
  const count = (table: string, crawlId: number) => db.prepare(`SELECT COUNT(*) FROM ${table} WHERE crawl_id = ?`).pluck().get(crawlId) as number;
  return {
    open(policy) {
      const crawlId = new CrawlRepository(db).createCrawl(['http://a.test/'], settings(policy), 0);
      return createSqliteCrawlStores(db, crawlId, settings(policy));
    },
    // Same file, new stores: what a new process opening the database builds.
    reopen: (stores: CrawlStores, policy) => createSqliteCrawlStores(db, stores.crawlId, settings(policy)),
    storedRows: (stores) => ({ urls: count('urls', stores.crawlId), pages: count('pages', stores.crawlId), links: count('links', stores.crawlId) }),
    close: () => {
      db.close();
    },
  };
}

frontierStoreContract('SQLite (better-sqlite3, :memory:)', sqliteHarness);
robotsStoreContract('SQLite (better-sqlite3, :memory:)', sqliteHarness);
