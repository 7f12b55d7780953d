import type { Database } from 'better-sqlite3';

/**
 * 0014: an index over (crawl_id, host, url) for the site tree (issue 11 part 5). Expanding a node
 * lists the next path segments under one host and path: with this index that reads only the URLs
 * in the node's URL range (one seek per origin, see queries/page-classes.ts urlPrefixRanges), so a
 * directory of a 1,000,000-URL crawl is listed without scanning the rest of the crawl. It costs one
 * index entry per URL, written once when the URL enters the frontier (state changes do not touch it).
 */
export const migration0014 = {
  version: 14,
  name: 'site-tree-index',
  up(db: Database): void {
    db.exec(`CREATE INDEX urls_by_host_url ON urls (crawl_id, host, url);`);
  },
};
