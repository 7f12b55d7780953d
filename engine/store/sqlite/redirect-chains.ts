/**
 * Stored redirect chains, as the crawl runner reads them (see engine/fetch/redirects.ts for the
 * design): one `redirect` link per hop, from the 3xx URL to its target.
 */
import { LINK_KIND_CODES } from './link-codes';
import { URL_LINKS_JOIN } from './link-ranges';
import type { Statement } from 'better-sqlite3';
import type { ReadableDB } from './database';

/**
 * The two reads the crawl runner needs about redirect chains already stored: `redirect` links
 * (one per hop, from the 3xx URL to its target) and seed redirect targets (depth 0, hops > 0).
 */
export class RedirectChains {
  private readonly redirectFrom: Statement;
  private readonly seedTargets: Statement;

  constructor(db: ReadableDB) {
    this.redirectFrom = db
      .prepare(
        `SELECT l.to_url_id FROM urls src JOIN ${URL_LINKS_JOIN}
         WHERE src.crawl_id = ? AND src.id = ? AND l.kind = ${LINK_KIND_CODES.redirect} AND l.to_url_id IS NOT NULL ORDER BY l.id DESC LIMIT 1`,
      )
      .pluck();
    this.seedTargets = db.prepare(`SELECT url, registrable_domain AS registrableDomain FROM urls WHERE crawl_id = ? AND depth = 0 AND redirect_hops > 0`);
  }

  /**
   * True when a redirect from `urlId` to the already known `targetId` closes a loop: the target is
   * the URL itself, or the target's stored redirects lead back to it within `maxSteps` hops (one
   * indexed read per hop). Holds whichever way the loop's URLs were first discovered.
   */
  closesLoop(crawlId: number, urlId: number, targetId: number, maxSteps: number): boolean {
    let id: number | undefined = targetId;
    for (let steps = 0; id !== undefined && steps <= maxSteps; steps += 1) {
      if (id === urlId) return true;
      id = this.redirectFrom.get(crawlId, id) as number | undefined;
    }
    return false;
  }

  /** Redirect targets of the crawl's seeds stored so far (to widen the scope of a resumed crawl). */
  seedRedirectTargets(crawlId: number): { url: string; registrableDomain: string | null }[] {
    return this.seedTargets.all(crawlId) as { url: string; registrableDomain: string | null }[];
  }
}
