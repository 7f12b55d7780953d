/** The sitemaps a crawl read and the URLs each listed, in SQLite (migration 0018): write half and the resume read. */
import type { Statement } from 'better-sqlite3';
import type { SitemapWrite } from '../ports';
import type { ReadableDB, WritableDB } from './database';

/** Writes sitemap rows and their listings; callers group the calls in transactions (the commit batch's). */
export class SitemapRows {
  private readonly upsert: Statement;
  private readonly listing: Statement;

  constructor(
    db: WritableDB,
    private readonly crawlId: number,
  ) {
    // A sitemap read again (a resumed crawl that had not stored it whole) replaces its row, keeping its id.
    this.upsert = db
      .prepare(
        `INSERT INTO sitemaps (crawl_id, url, found_via, parent_id, kind, http_status, gzipped, bytes, entries, entries_over_cap, urls_refused, error_code, error_message, fetch_ms, fetched_at_ms)
         VALUES (@crawlId, @url, @foundVia, (SELECT id FROM sitemaps WHERE crawl_id = @crawlId AND url = @parentUrl), @kind, @httpStatus, @gzipped, @bytes, @entries, @entriesOverCap, @urlsRefused, @errorCode, @errorMessage, @fetchMs, @fetchedAtMs)
         ON CONFLICT (crawl_id, url) DO UPDATE SET found_via = excluded.found_via, parent_id = excluded.parent_id, kind = excluded.kind, http_status = excluded.http_status,
           gzipped = excluded.gzipped, bytes = excluded.bytes, entries = excluded.entries, entries_over_cap = excluded.entries_over_cap, urls_refused = excluded.urls_refused,
           error_code = excluded.error_code, error_message = excluded.error_message, fetch_ms = excluded.fetch_ms, fetched_at_ms = excluded.fetched_at_ms
         RETURNING id`,
      )
      .pluck();
    this.listing = db.prepare(`INSERT INTO sitemap_urls (url_id, sitemap_id, lastmod, listed_as) VALUES (?, ?, ?, ?) ON CONFLICT (url_id, sitemap_id) DO UPDATE SET lastmod = excluded.lastmod, listed_as = excluded.listed_as`);
  }

  /**
   * Writes one sitemap's row and a listing row per URL it listed (`idOf` resolves a normalized key
   * to its URL id: a candidate of the same batch or a known URL).
   */
  write(sitemap: SitemapWrite, idOf: (key: string) => number): void {
    const id = this.upsert.get({
      crawlId: this.crawlId,
      url: sitemap.url,
      foundVia: sitemap.foundVia,
      parentUrl: sitemap.parentUrl,
      kind: sitemap.kind,
      httpStatus: sitemap.httpStatus,
      gzipped: sitemap.gzipped ? 1 : 0,
      bytes: sitemap.bytes,
      entries: sitemap.entries,
      entriesOverCap: sitemap.entriesOverCap,
      urlsRefused: sitemap.urlsRefused,
      errorCode: sitemap.error?.code ?? null,
      errorMessage: sitemap.error?.message ?? null,
      fetchMs: sitemap.fetchMs,
      fetchedAtMs: sitemap.fetchedAtMs,
    }) as number;
    for (const listed of sitemap.listed) this.listing.run(idOf(listed.key), id, listed.lastmod, listed.listedAs);
  }
}

/** URLs of the sitemaps crawl `crawlId` has stored (a resumed crawl does not fetch them again). */
export function storedSitemapUrls(db: ReadableDB, crawlId: number): string[] {
  return db.prepare(`SELECT url FROM sitemaps WHERE crawl_id = ?`).pluck().all(crawlId) as string[];
}
