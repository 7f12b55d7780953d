import type { Database } from 'better-sqlite3';

/**
 * 0005: the normalized visible text of each page (capped by the crawl's pageTextChars setting),
 * so the Duplicates view can show a near-duplicate pair's text diff; and an index for the
 * Frontier view's host filter (host-filtered pages in id order without sorting the host's URLs).
 */
export const migration0005 = {
  version: 5,
  name: 'page-texts',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE page_texts (
        url_id INTEGER PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
        text TEXT NOT NULL
      );
      CREATE INDEX urls_by_host_id ON urls (crawl_id, host, id);
    `);
  },
};
