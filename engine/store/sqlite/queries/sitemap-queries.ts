/**
 * Read queries about sitemaps (migration 0018): the SQL tests of "listed", "orphan" and "listed
 * but not indexable" (one definition, used by the Pages filter and the sitemap report), and the
 * report's keyset-paged read of listed URLs.
 */
import type { SitemapFilter } from '../../../../shared/types/sitemaps';
import { URL_SOURCE_BITS } from '../../../../shared/types/url-sources';
import type { ReadableDB } from '../database';
import type { KeyedPage } from './export-queries';
import { StatementCache } from './statement-cache';

const { seed, link, sitemap } = URL_SOURCE_BITS;

/** SQL true when URL row `u` is listed in a sitemap. */
export function listedSql(u: string): string {
  return `(${u}.sources & ${sitemap}) != 0`;
}

/** SQL true when URL row `u` is an orphan: listed, neither a seed nor the target of a followed link. */
export function orphanSql(u: string): string {
  return `(${u}.sources & ${seed | link | sitemap}) = ${sitemap}`;
}

/**
 * The WHERE term of a Pages sitemap filter over URL row `u`, given the SQL of the row's
 * indexability verdict (page-queries.ts: the stored verdict, else blocked / non-200).
 */
export function sitemapFilterSql(filter: SitemapFilter, u: string, indexabilitySql: string): string {
  switch (filter) {
    case 'listed':
      return listedSql(u);
    case 'orphan':
      return orphanSql(u);
    case 'listed-not-indexable':
      return `${listedSql(u)} AND ${indexabilitySql} != 'indexable'`;
    default: {
      const exhaustive: never = filter;
      throw new Error(`Unknown sitemap filter ${String(exhaustive)}`);
    }
  }
}

/** A URL a sitemap listed, with what the sitemap report judges it by. */
export interface ListedUrlRow {
  urlId: number;
  url: string;
  state: string;
  httpStatus: number | null;
  errorCode: string | null;
  /** The robots.txt rule that blocked it, `12: Disallow: /x` (state blocked). */
  robotsLine: string | null;
  /** 1 when it is an orphan ({@link orphanSql}). */
  orphan: number;
  /** The stored indexability verdict; null when the URL has no page (no answer, blocked, not fetched yet). */
  indexability: string | null;
  /** A redirect's target. */
  location: string | null;
  /** Its rel=canonical target. */
  canonicalUrl: string | null;
  /** The first sitemap that lists it. */
  sitemap: string;
  /** Sitemaps that list it. */
  sitemaps: number;
  /** The `<loc>` spelling a sitemap used where it differs from `url`, else null. */
  listedAs: string | null;
  /** The first URL of its content group when it is another URL's duplicate (exact or near), else null. */
  duplicateOf: string | null;
  /** Its stored raw spellings (url_aliases), for its URL group's canonical. */
  spellings: string[];
}

/** A sitemap the crawl could not read whole, for the sitemap report. */
export interface SitemapErrorRow {
  url: string;
  foundVia: 'robots' | 'probe' | 'index';
  /** The index that listed it, else null. */
  parentUrl: string | null;
  httpStatus: number | null;
  errorCode: string;
  errorMessage: string | null;
  /** Entries read before the error. */
  entries: number;
}

/** Reads a crawl's listed URLs and sitemap errors for the sitemap report. */
export class SitemapQueries {
  private readonly statements: StatementCache;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
  }

  /** URLs listed in the crawl's sitemaps (the report's rows, about: a URL may have two findings, or none). One pass over the crawl's URLs, once per export. */
  countListed(crawlId: number): number {
    return this.statements.get(`SELECT COUNT(*) FROM urls u WHERE +u.crawl_id = ? AND ${listedSql('u')}`).pluck().get(crawlId) as number;
  }

  /**
   * The crawl's sitemaps that could not be read whole, in the order they were stored; a
   * `/sitemap.xml` probe that answered 404 or 410 is left out (no sitemap there is no error).
   */
  sitemapErrors(crawlId: number): SitemapErrorRow[] {
    return this.statements
      .get(
        `SELECT s.url, s.found_via AS foundVia, p.url AS parentUrl, s.http_status AS httpStatus, s.error_code AS errorCode, s.error_message AS errorMessage, s.entries
         FROM sitemaps s LEFT JOIN sitemaps p ON p.id = s.parent_id
         WHERE s.crawl_id = ? AND s.error_code IS NOT NULL AND NOT (s.found_via = 'probe' AND s.error_code IN ('HTTP_404', 'HTTP_410'))
         ORDER BY s.id`,
      )
      .all(crawlId) as SitemapErrorRow[];
  }

  /**
   * Listed URLs after URL id `afterKey`, in id order: a rowid range (`+u.crawl_id` keeps SQLite
   * off the crawl_id indexes, which would sort), so the pages of one export read the crawl's URLs
   * once; each subquery reads by index (sitemap_urls and content_group_members and url_aliases by URL).
   */
  listed(crawlId: number, afterKey: number, limit: number): KeyedPage<ListedUrlRow> {
    const rows = this.statements
      .get(
        `SELECT u.id AS urlId, u.url, u.state, u.http_status AS httpStatus, u.error_code AS errorCode, u.robots_line AS robotsLine,
                ${orphanSql('u')} AS orphan, p.indexability, p.location, p.canonical_url AS canonicalUrl,
                (SELECT s.url FROM sitemap_urls su JOIN sitemaps s ON s.id = su.sitemap_id WHERE su.url_id = u.id ORDER BY su.sitemap_id LIMIT 1) AS sitemap,
                (SELECT COUNT(*) FROM sitemap_urls su WHERE su.url_id = u.id) AS sitemaps,
                (SELECT su.listed_as FROM sitemap_urls su WHERE su.url_id = u.id AND su.listed_as IS NOT NULL ORDER BY su.sitemap_id LIMIT 1) AS listedAs,
                (SELECT f.url FROM content_group_members m JOIN content_groups g ON g.id = m.group_id JOIN urls f ON f.id = g.first_url_id
                  WHERE m.url_id = u.id AND g.first_url_id != u.id LIMIT 1) AS duplicateOf,
                (SELECT json_group_array(a.raw_url) FROM url_aliases a WHERE a.url_id = u.id) AS spellingsJson
         FROM urls u LEFT JOIN pages p ON p.url_id = u.id
         WHERE +u.crawl_id = ? AND u.id > ? AND ${listedSql('u')}
         ORDER BY u.id LIMIT ?`,
      )
      .all(crawlId, afterKey, limit) as (Omit<ListedUrlRow, 'spellings'> & { spellingsJson: string })[];
    return {
      rows: rows.map(({ spellingsJson, ...row }) => ({ ...row, spellings: JSON.parse(spellingsJson) as string[] })),
      lastKey: rows.at(-1)?.urlId ?? afterKey,
    };
  }
}
