/**
 * What a crawl keeps of each page's body in SQLite: the body itself (migration 0023,
 * `page_bodies`), under the per-crawl cap (engine/bodies/body-budget.ts), what the crawl's
 * extractors found in it (migration 0024, `page_extractions`) and the record of its JavaScript
 * rendering (migration 0025, `page_renders`, engine/render/render-record.ts); written by the
 * crawl's writer inside each commit.
 */
import type { Statement } from 'better-sqlite3';
import { BodyBudget } from '../../bodies/body-budget';
import type { StoredBody } from '../../bodies/stored-body';
import type { WritableDB } from './database';
import type { ExtractedValue } from '../../../shared/types/extraction';
import type { RenderRecord } from '../../render/render-record';

export class SqliteBodyRows {
  private readonly insert: Statement;
  private readonly remove: Statement;
  private readonly budget: BodyBudget;
  private readonly insertExtracted: Statement;
  private readonly removeExtracted: Statement;
  private readonly insertRender: Statement;
  private readonly removeRender: Statement;

  /**
   * @param limitBytes the crawl's maxStoredBodiesBytes (compressed bytes); the bytes the crawl
   *   keeps already count against it (one pass over its rows, when the writer opens)
   */
  constructor(db: WritableDB, crawlId: number, limitBytes: number) {
    this.insert = db.prepare(`INSERT OR REPLACE INTO page_bodies (url_id, encoding, raw_bytes, truncated, payload_digest, body) VALUES (?, ?, ?, ?, ?, ?)`);
    this.remove = db.prepare(`DELETE FROM page_bodies WHERE url_id = ?`);
    this.insertExtracted = db.prepare(`INSERT OR REPLACE INTO page_extractions (url_id, values_json) VALUES (?, ?)`);
    this.removeExtracted = db.prepare(`DELETE FROM page_extractions WHERE url_id = ?`);
    this.insertRender = db.prepare(
      `INSERT OR REPLACE INTO page_renders (url_id, reason, render_ms, requests, blocked_requests, skipped_requests, rendered_links, rendered_words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.removeRender = db.prepare(`DELETE FROM page_renders WHERE url_id = ?`);
    const stored = db
      .prepare(`SELECT coalesce(sum(length(b.body)), 0) FROM page_bodies b JOIN urls u ON u.id = b.url_id WHERE u.crawl_id = ?`)
      .pluck()
      .get(crawlId) as number;
    this.budget = new BodyBudget(limitBytes, stored);
  }

  /**
   * Keeps a page's body, replacing the one an earlier fetch of the URL kept; a page without a body
   * to keep (none sent, or past the crawl's cap) drops the earlier one, so a stored body always
   * belongs to the page row beside it.
   * @param replacing false when the URL was never fetched before (there is no earlier row to drop)
   * @returns true when the body was kept
   */
  write(urlId: number, body: StoredBody | null | undefined, replacing = true): boolean {
    if (body && this.budget.admit(body.bytes.length)) {
      this.insert.run(urlId, body.encoding, body.rawBytes, body.truncated ? 1 : 0, body.payloadDigest, body.bytes);
      return true;
    }
    if (replacing) this.remove.run(urlId);
    return false;
  }

  /**
   * Keeps what the extractors found on a page (migration 0024), replacing an earlier fetch's; a
   * page without results drops the earlier ones (they would describe another answer).
   */
  writeExtracted(urlId: number, extracted: Record<string, ExtractedValue> | null | undefined, replacing = true): void {
    if (extracted) this.insertExtracted.run(urlId, JSON.stringify(extracted));
    else if (replacing) this.removeExtracted.run(urlId);
  }

  /** Keeps a page's render record (migration 0025), replacing an earlier fetch's; a page not rendered drops it. */
  writeRender(urlId: number, render: RenderRecord | null | undefined, replacing = true): void {
    if (render) this.insertRender.run(urlId, render.reason, render.renderMs, render.requests, render.blockedRequests, render.skippedRequests, render.renderedLinks, render.renderedWords);
    else if (replacing) this.removeRender.run(urlId);
  }
}
