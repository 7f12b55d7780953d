import type { Database } from 'better-sqlite3';

/**
 * 0022: redirect links by target, a partial index (issue 15 part 5). The store-writer thread drops
 * the full links-by-target index while a run writes links (sort-indexes.ts INLINKS_INDEX: each link
 * costs a random B-tree insert there); the inspector's redirect chain walks back through the
 * redirects into a URL (inspector-queries.ts `redirectChain`), one lookup per hop, which without
 * an index would scan every link of the file per hop. Redirects are a few links in a thousand, so
 * this index costs the writer next to nothing and is kept while crawls run. Kind 6 is `redirect`
 * (link-codes.ts LINK_KIND_CODES as of this migration; a shipped migration keeps its own copy).
 */
export const migration0022 = {
  version: 22,
  name: 'redirects-by-target',
  up(db: Database): void {
    db.exec(`CREATE INDEX links_redirects_by_to ON links (crawl_id, to_url_id) WHERE kind = 6`);
  },
};
