/** Read queries of the Pages table: the crawl's fetched, failed and blocked URLs, filtered and sorted in SQLite. */
import type { ReadableDB, WritableDB } from '../database';
import { PAGES_ROW_STATES, SortIndexes } from '../sort-indexes';
import type { RowPage } from '../../../../shared/types/crawl';
import type { PageColumn, PageListRow, PagesFilter, PagesSort } from '../../../../shared/types/pages';
import { CodedError } from '../../../../shared/types/result';
import { mediaTypeSql, pathPrefixTestSql, statusClassTestSql } from './page-classes';
import { compileUrlRegex } from '../../../regex/url-regex';
import { sitemapFilterSql } from './sitemap-queries';
import { StatementCache } from './statement-cache';

/** One page request of the Pages table. */
export interface PagesQuery {
  offset: number;
  limit: number;
  filter: PagesFilter;
  sort: PagesSort;
  /** false skips COUNT(*); the page's `total` is then -1. @default true */
  withTotal?: boolean;
}

/**
 * The URLs that are Pages rows: fetched (done), failed (error) or blocked by robots.txt. The same
 * text as the WHERE of the partial sort indexes (sort-indexes.ts), so SQLite may use them.
 */
const PAGES_ROW = `u.${PAGES_ROW_STATES}`;
/** Blocked by robots.txt: state `blocked` (migration 0010), or a refusal stored before it as error ROBOTS_DISALLOWED. */
const BLOCKED = statusClassTestSql('u', 'blocked');
/** A row's indexability: the stored verdict, else what its state says (blocked by robots, or no answer at all). */
const INDEXABILITY_SQL = `COALESCE(p.indexability, CASE WHEN ${BLOCKED} THEN 'blocked' WHEN p.url_id IS NULL THEN 'non-200' END)`;

const SELECT_ROW = `SELECT u.id AS urlId, u.url, u.http_status AS status,
         CASE WHEN ${BLOCKED} THEN 'blocked' ELSE u.state END AS state,
         CASE WHEN ${BLOCKED} THEN NULL ELSE u.error_code END AS errorCode, u.error_reason AS errorMessage,
         p.content_type AS contentType, p.title, p.meta_description AS metaDescription, p.h1, p.canonical_url AS canonical,
         ${INDEXABILITY_SQL} AS indexability, p.body_bytes AS sizeBytes, p.fetch_ms AS responseMs, u.depth,
         COALESCE(c.inlinks, 0) AS inlinks, COALESCE(c.outlinks, 0) AS outlinks, u.fetched_at_ms AS fetchedAtMs`;
/** Every Pages row, with its page and link counts when it has them. */
const FROM_URLS = 'FROM urls u LEFT JOIN pages p ON p.url_id = u.id LEFT JOIN link_counts c ON c.url_id = u.id';
/** Pages rows that have a page: SQLite may walk a pages index in order (it keeps a LEFT JOIN's table order). */
const FROM_PAGES = 'FROM pages p JOIN urls u ON u.id = p.url_id AND u.crawl_id = p.crawl_id LEFT JOIN link_counts c ON c.url_id = u.id';
/** Pages rows with a link count: SQLite may walk a link_counts index in order. */
const FROM_COUNTS = 'FROM link_counts c JOIN urls u ON u.id = c.url_id AND u.crawl_id = c.crawl_id LEFT JOIN pages p ON p.url_id = u.id';

/**
 * How a column sorts. Rows whose value is `ranked` are read in the column's order through `from`
 * (whose first table holds the column's index) with `id` breaking ties; the `rest` (an empty value,
 * or a count of 0) follow in URL id order: after the ranked rows, or before them when ascending
 * for counts (`restFirstWhenAsc`: pages no link points at come first, as the smallest).
 */
interface ColumnOrder {
  sql: string;
  from: string;
  id: 'u.id' | 'p.url_id' | 'c.url_id';
  /** Absent: every Pages row has a value (one ordered read). */
  split?: { ranked: string; rest: string; restFirstWhenAsc: boolean };
}

/** A nullable column of urls or pages: null values last in both directions. */
function nullable(sql: string, table: 'u' | 'p'): ColumnOrder {
  return {
    sql,
    from: table === 'p' ? FROM_PAGES : FROM_URLS,
    id: table === 'p' ? 'p.url_id' : 'u.id',
    split: { ranked: `${sql} IS NOT NULL`, rest: `${sql} IS NULL`, restFirstWhenAsc: false },
  };
}

/** A link count: URLs without a link_counts row count 0, ranked with the zeros in URL id order. */
function linkCount(sql: string): ColumnOrder {
  return { sql, from: FROM_COUNTS, id: 'c.url_id', split: { ranked: `${sql} > 0`, rest: `COALESCE(${sql}, 0) = 0`, restFirstWhenAsc: true } };
}

const COLUMN_ORDER: Record<PageColumn, ColumnOrder> = {
  url: { sql: 'u.url', from: FROM_URLS, id: 'u.id' },
  status: nullable('u.http_status', 'u'),
  contentType: nullable('p.content_type', 'p'),
  title: nullable('p.title', 'p'),
  metaDescription: nullable('p.meta_description', 'p'),
  h1: nullable('p.h1', 'p'),
  canonical: nullable('p.canonical_url', 'p'),
  indexability: nullable('p.indexability', 'p'),
  sizeBytes: nullable('p.body_bytes', 'p'),
  responseMs: nullable('p.fetch_ms', 'p'),
  depth: { sql: 'u.depth', from: FROM_URLS, id: 'u.id' },
  inlinks: linkCount('c.inlinks'),
  outlinks: linkCount('c.outlinks'),
  fetchedAtMs: nullable('u.fetched_at_ms', 'u'),
};

/** Escapes LIKE's wildcards (and the escape character) so `text` matches literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * How long one page query may spend matching URLs against a regex (ms). The linear engine bounds
 * each URL's match, but a long pattern over a million URLs still adds up; past this the query stops
 * with URL_REGEX_TOO_SLOW, so the main process is never held longer.
 */
export const URL_REGEX_BUDGET_MS = 3000;
/** The clock is read once per this many URLs matched. */
const REGEX_CLOCK_EVERY = 64;

/** Name of the SQL function that tests a URL against the compiled filter pattern. */
const REGEX_FUNCTION = 'crawlbench_url_matches';

/** One ordered read of a page: FROM, the extra WHERE term, ORDER BY. */
interface Segment {
  from: string;
  where: string;
  orderBy: string;
}

/**
 * The Pages table's query (issue 11 part 2), paged from SQLite so the renderer never holds a table.
 *
 * Rows are every URL of the crawl in state done, error or blocked (a robots.txt refusal stored as
 * error ROBOTS_DISALLOWED counts as blocked); pending and in-flight URLs belong to the Frontier view.
 *
 * Sorting walks an index, never sorts the crawl: each column's index (the URL order's too) is
 * built on the first sort by it when the queries hold a write handle (sort-indexes.ts,
 * migration 0016); inlinks and outlinks come from link_counts, brought up to date by
 * LinkCounts.refresh before a query. Ties
 * break by URL id in the sort's direction. Empty values (null: a failed URL has no size, a page
 * stored before 0009 has no H1) come last in both directions, in URL id order, so "largest first"
 * and "smallest first" both start with real values; a count of 0 is the smallest count. The query
 * reads the ranked rows through the column's index, then the rest, and counts the first segment
 * only when a page starts past its end. Paging is by offset: a page far down walks the index up to
 * it (about 1 ms per 10,000 rows).
 *
 * "URL contains" is a case-insensitive LIKE with its wildcards escaped; with `urlRegex` it is a
 * regular expression run by V8's linear-time engine (url-regex.ts), so a hostile pattern costs
 * time linear in the URLs' length, never a hang; one that would need backtracking is refused, and a
 * query whose matching runs past URL_REGEX_BUDGET_MS stops with URL_REGEX_TOO_SLOW.
 *
 * Indexability sorts by the stored verdict; rows without one (no page: failed or blocked) show the
 * verdict their state implies but sort with the empty values.
 */
export class PagesQueries {
  private readonly statements: StatementCache;
  private regex: { pattern: string; compiled: RegExp } | null = null;
  private readonly counts = new Map<string, { version: string; rows: number }>();
  private readonly regexBudgetMs: number;
  /** Builds a sort column's index on its first sort; null on a read-only handle (the query sorts instead). */
  private readonly sortIndexes: SortIndexes | null;
  /** When the running query's regex matching must stop (epoch ms), and URLs matched since the last clock check. */
  private regexDeadlineMs = Number.POSITIVE_INFINITY;
  private regexCalls = 0;

  /**
   * @param options.regexBudgetMs how long one page query may spend matching URLs against a regex @default URL_REGEX_BUDGET_MS
   * @param options.indexWriter a write handle on the same file, through which the first sort by a
   *   column builds its index (sort-indexes.ts); without one, a sort by a column whose index was
   *   never built sorts the matching rows instead (a read-only open)
   */
  constructor(db: ReadableDB, options: { regexBudgetMs?: number; indexWriter?: WritableDB } = {}) {
    this.statements = new StatementCache(db);
    this.regexBudgetMs = options.regexBudgetMs ?? URL_REGEX_BUDGET_MS;
    this.sortIndexes = options.indexWriter ? new SortIndexes(options.indexWriter) : null;
    db.function(REGEX_FUNCTION, { deterministic: true }, (pattern: unknown, url: unknown) => {
      this.regexCalls += 1;
      if (this.regexCalls % REGEX_CLOCK_EVERY === 0 && Date.now() > this.regexDeadlineMs) {
        throw new CodedError(
          'URL_REGEX_TOO_SLOW',
          `Matching this regular expression against the crawl's URLs took more than ${this.regexBudgetMs / 1000} s; simplify it, or narrow the table with the other filters first`,
        );
      }
      return this.matcher(String(pattern)).test(String(url)) ? 1 : 0;
    });
  }

  /**
   * One page of the Pages table.
   * @returns rows in the requested order, `total` rows matching the filter (-1 when `withTotal` is false) and the offset
   * @throws CodedError INVALID_URL_REGEX (the regex does not compile, or needs backtracking), REGEX_UNAVAILABLE,
   *   URL_REGEX_TOO_SLOW (matching took longer than the budget: the query stops instead of holding main)
   */
  pages(crawlId: number, query: PagesQuery): RowPage<PageListRow> {
    const { where, params } = this.filterSql(crawlId, query.filter);
    this.regexDeadlineMs = Date.now() + this.regexBudgetMs;
    this.regexCalls = 0;
    const total = query.withTotal === false ? -1 : this.countOnce(FROM_URLS, where, params);
    this.sortIndexes?.ensure(query.sort.column);
    const order = COLUMN_ORDER[query.sort.column];
    const direction = query.sort.direction === 'desc' ? 'DESC' : 'ASC';
    const ranked: Segment = { from: order.from, where: order.split?.ranked ?? '1', orderBy: `${order.sql} ${direction}, ${order.id} ${direction}` };
    const segments: Segment[] = [ranked];
    if (order.split) {
      const rest: Segment = { from: FROM_URLS, where: order.split.rest, orderBy: 'u.id' };
      if (order.split.restFirstWhenAsc && direction === 'ASC') segments.unshift(rest);
      else segments.push(rest);
    }

    const rows: PageListRow[] = [];
    let skip = query.offset;
    for (const [index, segment] of segments.entries()) {
      const need = query.limit - rows.length;
      const got = this.statements
        .get(`${SELECT_ROW} ${segment.from} WHERE ${[...where, segment.where].join(' AND ')} ORDER BY ${segment.orderBy} LIMIT ? OFFSET ?`)
        .all(...params, need, skip) as PageListRow[];
      rows.push(...got);
      if (got.length === need || index === segments.length - 1) break;
      // The segment ends inside this page (the next starts at its top) or before it (skip past it).
      skip = got.length > 0 ? 0 : skip - this.countOnce(segment.from, [...where, segment.where], params);
    }
    return { rows, total, offset: query.offset };
  }

  /**
   * Rows matching `where`, remembered until the database changes: a new sort of the same filter, and
   * every page past a segment's end, reuse the count instead of scanning (about 0.5 s per 1,000,000
   * rows). The data version is this connection's total_changes() with PRAGMA data_version (which
   * moves when another connection commits), so a write from anywhere recounts.
   */
  private countOnce(from: string, where: string[], params: (string | number)[]): number {
    const version = this.statements.get(`SELECT (SELECT data_version FROM pragma_data_version()) || ':' || total_changes()`).pluck().get() as string;
    const key = JSON.stringify([from, where, params]);
    const cached = this.counts.get(key);
    if (cached && cached.version === version) return cached.rows;
    const rows = this.count(from, where, params);
    if (this.counts.size >= 64) this.counts.clear();
    this.counts.set(key, { version, rows });
    return rows;
  }

  private count(from: string, where: string[], params: (string | number)[]): number {
    return this.statements.get(`SELECT COUNT(*) ${from} WHERE ${where.join(' AND ')}`).pluck().get(...params) as number;
  }

  /** The WHERE terms (ANDed) and their parameters for a crawl and a filter. */
  private filterSql(crawlId: number, filter: PagesFilter): { where: string[]; params: (string | number)[] } {
    const where = ['u.crawl_id = ?', PAGES_ROW];
    const params: (string | number)[] = [crawlId];
    if (filter.status && filter.status !== 'all') where.push(statusClassTestSql('u', filter.status));
    if (filter.urlContains) {
      if (filter.urlRegex) {
        this.matcher(filter.urlContains); // throws INVALID_URL_REGEX before SQLite runs
        where.push(`${REGEX_FUNCTION}(?, u.url)`);
        params.push(filter.urlContains);
      } else {
        where.push(`u.url LIKE ? ESCAPE '\\'`);
        params.push(`%${likeLiteral(filter.urlContains)}%`);
      }
    }
    if (filter.host) {
      where.push('u.host = ?');
      params.push(filter.host.toLowerCase());
    }
    if (filter.pathPrefix) {
      where.push(pathPrefixTestSql('u'));
      params.push(filter.pathPrefix.length, filter.pathPrefix);
    }
    if (filter.depth !== undefined && filter.depth !== null) {
      where.push('u.depth = ?');
      params.push(filter.depth);
    }
    if (filter.contentType) {
      // The stored header may carry parameters ("text/html; charset=utf-8"): compare media types.
      where.push(`${mediaTypeSql('p')} = lower(trim(?))`);
      params.push(filter.contentType);
    }
    if (filter.indexability) {
      where.push(`${INDEXABILITY_SQL} = ?`);
      params.push(filter.indexability);
    }
    // The Overview's bars: ranges of response time, fetch time and depth, and "no value".
    const ranges: [number | undefined, string][] = [
      [filter.responseMsAtLeast, 'p.fetch_ms >= ?'],
      [filter.responseMsBelow, 'p.fetch_ms < ?'],
      [filter.fetchedAtMsAtLeast, 'p.fetched_at_ms >= ?'],
      [filter.fetchedAtMsBelow, 'p.fetched_at_ms < ?'],
      [filter.depthAtLeast, 'u.depth >= ?'],
    ];
    for (const [value, test] of ranges) {
      if (value === undefined || value === null) continue;
      where.push(test);
      params.push(value);
    }
    if (filter.withoutValue === 'contentType') where.push(`(p.content_type IS NULL OR trim(p.content_type) = '')`);
    if (filter.withoutValue === 'indexability') where.push('p.indexability IS NULL');
    if (filter.sitemap) where.push(sitemapFilterSql(filter.sitemap, 'u', INDEXABILITY_SQL));
    return { where, params };
  }

  /** The compiled pattern, kept while the filter stays the same. */
  private matcher(pattern: string): RegExp {
    if (this.regex?.pattern !== pattern) this.regex = { pattern, compiled: compileUrlRegex(pattern) };
    return this.regex.compiled;
  }
}
