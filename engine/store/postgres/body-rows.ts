/**
 * What a crawl keeps of each page's body in PostgreSQL, the counterpart of sqlite/body-rows.ts:
 * the body (migration 2, `page_bodies`) under the per-crawl cap (engine/bodies/body-budget.ts),
 * which each process counts from the crawl's stored bytes when it opened plus its own, and what
 * the extractors found in it (migration 3, `page_extractions`); written inside each commit's transaction.
 */
import type pg from 'pg';
import { BodyBudget } from '../../bodies/body-budget';
import type { PageWrite } from '../ports';
import type { PostgresStore } from './pool';

export class PostgresBodyRows {
  /**
   * What the extractors found on a batch's pages (migration 3, `page_extractions`) and their
   * render records (migration 4, `page_renders`), replacing
   * earlier fetches'; a page without results (or not rendered) drops its earlier ones. URL-id order.
   */
  private async writeExtracted(client: pg.PoolClient, pages: readonly PageWrite[]): Promise<void> {
    const sorted = [...pages].sort((a, b) => a.row.urlId - b.row.urlId).map((page) => ({ urlId: page.row.urlId, extracted: page.extracted ?? null, render: page.render ?? null }));
    const kept = sorted.filter((page) => page.extracted);
    const dropped = sorted.filter((page) => !page.extracted).map((page) => page.urlId);
    if (dropped.length > 0) await client.query(`DELETE FROM page_extractions WHERE url_id = ANY($1::bigint[])`, [dropped]);
    if (kept.length > 0) {
      await client.query(
        `INSERT INTO page_extractions (url_id, crawl_id, values_json) SELECT url_id, $1, values_json FROM unnest($2::bigint[], $3::text[]) AS t(url_id, values_json)
         ON CONFLICT (url_id) DO UPDATE SET values_json = EXCLUDED.values_json`,
        [this.crawlId, kept.map((page) => page.urlId), kept.map((page) => JSON.stringify(page.extracted))],
      );
    }
    const rendered = sorted.flatMap((page) => (page.render ? [{ urlId: page.urlId, render: page.render }] : []));
    const unrendered = sorted.filter((page) => !page.render).map((page) => page.urlId);
    if (unrendered.length > 0) await client.query(`DELETE FROM page_renders WHERE url_id = ANY($1::bigint[])`, [unrendered]);
    if (rendered.length === 0) return;
    await client.query(
      `INSERT INTO page_renders (url_id, crawl_id, reason, render_ms, requests, blocked_requests, skipped_requests, rendered_links, rendered_words)
       SELECT url_id, $1, reason, render_ms, requests, blocked_requests, skipped_requests, rendered_links, rendered_words
       FROM unnest($2::bigint[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[])
         AS t(url_id, reason, render_ms, requests, blocked_requests, skipped_requests, rendered_links, rendered_words)
       ON CONFLICT (url_id) DO UPDATE SET reason = EXCLUDED.reason, render_ms = EXCLUDED.render_ms, requests = EXCLUDED.requests,
         blocked_requests = EXCLUDED.blocked_requests, skipped_requests = EXCLUDED.skipped_requests, rendered_links = EXCLUDED.rendered_links, rendered_words = EXCLUDED.rendered_words`,
      [
        this.crawlId,
        rendered.map((page) => page.urlId),
        rendered.map((page) => page.render.reason),
        rendered.map((page) => page.render.renderMs),
        rendered.map((page) => page.render.requests),
        rendered.map((page) => page.render.blockedRequests),
        rendered.map((page) => page.render.skippedRequests),
        rendered.map((page) => page.render.renderedLinks),
        rendered.map((page) => page.render.renderedWords),
      ],
    );
  }

  private constructor(
    private readonly crawlId: number,
    private readonly budget: BodyBudget,
  ) {}

  /**
   * The body rows of crawl `crawlId`, with the cap's count seeded from what the crawl keeps.
   * @param limitBytes the crawl's maxStoredBodiesBytes (compressed bytes)
   */
  static async open(store: PostgresStore, crawlId: number, limitBytes: number): Promise<PostgresBodyRows> {
    const { rows } = await store.pool.query<{ stored: string }>(`SELECT coalesce(sum(octet_length(body)), 0)::text AS stored FROM page_bodies WHERE crawl_id = $1`, [crawlId]);
    return new PostgresBodyRows(crawlId, new BodyBudget(limitBytes, Number(rows[0]?.stored ?? 0)));
  }

  /**
   * Keeps the bodies of a batch's pages (one per URL, the batch's last), replacing earlier fetches'
   * bodies; a page without a body to keep (none, or past the cap) drops its earlier one. Rows in
   * URL-id order, as every multi-row statement of the writer (no deadlock between processes).
   */
  async write(client: pg.PoolClient, pages: readonly PageWrite[]): Promise<void> {
    await this.writeExtracted(client, pages);
    const kept: PageWrite[] = [];
    const dropped: number[] = [];
    for (const page of [...pages].sort((a, b) => a.row.urlId - b.row.urlId)) {
      if (page.body && this.budget.admit(page.body.bytes.length)) kept.push(page);
      else dropped.push(page.row.urlId);
    }
    if (dropped.length > 0) await client.query(`DELETE FROM page_bodies WHERE url_id = ANY($1::bigint[])`, [dropped]);
    if (kept.length === 0) return;
    await client.query(
      `INSERT INTO page_bodies (url_id, crawl_id, encoding, raw_bytes, truncated, payload_digest, body)
       SELECT url_id, $1, encoding, raw_bytes, truncated, payload_digest, body
       FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::smallint[], $6::text[], $7::bytea[]) AS t(url_id, encoding, raw_bytes, truncated, payload_digest, body)
       ON CONFLICT (url_id) DO UPDATE SET encoding = EXCLUDED.encoding, raw_bytes = EXCLUDED.raw_bytes, truncated = EXCLUDED.truncated,
         payload_digest = EXCLUDED.payload_digest, body = EXCLUDED.body`,
      [
        this.crawlId,
        kept.map((page) => page.row.urlId),
        kept.map((page) => page.body!.encoding),
        kept.map((page) => page.body!.rawBytes),
        kept.map((page) => (page.body!.truncated ? 1 : 0)),
        kept.map((page) => page.body!.payloadDigest),
        kept.map((page) => Buffer.from(page.body!.bytes.buffer, page.body!.bytes.byteOffset, page.body!.bytes.byteLength)),
      ],
    );
  }
}
