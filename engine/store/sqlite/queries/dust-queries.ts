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
    // Near groups first, by URL (members and each group's first page), on their own indexes.
    const nearOfUrl = new Map<number, number>();
    const nearRows = this.statements
      .get(
        `SELECT g.first_url_id AS urlId, g.id AS groupId FROM content_groups g WHERE g.crawl_id = ? AND g.kind = 'near'
         UNION ALL
         SELECT m.url_id AS urlId, m.group_id AS groupId FROM content_groups g JOIN content_group_members m ON m.group_id = g.id WHERE g.crawl_id = ? AND g.kind = 'near'
         ORDER BY groupId`,
      )
      .all(crawlId, crawlId) as { urlId: number; groupId: number }[];
    for (const row of nearRows) if (!nearOfUrl.has(row.urlId)) nearOfUrl.set(row.urlId, row.groupId);
    const rows = this.statements
      .get(
        `SELECT u.id, u.url, p.fingerprint FROM pages p JOIN urls u ON u.id = p.url_id
         WHERE p.crawl_id = ? AND p.http_status BETWEEN 200 AND 299 AND p.fingerprint IS NOT NULL
         ORDER BY p.url_id LIMIT ?`,
      )
      .all(crawlId, limit + 1) as { id: number; url: string; fingerprint: string }[];
    const truncated = rows.length > limit;
    if (truncated) rows.pop();
    // Every page of a fingerprint takes the near group any of them is in.
    const nearOf = new Map<string, number>();
    for (const row of rows) {
      const near = nearOfUrl.get(row.id);
      if (near !== undefined && !nearOf.has(row.fingerprint)) nearOf.set(row.fingerprint, near);
    }
    const pages = rows.map((row) => {
      const near = nearOf.get(row.fingerprint);
      return { url: row.url, contentId: near === undefined ? `exact:${row.fingerprint}` : `near:${near}` };
    });
    return { pages, truncated };
  }
}
