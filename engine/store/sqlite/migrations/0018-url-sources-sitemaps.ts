import type { Database } from 'better-sqlite3';
import { URL_SOURCE_BITS } from '../../../../shared/types/url-sources';
import { LINK_KIND_CODES } from '../link-codes';

/**
 * 0018: where each URL came from, and the sitemaps a crawl read (issue 12 part 1).
 * - `urls.sources`: a bitmask of the URL's sources (shared/types/url-sources.ts: seed 1, link 2,
 *   sitemap 4, redirect 8, list 16); the writer ORs a bit in whenever a candidate of that source
 *   names a known URL. Existing rows are filled from what was stored: a seed is depth 0 with no
 *   redirect hop, a link or redirect has a link row of that kind to it.
 * - `sitemaps`: one row per sitemap fetched (sitemaps.org): how it was found (`robots` Sitemap:
 *   line, `probe` of /sitemap.xml, or listed in an `index`, with `parent_id`), its kind, status,
 *   entries read and those past the 50,000 cap, URLs the link rules refused, and its error (coded,
 *   e.g. SITEMAP_MALFORMED) when it could not be read whole.
 * - `sitemap_urls`: which sitemap listed which URL (with `<lastmod>` as written, and `listed_as`:
 *   the `<loc>` spelling where it differs from `urls.url`), keyed by URL first: the sitemap report
 *   and the Pages filter ask "is this URL listed".
 */
export const migration0018 = {
  version: 18,
  name: 'url-sources-sitemaps',
  up(db: Database): void {
    const bits = URL_SOURCE_BITS;
    db.exec(`
      ALTER TABLE urls ADD COLUMN sources INTEGER NOT NULL DEFAULT 0;
      UPDATE urls SET sources =
          CASE WHEN depth = 0 AND redirect_hops = 0 THEN ${bits.seed} ELSE 0 END
        | CASE WHEN EXISTS (SELECT 1 FROM links l WHERE l.crawl_id = urls.crawl_id AND l.to_url_id = urls.id AND l.kind != ${LINK_KIND_CODES.redirect}) THEN ${bits.link} ELSE 0 END
        | CASE WHEN EXISTS (SELECT 1 FROM links l WHERE l.crawl_id = urls.crawl_id AND l.to_url_id = urls.id AND l.kind = ${LINK_KIND_CODES.redirect}) THEN ${bits.redirect} ELSE 0 END;

      CREATE TABLE sitemaps (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        found_via TEXT NOT NULL CHECK (found_via IN ('robots', 'probe', 'index')),
        parent_id INTEGER REFERENCES sitemaps(id) ON DELETE SET NULL,
        kind TEXT CHECK (kind IN ('urlset', 'sitemapindex')),
        http_status INTEGER,
        gzipped INTEGER NOT NULL DEFAULT 0,
        bytes INTEGER NOT NULL DEFAULT 0,
        entries INTEGER NOT NULL DEFAULT 0,
        entries_over_cap INTEGER NOT NULL DEFAULT 0,
        urls_refused INTEGER NOT NULL DEFAULT 0,
        error_code TEXT,
        error_message TEXT,
        fetch_ms INTEGER NOT NULL,
        fetched_at_ms INTEGER NOT NULL,
        UNIQUE (crawl_id, url),
        CHECK (error_code IS NOT NULL OR error_message IS NULL)
      );
      CREATE TABLE sitemap_urls (
        url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        sitemap_id INTEGER NOT NULL REFERENCES sitemaps(id) ON DELETE CASCADE,
        lastmod TEXT,
        listed_as TEXT,
        PRIMARY KEY (url_id, sitemap_id)
      ) WITHOUT ROWID;
      CREATE INDEX sitemap_urls_by_sitemap ON sitemap_urls (sitemap_id);
    `);
  },
};
