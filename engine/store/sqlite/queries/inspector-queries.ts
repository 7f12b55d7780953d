/** Read queries of the URL inspector: one URL's stored record, its page, spellings, links in and out, redirect chain and content group. */
import type { RenderRecord } from '../../../render/render-record';
import type { ExtractedValue } from '../../../../shared/types/extraction';
import type { PageRow } from '../../ports';
import type { ReadableDB } from '../database';
import type { InlinkRow, LinkPage, OutlinkRow, SpellingRow } from '../../../../shared/types/inspector-rows';
import { StatementCache } from './statement-cache';
import { LINK_KIND_CODES, linkElementSql, linkKindSql, linkRuleSql } from '../link-codes';
import { URL_LINKS_JOIN } from '../link-ranges';
import { RedirectQueries, type RedirectChainHop } from './redirect-queries';

export type { LinkPage } from '../../../../shared/types/inspector-rows';
/** A raw spelling of the URL with the page it was first met on. */
export type InspectedAlias = SpellingRow;
/** A link into the URL from a page of the crawl. */
export type InlinkRecord = InlinkRow;
/** A link out of the URL's page, refused ones included. */
export type OutlinkRecord = OutlinkRow;

/** A URL's frontier row as stored, with the page it was discovered on. Times are epoch ms. */
export interface InspectedUrlRecord {
  urlId: number;
  url: string;
  normalized: string;
  normalizedKey: string;
  host: string;
  registrableDomain: string | null;
  /** pending, in_flight, done, error (and any state a later migration adds, e.g. blocked). */
  state: string;
  /** Links from a seed (seeds: 0). */
  depth: number;
  discoveredFromId: number | null;
  discoveredFromUrl: string | null;
  enqueuedAtMs: number;
  /** When its outcome was recorded (fetched, or failed); null while not settled. */
  fetchedAtMs: number | null;
  httpStatus: number | null;
  errorCode: string | null;
  errorReason: string | null;
  /** Times it was claimed for fetching (a retry counts again). */
  attempts: number;
  /** Consecutive redirects that led to it when it was discovered (0 for seeds and page links). */
  redirectHops: number;
  /** When it was last handed out for fetching (migration 0013); null before its first claim. */
  claimedAtMs: number | null;
  /** When its last outcome was written (migration 0013); null while unsettled. */
  committedAtMs: number | null;
  /** The error of the last try that sent it back for a retry, "CODE: message" (migration 0013). */
  retryReason: string | null;
  /** The robots.txt rule that blocked it, "12: Disallow: /private/" (migration 0010); null otherwise. */
  robotsLine: string | null;
  /** Where the crawl met it: a bitmask of shared/types/url-sources.ts URL_SOURCE_BITS (migration 0018; 0 when unknown). */
  sources: number;
}

/** A stored body as read back: engine/bodies/stored-body.ts StoredBody's fields, `bytes` as `body`. */
export interface StoredBodyRecord {
  encoding: string;
  rawBytes: number;
  truncated: boolean;
  payloadDigest: string;
  /** The compressed bytes. */
  body: Uint8Array;
}

/**
 * The stored answer of a fetched URL: the page row as the crawl writer wrote it (store/ports.ts
 * PageRow, the one description of those fields), read back; migration 0009's analysis columns are
 * null for pages stored before them, and a stored indexability is any string an older or newer
 * version wrote.
 */
export type InspectedPageRecord = Required<
  Pick<
    PageRow,
    | 'finalUrl'
    | 'httpStatus'
    | 'contentType'
    | 'bodyBytes'
    | 'truncated'
    | 'fetchMs'
    | 'fetchedAtMs'
    | 'title'
    | 'location'
    | 'responseHeadersJson'
    | 'metaDescription'
    | 'h1'
    | 'canonicalUrl'
    | 'robotsDirectives'
    | 'wordCount'
    | 'lang'
    | 'linksOverCap'
  >
> & { indexability: string | null };

/** How the URL was discovered: the link on the discovering page that first led to it. */
export interface DiscoveryLink {
  kind: string;
  anchorText: string | null;
}

/**
 * Read-only queries of the URL inspector (issue 11 part 3): everything stored about one URL of a
 * crawl, each an indexed read (urls by id, links by (crawl, from) and (crawl, to), aliases by URL,
 * content group members by URL). Link lists are paged, so a page with 100,000 links costs one
 * window of rows and two counts.
 */
export class InspectorQueries {
  private readonly statements: StatementCache;
  private readonly redirects: RedirectQueries;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
    this.redirects = new RedirectQueries(db);
  }

  /** The URL's frontier row, or undefined when crawl `crawlId` has no URL `urlId`. */
  url(crawlId: number, urlId: number): InspectedUrlRecord | undefined {
    return this.statements
      .get(
        `SELECT u.id AS urlId, u.url, u.normalized, u.normalized_key AS normalizedKey, u.host, u.registrable_domain AS registrableDomain, u.state, u.depth,
                u.discovered_from AS discoveredFromId, d.url AS discoveredFromUrl, u.enqueued_at_ms AS enqueuedAtMs, u.fetched_at_ms AS fetchedAtMs,
                u.http_status AS httpStatus, u.error_code AS errorCode, u.error_reason AS errorReason, u.attempts, u.redirect_hops AS redirectHops,
                u.claimed_at_ms AS claimedAtMs, u.committed_at_ms AS committedAtMs, u.retry_reason AS retryReason, u.robots_line AS robotsLine,
                u.sources
         FROM urls u LEFT JOIN urls d ON d.id = u.discovered_from WHERE u.id = ? AND u.crawl_id = ?`,
      )
      .get(urlId, crawlId) as InspectedUrlRecord | undefined;
  }

  /** The sitemaps that list URL `urlId` (migration 0018), first read first, with the `<lastmod>` and spelling each gave. */
  sitemaps(urlId: number): { url: string; lastmod: string | null; listedAs: string | null }[] {
    return this.statements
      .get(`SELECT s.url, su.lastmod, su.listed_as AS listedAs FROM sitemap_urls su JOIN sitemaps s ON s.id = su.sitemap_id WHERE su.url_id = ? ORDER BY su.sitemap_id LIMIT 100`)
      .all(urlId) as { url: string; lastmod: string | null; listedAs: string | null }[];
  }

  /** The stored answer of a fetched URL, or undefined when it has none (pending, failed without an answer). */
  /**
   * The URL's stored body row (migration 0023), compressed as stored; undefined when none is kept
   * (bodies off, past the crawl's cap, a redirect, not fetched) or the file predates migration 0023.
   */
  storedBody(urlId: number): StoredBodyRecord | undefined {
    if (!this.statements.hasTable('page_bodies')) return undefined;
    const row = this.statements
      .get(`SELECT encoding, raw_bytes AS rawBytes, truncated, payload_digest AS payloadDigest, body FROM page_bodies WHERE url_id = ?`)
      .get(urlId) as (Omit<StoredBodyRecord, 'truncated'> & { truncated: number }) | undefined;
    return row ? { ...row, truncated: row.truncated === 1 } : undefined;
  }

  /** What the crawl's extractors found on the URL's page (migration 0024), by name; null when none ran on it. */
  extracted(urlId: number): Record<string, ExtractedValue> | null {
    if (!this.statements.hasTable('page_extractions')) return null;
    const json = this.statements.get(`SELECT values_json FROM page_extractions WHERE url_id = ?`).pluck().get(urlId) as string | undefined;
    return json === undefined ? null : (JSON.parse(json) as Record<string, ExtractedValue>);
  }

  /** How the URL's page was rendered (migration 0025); null when it was not. */
  render(urlId: number): RenderRecord | null {
    if (!this.statements.hasTable('page_renders')) return null;
    const row = this.statements
      .get(
        `SELECT reason, render_ms AS renderMs, requests, blocked_requests AS blockedRequests, skipped_requests AS skippedRequests, rendered_links AS renderedLinks, rendered_words AS renderedWords
         FROM page_renders WHERE url_id = ?`,
      )
      .get(urlId) as RenderRecord | undefined;
    return row ?? null;
  }

  page(urlId: number): InspectedPageRecord | undefined {
    const row = this.statements
      .get(
        `SELECT final_url AS finalUrl, http_status AS httpStatus, content_type AS contentType, body_bytes AS bodyBytes, truncated, fetch_ms AS fetchMs,
                fetched_at_ms AS fetchedAtMs, title, location, response_headers_json AS responseHeadersJson, meta_description AS metaDescription, h1,
                canonical_url AS canonicalUrl, robots_directives AS robotsDirectives, indexability, word_count AS wordCount, lang, links_over_cap AS linksOverCap
         FROM pages WHERE url_id = ?`,
      )
      .get(urlId) as (Omit<InspectedPageRecord, 'truncated'> & { truncated: number }) | undefined;
    return row ? { ...row, truncated: row.truncated === 1 } : undefined;
  }

  /** Every raw spelling met for the URL, sorted by text (url_aliases keeps no order), with the page each was first met on. */
  aliases(urlId: number): InspectedAlias[] {
    return this.statements
      .get(
        `SELECT a.raw_url AS rawUrl, a.first_seen_from AS firstSeenFromId, f.url AS firstSeenFromUrl, a.fragment_spellings AS fragmentSpellings
         FROM url_aliases a LEFT JOIN urls f ON f.id = a.first_seen_from WHERE a.url_id = ? ORDER BY a.raw_url`,
      )
      .all(urlId) as InspectedAlias[];
  }

  /** The link that first led to the URL from the page it was discovered on, or undefined for a seed. */
  discoveryLink(crawlId: number, urlId: number, fromUrlId: number): DiscoveryLink | undefined {
    return this.statements
      .get(`SELECT ${linkKindSql('l.kind')} AS kind, l.anchor_text AS anchorText FROM urls src JOIN ${URL_LINKS_JOIN} WHERE src.crawl_id = ? AND src.id = ? AND l.to_url_id = ? ORDER BY l.id LIMIT 1`)
      .get(crawlId, fromUrlId, urlId) as DiscoveryLink | undefined;
  }

  /**
   * Links into the URL from pages of the crawl, oldest first, `limit` from `offset`.
   * @returns the rows and `total` links in (a page that links twice counts twice)
   */
  inlinks(crawlId: number, urlId: number, window: { offset: number; limit: number }): LinkPage<InlinkRecord> {
    const total = this.statements.get(`SELECT COUNT(*) FROM links WHERE crawl_id = ? AND to_url_id = ?`).pluck().get(crawlId, urlId) as number;
    const rows = this.statements
      .get(
        `SELECT l.from_url_id AS fromUrlId, f.url AS fromUrl, COALESCE(l.raw_url, (SELECT t.url FROM urls t WHERE t.id = l.to_url_id)) AS rawUrl,
                ${linkKindSql('l.kind')} AS kind, l.anchor_text AS anchorText, ${linkElementSql('l.kind')} AS element, l.rel
         FROM links l JOIN urls f ON f.id = l.from_url_id WHERE l.crawl_id = ? AND l.to_url_id = ? ORDER BY l.id LIMIT ? OFFSET ?`,
      )
      .all(crawlId, urlId, window.limit, window.offset) as InlinkRecord[];
    return { rows, total, offset: window.offset, refused: 0 };
  }

  /**
   * Links out of the URL's page in page order, refused ones included with their rule, `limit` from `offset`.
   * @returns the rows, `total` links out and how many of them were `refused`
   */
  outlinks(crawlId: number, urlId: number, window: { offset: number; limit: number }): LinkPage<OutlinkRecord> {
    const counts = this.statements
      .get(`SELECT COUNT(*) AS total, COUNT(l.refused_by) AS refused FROM urls src JOIN ${URL_LINKS_JOIN} WHERE src.crawl_id = ? AND src.id = ?`)
      .get(crawlId, urlId) as { total: number; refused: number };
    const rows = this.statements
      .get(
        `SELECT COALESCE(l.raw_url, t.url) AS rawUrl, l.to_url_id AS toUrlId, t.url AS toUrl, t.state AS toState, t.http_status AS toStatus,
                ${linkKindSql('l.kind')} AS kind, ${linkRuleSql('l.refused_by')} AS refusedBy, l.anchor_text AS anchorText, ${linkElementSql('l.kind')} AS element, l.rel
         FROM urls src JOIN ${URL_LINKS_JOIN} LEFT JOIN urls t ON t.id = l.to_url_id WHERE src.crawl_id = ? AND src.id = ? ORDER BY l.id LIMIT ? OFFSET ?`,
      )
      .all(crawlId, urlId, window.limit, window.offset) as OutlinkRecord[];
    return { rows, total: counts.total, offset: window.offset, refused: counts.refused };
  }

  /**
   * The whole redirect chain the URL is part of, hop by hop: from the first URL that redirects
   * into it (followed back through `redirect` links, the oldest link first, once around a loop)
   * to where the chain ends. A URL neither redirecting nor redirected to is a chain of one.
   * @returns an empty array when the crawl has no such URL
   */
  redirectChain(crawlId: number, urlId: number, maxHops = 64): RedirectChainHop[] {
    const redirectInto = this.statements
      .get(`SELECT from_url_id FROM links WHERE crawl_id = ? AND to_url_id = ? AND kind = ${LINK_KIND_CODES.redirect} ORDER BY id LIMIT 1`)
      .pluck();
    let start = urlId;
    const visited = new Set<number>([urlId]);
    for (let step = 0; step < maxHops; step += 1) {
      const from = redirectInto.get(crawlId, start) as number | undefined;
      if (from === undefined || visited.has(from)) break;
      visited.add(from);
      start = from;
    }
    return this.redirects.chain(crawlId, start, maxHops);
  }

  /** The content group the URL's page belongs to (as a member or as its first page), or null. */
  contentGroupId(crawlId: number, urlId: number): number | null {
    const id = this.statements
      .get(
        `SELECT g.id FROM content_groups g WHERE g.crawl_id = ? AND (g.first_url_id = ? OR g.id IN (SELECT group_id FROM content_group_members WHERE url_id = ?))
         ORDER BY g.id LIMIT 1`,
      )
      .pluck()
      .get(crawlId, urlId, urlId) as number | undefined;
    return id ?? null;
  }

  /** Registrable domains (or hosts, when a domain is unknown) of the crawl's seeds. */
  seedDomains(crawlId: number): string[] {
    return this.statements
      .get(`SELECT DISTINCT COALESCE(registrable_domain, host) FROM urls WHERE crawl_id = ? AND depth = 0 AND discovered_from IS NULL`)
      .pluck()
      .all(crawlId) as string[];
  }
}
