import type { Database } from 'better-sqlite3';
import { refreshLinkRanges } from '../link-ranges';

/**
 * 0027: a URL's outlinks found by the range of link ids its row names (`urls.first_link_id`,
 * `urls.last_link_id`; page-links.ts) instead of the index `links_by_from (crawl_id,
 * from_url_id)`. A fetch's links are written together, so their ids are consecutive; the index
 * took an entry a link at the scattered place of its source's URL id: on the 20,200-page synthetic
 * crawl (1.67M links) 23 MB of the database (1.1 KB a page) and 88 of the about 330 WAL frames of
 * a 32-page commit. The URL row is rewritten by the same commit anyway (its state). Ranges of
 * earlier runs are derived here, before the index is dropped.
 */
export const migration0027 = {
  version: 27,
  name: 'url-link-ranges',
  up(db: Database): void {
    db.exec(`
      ALTER TABLE urls ADD COLUMN first_link_id INTEGER;
      ALTER TABLE urls ADD COLUMN last_link_id INTEGER;
    `);
    refreshLinkRanges(db);
    db.exec(`DROP INDEX IF EXISTS links_by_from`);
  },
};
