/** Read queries of the site tree (hosts, then path segments, with counts per status class) and of a URL's crawl tree (its ancestry by discovered_from). */
import { linkKindSql } from '../link-codes';
import { URL_LINKS_JOIN } from '../link-ranges';
import type { ReadableDB, WritableDB } from '../database';
import { SITE_TREE_INDEX, SortIndexes } from '../sort-indexes';
import { STATUS_CLASSES, type AncestryHop, type SiteTreeChildren, type SiteTreeNode, type StatusClass, type UrlAncestry } from '../../../../shared/types/overview';
import { CodedError } from '../../../../shared/types/result';
import { originOf, settledSql, statusClassSql, urlPrefixRanges } from './page-classes';
import { StatementCache } from './statement-cache';

/** Which node's children to list, and which page of them. */
export interface SiteTreeQuery {
  /** Absent: the top level (one node per host). */
  host?: string;
  /** A directory path under `host`, starting and ending with `/`. @default '/' */
  pathPrefix?: string;
  offset: number;
  limit: number;
}

/** Most origins (scheme, userinfo, port) one host is looked up under; a host with more is listed under its first ones. */
export const MAX_ORIGINS_PER_HOST = 64;

/** Most hops of a crawl-tree ancestry returned (a crawler trap can be thousands deep). */
export const MAX_ANCESTRY_HOPS = 1000;

interface GroupRow {
  name: string;
  urls: number;
  queued: number;
  firstId: number;
  total: number;
  c2xx: number;
  c3xx: number;
  c4xx: number;
  c5xx: number;
  cblocked: number;
  cfailed: number;
}

/** Column alias of a status class's count in the grouped rows. */
const countColumn = (statusClass: StatusClass) => `c${statusClass}` as const;

/** The counting columns every grouped listing selects, over rows with `state` and `cls` (null while not settled). */
const COUNT_COLUMNS = [
  `COUNT(*) AS urls`,
  `SUM(state IN ('pending', 'in_flight')) AS queued`,
  `MIN(id) AS firstId`,
  `COUNT(*) OVER () AS total`,
  ...STATUS_CLASSES.map((statusClass) => `SUM(cls IS '${statusClass}') AS ${countColumn(statusClass)}`),
].join(', ');

/** Rows' status class, null for a URL still queued or in flight. */
const CLASS_COLUMN = `CASE WHEN ${settledSql('u')} THEN ${statusClassSql('u')} END AS cls`;

/**
 * The site tree, listed one node's children at a time so a big site is never sent whole, and the
 * crawl tree of one URL.
 *
 * Top level: URLs grouped by host (one pass over the (crawl_id, host, …) index). Below a host:
 * the host's origins are found by index seeks (urls_by_host_url, migration 0014: one seek per
 * origin), then each origin's URL range under the directory (page-classes.ts urlPrefixRanges) is
 * read from the same index and grouped by the next path segment in SQL. An expand therefore reads
 * only the URLs under the expanded directory, never the rest of the crawl or of the host.
 */
export class SiteTreeQueries {
  private readonly statements: StatementCache;

  /** Builds SITE_TREE_INDEX on the first expand below a host; null on a read-only handle (an expand then reads the host's rows). */
  private readonly indexes: SortIndexes | null;

  /** @param options.indexWriter a write handle on the same file, through which the first expand builds the site tree's index (sort-indexes.ts) */
  constructor(db: ReadableDB, options: { indexWriter?: WritableDB } = {}) {
    this.statements = new StatementCache(db);
    this.indexes = options.indexWriter ? new SortIndexes(options.indexWriter) : null;
  }

  /**
   * One page of a node's children in name order, with per-status-class counts.
   * @throws CodedError INVALID_PATH_PREFIX when `pathPrefix` does not start and end with `/`
   */
  children(crawlId: number, query: SiteTreeQuery): SiteTreeChildren {
    if (query.host === undefined) return this.hosts(crawlId, query);
    this.indexes?.ensureIndex(SITE_TREE_INDEX);
    const pathPrefix = query.pathPrefix ?? '/';
    if (!pathPrefix.startsWith('/') || !pathPrefix.endsWith('/')) {
      throw new CodedError('INVALID_PATH_PREFIX', `A site-tree directory starts and ends with "/": ${JSON.stringify(pathPrefix)}`);
    }
    const ranges = urlPrefixRanges(this.origins(crawlId, query.host), pathPrefix);
    if (ranges.length === 0) return { nodes: [], total: 0, offset: query.offset };
    // Per origin: the URLs in its range, with the rest of the URL after the directory.
    const branch = `SELECT u.id AS id, u.state AS state, ${CLASS_COLUMN}, substr(u.url, ?) AS rest
                    FROM urls u WHERE u.crawl_id = ? AND u.host = ? AND u.url >= ? AND u.url < ?`;
    const sql = `WITH inside AS (${ranges.map(() => branch).join(' UNION ALL ')}),
      paths AS (SELECT id, state, cls, CASE WHEN instr(rest, '#') > 0 THEN substr(rest, 1, instr(rest, '#') - 1) ELSE rest END AS rest FROM inside),
      bare AS (SELECT id, state, cls, CASE WHEN instr(rest, '?') > 0 THEN substr(rest, 1, instr(rest, '?') - 1) ELSE rest END AS path FROM paths),
      named AS (SELECT id, state, cls, CASE WHEN instr(path, '/') > 0 THEN substr(path, 1, instr(path, '/')) ELSE path END AS name FROM bare)
      SELECT name, ${COUNT_COLUMNS} FROM named GROUP BY name ORDER BY name LIMIT ? OFFSET ?`;
    const params = ranges.flatMap(([from, below]) => [from.length + 1, crawlId, query.host!, from, below]);
    const rows = this.statements.get(sql).all(...params, query.limit, query.offset) as GroupRow[];
    return {
      nodes: rows.map((row) =>
        this.node(row, {
          name: row.name,
          kind: row.name.endsWith('/') ? 'directory' : 'page',
          host: query.host!,
          pathPrefix: pathPrefix + row.name,
        }),
      ),
      total: rows[0]?.total ?? this.countChildren(sql, params),
      offset: query.offset,
    };
  }

  /**
   * The crawl tree of one URL: its ancestry by discovered_from, from the seed down to it, each hop
   * with the link (kind, anchor text) its parent found it by. At most MAX_ANCESTRY_HOPS hops.
   * @throws CodedError URL_NOT_FOUND when `urlId` is not a URL of `crawlId`
   */
  ancestry(crawlId: number, urlId: number): UrlAncestry {
    const rows = this.statements
      .get(
        `WITH RECURSIVE chain(id, n) AS (
           SELECT id, 0 FROM urls WHERE id = ? AND crawl_id = ?
           UNION ALL
           SELECT u.discovered_from, chain.n + 1 FROM chain JOIN urls u ON u.id = chain.id
           WHERE u.discovered_from IS NOT NULL AND chain.n + 1 < ?
         )
         SELECT u.id AS urlId, u.url, u.depth, u.state, u.http_status AS httpStatus, u.discovered_from AS parentId
         FROM chain JOIN urls u ON u.id = chain.id ORDER BY chain.n DESC`,
      )
      .all(urlId, crawlId, MAX_ANCESTRY_HOPS) as (Omit<AncestryHop, 'linkKind' | 'anchorText'> & { parentId: number | null })[];
    if (rows.length === 0) throw new CodedError('URL_NOT_FOUND', `Crawl ${crawlId} has no URL with id ${urlId}`);
    const linkOf = this.statements.get(
      `SELECT ${linkKindSql('l.kind')} AS kind, l.anchor_text AS anchorText FROM urls src JOIN ${URL_LINKS_JOIN} WHERE src.crawl_id = ? AND src.id = ? AND l.to_url_id = ? ORDER BY l.id LIMIT 1`,
    );
    const hops = rows.map(({ parentId, ...hop }): AncestryHop => {
      const link = parentId === null ? undefined : (linkOf.get(crawlId, parentId, hop.urlId) as { kind: string; anchorText: string | null } | undefined);
      return { ...hop, linkKind: link?.kind ?? null, anchorText: link?.anchorText ?? null };
    });
    return { hops, truncated: rows[0]!.parentId !== null };
  }

  /** Top level: one node per host, in name order. */
  private hosts(crawlId: number, query: SiteTreeQuery): SiteTreeChildren {
    const sql = `WITH rows AS (SELECT u.id AS id, u.host AS name, u.state AS state, ${CLASS_COLUMN} FROM urls u WHERE u.crawl_id = ?)
      SELECT name, ${COUNT_COLUMNS} FROM rows GROUP BY name ORDER BY name LIMIT ? OFFSET ?`;
    const rows = this.statements.get(sql).all(crawlId, query.limit, query.offset) as GroupRow[];
    return {
      nodes: rows.map((row) => ({ ...this.node(row, { name: row.name, kind: 'host', host: row.name, pathPrefix: '/' }), urlId: null })),
      total: rows[0]?.total ?? this.countChildren(sql, [crawlId]),
      offset: query.offset,
    };
  }

  /**
   * The origins a host's URLs are stored under (`http://a.test`, `https://a.test:8443` …), by
   * index seeks: every URL of origin O sorts in [O + '/', O + '0'), so the next origin starts at
   * or after O + '0'.
   */
  private origins(crawlId: number, host: string): string[] {
    const next = this.statements.get(`SELECT url FROM urls WHERE crawl_id = ? AND host = ? AND url >= ? ORDER BY url LIMIT 1`).pluck();
    const origins: string[] = [];
    let from = '';
    while (origins.length < MAX_ORIGINS_PER_HOST) {
      const url = next.get(crawlId, host, from) as string | undefined;
      if (url === undefined) break;
      const origin = originOf(url);
      origins.push(origin);
      from = `${origin}0`;
    }
    return origins;
  }

  /** The children count when the page asked for is past the end (no row carries the window's total). */
  private countChildren(sql: string, params: unknown[]): number {
    const countSql = sql.replace(/ORDER BY name LIMIT \? OFFSET \?$/, '');
    return (this.statements.get(`SELECT COUNT(*) FROM (${countSql})`).pluck().get(...params) as number) ?? 0;
  }

  private node(row: GroupRow, identity: Pick<SiteTreeNode, 'name' | 'kind' | 'host' | 'pathPrefix'>): SiteTreeNode {
    const statusClasses = Object.fromEntries(STATUS_CLASSES.map((statusClass) => [statusClass, row[countColumn(statusClass)]])) as SiteTreeNode['statusClasses'];
    return { ...identity, urls: row.urls, queued: row.queued, statusClasses, urlId: identity.kind === 'page' && row.urls === 1 ? row.firstId : null };
  }
}
