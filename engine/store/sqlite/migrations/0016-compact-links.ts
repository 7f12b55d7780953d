import type { Database } from 'better-sqlite3';
import { LINK_KIND_CODES, LINK_RULE_CODES } from '../link-codes';

/** SQL mapping a stored name to its code (0 for a name this version has no code for). */
function codeSql(column: string, codes: Readonly<Record<string, number>>): string {
  return `CASE ${column} ${Object.entries(codes).map(([name, code]) => `WHEN '${name}' THEN ${code}`).join(' ')} ELSE 0 END`;
}

/**
 * 0016: compact storage (issue 15 part 3; at 100k pages the links were 9.2M rows, the aliases 2.0M).
 * - `links` as integer rows: kind and refused_by as small codes (link-codes.ts, the one table of
 *   them), `raw_url` only where it differs from the target's `urls.url` (NULL otherwise; a refused
 *   link has no target and keeps its text), and no `element` (it follows from the kind:
 *   worker/protocol.ts linkElement). Rows keep their ids (link_counts_progress counts by id).
 * - `url_aliases.fragment_spellings`: spellings that differ from a stored one only by a `#fragment`
 *   are counted there, not stored (engine/links/aliases.ts); existing fragment rows fold into their
 *   spelling without the fragment.
 * - Indexes only for queries that run on every crawl: the Pages table's sort indexes (the default
 *   sort's, url, too) are dropped, and built on the first sort by their column (sort-indexes.ts).
 *   Each cost an insert per settled URL or stored page (the URL order's at a random position).
 *   The site tree's index (urls_by_host_url, 0014) and the Frontier view's host filter's
 *   (urls_by_host_id, 0005) are built on the first expand or filter likewise: each cost an insert
 *   per enqueued URL (the 1M-URL frontier benchmark's enqueue fell from 33–38k to 22.6k URLs/s). `urls_pages_by_id` stays: it orders the rows past a sort's values (empty
 *   ones) without sorting the crawl, and settles append to it in id order; `pages_by_crawl` is dropped (pages' rowid is the URL id: exports
 *   page through it with `+p.crawl_id`).
 */
export const migration0016 = {
  version: 16,
  name: 'compact-links',
  foreignKeysOff: true,
  up(db: Database): void {
    db.exec(`
      CREATE TABLE links_compact (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        from_url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        to_url_id INTEGER REFERENCES urls(id) ON DELETE CASCADE,
        kind INTEGER NOT NULL,
        refused_by INTEGER,
        raw_url TEXT,
        anchor_text TEXT,
        rel TEXT,
        CHECK (to_url_id IS NOT NULL OR raw_url IS NOT NULL)
      );
      INSERT INTO links_compact (id, crawl_id, from_url_id, to_url_id, kind, refused_by, raw_url, anchor_text, rel)
        SELECT l.id, l.crawl_id, l.from_url_id, l.to_url_id, ${codeSql('l.kind', LINK_KIND_CODES)},
               CASE WHEN l.refused_by IS NULL THEN NULL ELSE ${codeSql('l.refused_by', LINK_RULE_CODES)} END,
               CASE WHEN t.url IS NOT NULL AND t.url = l.raw_url THEN NULL ELSE l.raw_url END, l.anchor_text, l.rel
        FROM links l LEFT JOIN urls t ON t.id = l.to_url_id;
      DROP TABLE links;
      ALTER TABLE links_compact RENAME TO links;
      CREATE INDEX links_by_from ON links (crawl_id, from_url_id);
      CREATE INDEX links_by_to ON links (crawl_id, to_url_id);

      ALTER TABLE url_aliases ADD COLUMN fragment_spellings INTEGER NOT NULL DEFAULT 0;
      INSERT INTO url_aliases (url_id, raw_url, first_seen_from, fragment_spellings)
        SELECT url_id, substr(raw_url, 1, instr(raw_url, '#') - 1), MIN(first_seen_from), COUNT(*)
        FROM url_aliases WHERE instr(raw_url, '#') > 0 GROUP BY 1, 2
        ON CONFLICT (url_id, raw_url) DO UPDATE SET fragment_spellings = fragment_spellings + excluded.fragment_spellings;
      DELETE FROM url_aliases WHERE instr(raw_url, '#') > 0;

      DROP INDEX IF EXISTS pages_by_crawl;
      DROP INDEX IF EXISTS urls_pages_by_url;
      DROP INDEX IF EXISTS urls_by_host_url;
      DROP INDEX IF EXISTS urls_by_host_id;
      DROP INDEX IF EXISTS urls_pages_by_status;
      DROP INDEX IF EXISTS urls_pages_by_depth;
      DROP INDEX IF EXISTS urls_pages_by_fetched;
      DROP INDEX IF EXISTS pages_by_content_type;
      DROP INDEX IF EXISTS pages_by_title;
      DROP INDEX IF EXISTS pages_by_meta_description;
      DROP INDEX IF EXISTS pages_by_h1;
      DROP INDEX IF EXISTS pages_by_canonical;
      DROP INDEX IF EXISTS pages_by_indexability;
      DROP INDEX IF EXISTS pages_by_size;
      DROP INDEX IF EXISTS pages_by_response_time;
    `);
  },
};
