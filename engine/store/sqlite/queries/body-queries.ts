/** Read queries over a crawl's stored bodies (migration 0023): the WARC export's record source. */
import type { ReadableDB } from '../database';
import { StatementCache } from './statement-cache';

/** A fetched page with its stored body, as the WARC export writes it. */
export interface StoredFetch {
  urlId: number;
  /** The URL fetched (pages.final_url). */
  url: string;
  status: number;
  /** When the fetch ended, epoch ms. */
  fetchedAtMs: number;
  /** The response headers as JSON (fetch/response-headers.ts); null when not recorded. */
  responseHeadersJson: string | null;
  encoding: string;
  rawBytes: number;
  truncated: boolean;
  payloadDigest: string;
  /** The compressed body. */
  body: Uint8Array;
}

export class BodyQueries {
  private readonly statements: StatementCache;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
  }

  /** Stored bodies the crawl keeps (0 when the file predates migration 0023). */
  count(crawlId: number): number {
    if (!this.statements.hasTable('page_bodies')) return 0;
    return this.statements.get(`SELECT count(*) FROM page_bodies b JOIN pages p ON p.url_id = b.url_id WHERE p.crawl_id = ?`).pluck().get(crawlId) as number;
  }

  /**
   * Every fetched page of the crawl that has a stored body, in fetch order (fetched_at_ms, then
   * URL id), one at a time: the order is read first as ids alone (16 bytes a page, sorted without
   * the bodies), then each page and body by its id, so memory holds one body whatever the crawl's size.
   */
  *fetches(crawlId: number): Generator<StoredFetch> {
    if (!this.statements.hasTable('page_bodies')) return;
    const ids = this.statements
      .get(`SELECT p.url_id FROM pages p JOIN page_bodies b ON b.url_id = p.url_id WHERE p.crawl_id = ? ORDER BY p.fetched_at_ms, p.url_id`)
      .pluck()
      .all(crawlId) as number[];
    const one = this.statements.get(
      `SELECT p.url_id AS urlId, p.final_url AS url, p.http_status AS status, p.fetched_at_ms AS fetchedAtMs, p.response_headers_json AS responseHeadersJson,
              b.encoding, b.raw_bytes AS rawBytes, b.truncated, b.payload_digest AS payloadDigest, b.body
       FROM pages p JOIN page_bodies b ON b.url_id = p.url_id WHERE p.url_id = ?`,
    );
    for (const id of ids) {
      const row = one.get(id) as (Omit<StoredFetch, 'truncated'> & { truncated: number }) | undefined;
      // A body dropped since the ids were read (a re-fetch on another connection) is skipped.
      if (row) yield { ...row, truncated: row.truncated === 1 };
    }
  }
}
