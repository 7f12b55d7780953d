import type { Database } from 'better-sqlite3';

/**
 * 0028: no index on pages by content fingerprint. Its only reader was the exact half of the
 * content-seen test, which now keeps every recorded page's fingerprint in memory
 * (content-dedupe.ts, up to EXACT_FINGERPRINTS_MAX pages, past which it makes the index again for
 * its crawl). Each page's entry went to a random place of the index: on the 100,000-page synthetic
 * crawl 47 of a commit's 241 WAL frames (a snapshot of the WAL at 70,000 pages), and about 10 MB of
 * the file. Every other query on pages filters by crawl as `+p.crawl_id` over the pages key.
 */
export const migration0028 = {
  version: 28,
  name: 'exact-fingerprints-in-memory',
  up(db: Database): void {
    db.exec(`DROP INDEX IF EXISTS pages_by_fingerprint`);
  },
};
