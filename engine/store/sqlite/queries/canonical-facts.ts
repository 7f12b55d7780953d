/** What the canonical layers of a duplicate-URL group read from the store (shared/url/group-canonical.ts UrlGroupFacts). */
import type { ReadableDB } from '../database';
import { RedirectQueries } from './redirect-queries';
import { StatementCache } from './statement-cache';

/** A group URL's redirect target and its page's rel=canonical, as stored. */
export interface StoredCanonicalFacts {
  /** The end of the URL's stored redirect chain (a URL of the crawl, or a refused target's text); null when it did not redirect. */
  redirectTarget: string | null;
  /** pages.canonical_url of the URL's page (absolute); null when none or not fetched. */
  relCanonical: string | null;
}

/**
 * Reads the facts the canonical layers need for one URL: its page's rel=canonical (one read by
 * primary key) and, only for a URL that answered 3xx, its redirect chain's end (two indexed reads
 * per hop: redirect-queries.ts).
 */
export class CanonicalFacts {
  private readonly statements: StatementCache;
  private readonly redirects: RedirectQueries;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
    this.redirects = new RedirectQueries(db);
  }

  /** The facts of URL `urlId` of crawl `crawlId` (both null for a URL the crawl does not have). */
  of(crawlId: number, urlId: number): StoredCanonicalFacts {
    const row = this.statements
      .get(`SELECT u.http_status AS status, p.canonical_url AS canonical FROM urls u LEFT JOIN pages p ON p.url_id = u.id WHERE u.id = ? AND u.crawl_id = ?`)
      .get(urlId, crawlId) as { status: number | null; canonical: string | null } | undefined;
    if (!row) return { redirectTarget: null, relCanonical: null };
    let redirectTarget: string | null = null;
    if (row.status !== null && row.status >= 300 && row.status < 400) {
      const chain = this.redirects.chain(crawlId, urlId);
      if (chain.length > 1) redirectTarget = chain.at(-1)!.url;
    }
    return { redirectTarget, relCanonical: row.canonical };
  }
}
