/** Read queries of the Pages table: the crawl's fetched, failed and blocked URLs, filtered and sorted in SQLite. */
import type { ReadableDB } from '../database';
import type { RowPage } from '../../../../shared/types/crawl';
import type { PageColumn, PageListRow, PagesFilter, PagesSort } from '../../../../shared/types/pages';
import { compileUrlRegex } from './url-regex';
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
 * text as the WHERE of migration 0011's partial indexes, so SQLite may use them: keep both equal.
 */
const PAGES_ROW = `u.state IN ('done', 'error', 'blocked')`;
/** Blocked by robots.txt: state `blocked` (migration 0010), or a refusal stored before it as an error. */
const BLOCKED = `(u.state = 'blocked' OR (u.state = 'error' AND u.error_code = 'ROBOTS_DISALLOWED'))`;
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

/** The path of an absolute URL: from the first '/' after its authority. */
const PATH_SQL = `substr(u.url, instr(u.url, '://') + 2 + instr(substr(u.url, instr(u.url, '://') + 3), '/'))`;

/** Escapes LIKE's wildcards (and the escape character) so `text` matches literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Name of the SQL function that tests a URL against the compiled filter pattern. */
const REGEX_FUNCTION = 'crawlbench_url_matches';

/** How long a segment's row count serves later pages of the same query (a live table refreshes each second). */
const SEGMENT_COUNT_TTL_MS = 1000;

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
 * Sorting walks an index, never sorts the crawl (migration 0011 indexes every column; inlinks and
 * outlinks come from link_counts, brought up to date by LinkCounts.refresh before a query). Ties
 * break by URL id in the sort's direction. Empty values (null: a failed URL has no size, a page
 * stored before 0009 has no H1) come last in both directions, in URL id order, so "largest first"
 * and "smallest first" both start with real values; a count of 0 is the smallest count. The query
 * reads the ranked rows through the column's index, then the rest, and counts the first segment
 * only when a page starts past its end. Paging is by offset: a page far down walks the index up to
 * it (about 1 ms per 10,000 rows).
 *
 * "URL contains" is a case-insensitive LIKE with its wildcards escaped; with `urlRegex` it is a
 * regular expression run by V8's linear-time engine (url-regex.ts), so a hostile pattern costs
 * time linear in the URLs' length, never a hang; one that would need backtracking is refused.
 */
export class PagesQueries {
  private readonly statements: StatementCache;
  private regex: { pattern: string; compiled: RegExp } | null = null;
  private readonly segmentCounts = new Map<string, { atMs: number; rows: number }>();

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
    db.function(REGEX_FUNCTION, { deterministic: true }, (pattern: unknown, url: unknown) => (this.matcher(String(pattern)).test(String(url)) ? 1 : 0));
  }

  /**
   * One page of the Pages table.
   * @returns rows in the requested order, `total` rows matching the filter (-1 when `withTotal` is false) and the offset
   * @throws CodedError INVALID_URL_REGEX (the regex does not compile, or needs backtracking), REGEX_UNAVAILABLE
   */
  pages(crawlId: number, query: PagesQuery): RowPage<PageListRow> {
    const { where, params } = this.filterSql(crawlId, query.filter);
    const total = query.withTotal === false ? -1 : this.count(FROM_URLS, where, params);
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
      skip = got.length > 0 ? 0 : skip - this.segmentCount(segment.from, [...where, segment.where], params);
    }
    return { rows, total, offset: query.offset };
  }

  /**
   * A segment's row count, kept SEGMENT_COUNT_TTL_MS: scrolling past a segment asks for it on every
   * page, and it is a scan of the segment (about 1 s per 1,000,000 rows).
   */
  private segmentCount(from: string, where: string[], params: (string | number)[]): number {
    const key = JSON.stringify([from, where, params]);
    const now = Date.now();
    const cached = this.segmentCounts.get(key);
    if (cached && now - cached.atMs < SEGMENT_COUNT_TTL_MS) return cached.rows;
    const rows = this.count(from, where, params);
    if (this.segmentCounts.size >= 64) this.segmentCounts.clear();
    this.segmentCounts.set(key, { atMs: now, rows });
    return rows;
  }

  private count(from: string, where: string[], params: (string | number)[]): number {
    return this.statements.get(`SELECT COUNT(*) ${from} WHERE ${where.join(' AND ')}`).pluck().get(...params) as number;
  }

  /** The WHERE terms (ANDed) and their parameters for a crawl and a filter. */
  private filterSql(crawlId: number, filter: PagesFilter): { where: string[]; params: (string | number)[] } {
    const where = ['u.crawl_id = ?', PAGES_ROW];
    const params: (string | number)[] = [crawlId];
    const status = filter.status ?? 'all';
    switch (status) {
      case 'all':
        break;
      case '2xx':
      case '3xx':
      case '4xx':
      case '5xx': {
        const low = Number(status[0]) * 100;
        where.push('u.http_status BETWEEN ? AND ?');
        params.push(low, low + 99);
        break;
      }
      case 'blocked':
        where.push(BLOCKED);
        break;
      case 'failed':
        where.push(`u.state = 'error' AND u.http_status IS NULL AND u.error_code IS NOT 'ROBOTS_DISALLOWED'`);
        break;
      default: {
        const unknown: never = status;
        throw new Error(`Unknown status filter ${String(unknown)}`);
      }
    }
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
      where.push(`substr(${PATH_SQL}, 1, ?) = ?`);
      params.push(filter.pathPrefix.length, filter.pathPrefix);
    }
    if (filter.depth !== undefined && filter.depth !== null) {
      where.push('u.depth = ?');
      params.push(filter.depth);
    }
    if (filter.contentType) {
      // The stored header may carry parameters ("text/html; charset=utf-8").
      where.push(`(p.content_type LIKE ? ESCAPE '\\' OR p.content_type LIKE ? ESCAPE '\\')`);
      const literal = likeLiteral(filter.contentType.trim());
      params.push(literal, `${literal};%`);
    }
    if (filter.indexability) {
      where.push(`${INDEXABILITY_SQL} = ?`);
      params.push(filter.indexability);
    }
    return { where, params };
  }

  /** The compiled pattern, kept while the filter stays the same. */
  private matcher(pattern: string): RegExp {
    if (this.regex?.pattern !== pattern) this.regex = { pattern, compiled: compileUrlRegex(pattern) };
    return this.regex.compiled;
  }
}
