/** A URL's redirect chain, hop by hop, read from its redirect links. */
import { LINK_KIND_CODES, linkRuleSql } from '../link-codes';
import { URL_LINKS_JOIN } from '../link-ranges';
import type { ReadableDB } from '../database';
import type { UrlState } from '../../../../shared/types/crawl';
import { StatementCache } from './statement-cache';

/**
 * One hop of a redirect chain as stored: a URL with its own result. A 3xx hop has `status`
 * 301/302/303/307/308 and its `location` (RFC 9110 §15.4); the last hop is where the chain ended:
 * a page (any other status), a URL not fetched (pending, or an error such as ROBOTS_DISALLOWED or
 * REDIRECT_LIMIT, `status` null), or a target a link rule refused (`urlId` null, `refusedBy` set).
 */
export interface RedirectChainHop {
  /** Null for a target the link rules refused (it never entered the frontier). */
  urlId: number | null;
  url: string;
  /** Null for a refused target. */
  state: UrlState | null;
  /** HTTP status of its fetch; null when it was not fetched. */
  status: number | null;
  /** The Location of a redirect answer, resolved, no fragment; null for any other hop. */
  location: string | null;
  /** Duration of its fetch, milliseconds; null when it was not fetched. */
  fetchMs: number | null;
  /** Error code of a URL in state error (e.g. REDIRECT_LOOP, ROBOTS_DISALLOWED); else null. */
  errorCode: string | null;
  /** The link rule that refused this target (e.g. `scope`, `protocol`); null for a URL of the crawl. */
  refusedBy: string | null;
}

interface HopRow {
  urlId: number;
  url: string;
  state: UrlState;
  status: number | null;
  location: string | null;
  fetchMs: number | null;
  errorCode: string | null;
}

/**
 * Redirect chains read back hop by hop (for the URL inspector): each 3xx URL's `redirect` link
 * leads to the next hop. Two indexed reads per hop (urls by id, links by crawl and source).
 */
export class RedirectQueries {
  private readonly statements: StatementCache;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
  }

  /**
   * The redirect chain starting at `urlId`: that URL first, then each redirect target in order,
   * until a hop that is not a redirect, a refused target, a URL already in the chain (a loop: it
   * is not repeated) or `maxHops` hops.
   * @returns an empty array when `urlId` is not a URL of `crawlId`
   */
  chain(crawlId: number, urlId: number, maxHops = 64): RedirectChainHop[] {
    const hopById = this.statements.get(
      `SELECT u.id AS urlId, u.url, u.state, u.http_status AS status, p.location, p.fetch_ms AS fetchMs, u.error_code AS errorCode
       FROM urls u LEFT JOIN pages p ON p.url_id = u.id WHERE u.id = ? AND u.crawl_id = ?`,
    );
    const redirectFrom = this.statements.get(
      `SELECT l.to_url_id AS toUrlId, COALESCE(l.raw_url, t.url) AS rawUrl, ${linkRuleSql('l.refused_by')} AS refusedBy FROM urls src JOIN ${URL_LINKS_JOIN} LEFT JOIN urls t ON t.id = l.to_url_id
       WHERE src.crawl_id = ? AND src.id = ? AND l.kind = ${LINK_KIND_CODES.redirect} ORDER BY l.id DESC LIMIT 1`,
    );
    const hops: RedirectChainHop[] = [];
    const visited = new Set<number>();
    let next: number | null = urlId;
    while (next !== null && hops.length < maxHops && !visited.has(next)) {
      const row = hopById.get(next, crawlId) as HopRow | undefined;
      if (!row) break;
      visited.add(next);
      hops.push({ ...row, refusedBy: null });
      const link = redirectFrom.get(crawlId, next) as { toUrlId: number | null; rawUrl: string; refusedBy: string | null } | undefined;
      next = null;
      if (!link) break;
      if (link.toUrlId === null) {
        hops.push({ urlId: null, url: link.rawUrl, state: null, status: null, location: null, fetchMs: null, errorCode: null, refusedBy: link.refusedBy });
        break;
      }
      next = link.toUrlId;
    }
    return hops;
  }
}
