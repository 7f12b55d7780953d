// The crawl store contract (store/contract/) against the SQLite stores: in memory on one thread, and on a file with the store-writer thread.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import { frontierStoreContract, type StoreHarness, type StoredBodyRow } from '../contract/frontier-store.contract';
import { robotsStoreContract } from '../contract/robots-store.contract';
import { trapStoreContract } from '../contract/trap-store.contract';
import type { CrawlStores, PolitenessPolicy } from '../ports';
import { openDatabase } from './connection';
import { CrawlRepository } from './crawl-repository';
import { createSqliteCrawlStores } from './crawl-stores';
import type { WritableDB } from './database';

/** The crawl's page_bodies rows (migration 0023), by URL id. */
function bodiesOf(db: WritableDB, crawlId: number): StoredBodyRow[] {
  const rows = db
    .prepare(
      `SELECT b.url_id AS urlId, b.encoding, b.raw_bytes AS rawBytes, b.truncated, b.payload_digest AS payloadDigest, b.body AS bytes
       FROM page_bodies b JOIN urls u ON u.id = b.url_id WHERE u.crawl_id = ? ORDER BY b.url_id`,
    )
    .all(crawlId) as (Omit<StoredBodyRow, 'truncated'> & { truncated: number })[];
  return rows.map((row) => ({ ...row, truncated: row.truncated === 1 }));
}

/** URL ids of a crawl's pages with a stored text excerpt: in a block (migration 0026) or a page_texts row of an older run. */
function textsOf(db: WritableDB, crawlId: number): number[] {
  return db
    .prepare(
      `SELECT url_id FROM pages WHERE crawl_id = ? AND text_block_id IS NOT NULL
       UNION SELECT t.url_id FROM page_texts t JOIN urls u ON u.id = t.url_id WHERE u.crawl_id = ? ORDER BY 1`,
    )
    .pluck()
    .all(crawlId, crawlId) as number[];
}

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
    storedTexts: (stores) => textsOf(db, stores.crawlId),
    storedBodies: (stores) => bodiesOf(db, stores.crawlId),
    close: () => {
      db.close();
    },
  };
}

frontierStoreContract('SQLite (better-sqlite3, :memory:)', sqliteHarness);
robotsStoreContract('SQLite (better-sqlite3, :memory:)', sqliteHarness);
trapStoreContract('SQLite (better-sqlite3, :memory:)', sqliteHarness);

/** The same stores with their writes on the store-writer thread: a database file in a temp folder. */
function writerThreadHarness(): StoreHarness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-writer-thread-'));
  const db: WritableDB = openDatabase(path.join(dir, 'crawl.db'));
  const settings = (policy: PolitenessPolicy) => ({ ...DEFAULT_CRAWL_SETTINGS, ...policy });
  const count = (table: string, crawlId: number) => db.prepare(`SELECT COUNT(*) FROM ${table} WHERE crawl_id = ?`).pluck().get(crawlId) as number;
  const opened: CrawlStores[] = [];
  const open = (crawlId: number, policy: PolitenessPolicy) => {
    const stores = createSqliteCrawlStores(db, crawlId, settings(policy), { writerThread: true });
    opened.push(stores);
    return stores;
  };
  return {
    open: (policy) => open(new CrawlRepository(db).createCrawl(['http://a.test/'], settings(policy), 0), policy),
    // The old process's thread ends first (a dead process writes nothing more).
    reopen: async (stores: CrawlStores, policy) => {
      await stores.close();
      return open(stores.crawlId, policy);
    },
    storedRows: (stores) => ({ urls: count('urls', stores.crawlId), pages: count('pages', stores.crawlId), links: count('links', stores.crawlId) }),
    storedTexts: (stores) => textsOf(db, stores.crawlId),
    storedBodies: (stores) => bodiesOf(db, stores.crawlId),
    close: async () => {
      await Promise.all(opened.map((stores) => stores.close()));
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

frontierStoreContract('SQLite with the store-writer thread (file)', writerThreadHarness);
trapStoreContract('SQLite with the store-writer thread (file)', writerThreadHarness);
