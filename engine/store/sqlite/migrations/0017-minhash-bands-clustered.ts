import type { Database } from 'better-sqlite3';

/**
 * 0017: minhash_bands clustered on its lookup key. The LSH band index (IIR 19.6) is written 16
 * rows a page and read by (crawl_id, band, bucket) for every page's content-seen test; as a rowid
 * table with a separate index each row cost two B-tree inserts at random places. As a WITHOUT ROWID
 * table keyed (crawl_id, band, bucket, url_id) it is one B-tree, the lookup a range of it, and a
 * page fetched again cannot add the same band row twice. On the 20,200-page synthetic crawl this
 * table is the content-seen test's main cost on the store-writer thread.
 */
export const migration0017 = {
  version: 17,
  name: 'minhash-bands-clustered',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE minhash_bands_clustered (
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        band INTEGER NOT NULL,
        bucket INTEGER NOT NULL,
        url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        PRIMARY KEY (crawl_id, band, bucket, url_id)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO minhash_bands_clustered (crawl_id, band, bucket, url_id) SELECT crawl_id, band, bucket, url_id FROM minhash_bands;
      DROP TABLE minhash_bands;
      ALTER TABLE minhash_bands_clustered RENAME TO minhash_bands;
    `);
  },
};
