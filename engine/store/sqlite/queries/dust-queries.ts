/** What DUST mining reads from a crawl: its fetched pages with a content identity each. */
import type { ReadableDB } from '../database';
import type { DustPage } from '../../../../shared/url/dust/mine';
import { StatementCache } from './statement-cache';

/** Fetched pages read for mining at most (in discovery order): the mining's memory bound. */
export const MAX_DUST_PAGES = 200_000;

/** Fetched pages of a crawl, for DUST mining (shared/url/dust/mine.ts). */
export class DustQueries {
  private readonly statements: StatementCache;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
  }

  /**
   * The crawl's fetched 2xx pages with a content fingerprint, each with a content identity: its
   * near-duplicate group (`near:<id>`) when any page of its fingerprint is in one, else its exact
   * fingerprint (`exact:<sha256>`). Error pages are left out: one "not found" text on many URLs is
   * not DUST.
   * @param limit pages read at most @default MAX_DUST_PAGES
   * @returns the pages (discovery order) and whether the limit cut the list
   */
  pages(crawlId: number, limit = MAX_DUST_PAGES): { pages: DustPage[]; truncated: boolean } {
    const rows = this.statements
      .get(
        `SELECT u.url, p.fingerprint, (SELECT g.id FROM content_groups g WHERE g.kind = 'near' AND (g.first_url_id = u.id OR g.id IN (SELECT m.group_id FROM content_group_members m WHERE m.url_id = u.id)) ORDER BY g.id LIMIT 1) AS nearGroup
         FROM pages p JOIN urls u ON u.id = p.url_id
         WHERE p.crawl_id = ? AND p.http_status BETWEEN 200 AND 299 AND p.fingerprint IS NOT NULL
         ORDER BY u.id LIMIT ?`,
      )
      .all(crawlId, limit + 1) as { url: string; fingerprint: string; nearGroup: number | null }[];
    const truncated = rows.length > limit;
    if (truncated) rows.pop();
    const nearOf = new Map<string, number>();
    for (const row of rows) if (row.nearGroup !== null && !nearOf.has(row.fingerprint)) nearOf.set(row.fingerprint, row.nearGroup);
    const pages = rows.map((row) => {
      const near = nearOf.get(row.fingerprint);
      return { url: row.url, contentId: near === undefined ? `exact:${row.fingerprint}` : `near:${near}` };
    });
    return { pages, truncated };
  }
}
