/** Read queries of the Frontier view: hosts with their queues, and URLs paged by state, host and text. */
import type { ReadableDB, WritableDB } from '../database';
import { FRONTIER_HOST_INDEX, SortIndexes } from '../sort-indexes';
import type { HostRow, HostWaitingReason, UrlTableRow } from '../../../../shared/types/rows';
import type { RowPage, UrlState } from '../../../../shared/types/crawl';
import { StatementCache } from './statement-cache';

/** Filters and window of the Frontier view's URL table. */
export interface UrlTableQuery {
  offset: number;
  limit: number;
  state?: UrlState;
  /** Exact host. */
  host?: string;
  /** Substring of the URL. */
  text?: string;
  /** false skips COUNT(*); the page's `total` is then -1. @default true */
  withTotal?: boolean;
}

/** A live host state from the running crawl (CrawlService.liveHostStates). */
export interface LiveHostState {
  host: string;
  inFlight: number;
  nextEligibleAtMs: number;
  waitingReason: HostWaitingReason | null;
}

/** Per-host counts by state. */
type HostCounts = Pick<HostRow, 'host' | 'queued' | 'inFlight' | 'done' | 'errors'>;

/** How long one scan of the host counts serves the host table. */
const HOST_COUNTS_TTL_MS = 900;

/** Anchors kept per crawl for the unfiltered table (offset → first id of the page there). */
const MAX_ANCHORS = 2048;

/**
 * Read-only queries of the Frontier view, paged from SQLite so the renderer never holds a table.
 *
 * The unfiltered URL table is read in rowid order (`+crawl_id` keeps SQLite off the
 * (crawl_id, normalized_key) index, which would sort the whole crawl for every page). Its rows are
 * append-only (URLs are never deleted and ids only grow), so the id at each offset served is
 * remembered and a later page starts from the nearest anchor below it instead of skipping every
 * row from the start: scrolling back and forth through 1,000,000 rows stays a few milliseconds a page.
 */
export class FrontierQueries {
  private readonly statements: StatementCache;
  /** crawlId → sorted [offset, id] pairs. */
  private readonly anchors = new Map<number, [number, number][]>();
  private hostCache: { key: string; atMs: number; rows: HostCounts[] } | null = null;

  /** Builds FRONTIER_HOST_INDEX on the first filter by host; null on a read-only handle (the filter then sorts the host's URLs). */
  private readonly indexes: SortIndexes | null;

  /** @param options.indexWriter a write handle on the same file, through which the first filter by host builds its index (sort-indexes.ts) */
  constructor(db: ReadableDB, options: { indexWriter?: WritableDB } = {}) {
    this.statements = new StatementCache(db);
    this.indexes = options.indexWriter ? new SortIndexes(options.indexWriter) : null;
  }

  /**
   * One page of the URL table in discovery order, with the URL each was discovered from.
   * @returns rows, `total` matching rows (-1 when `withTotal` is false) and the offset
   */
  urls(crawlId: number, query: UrlTableQuery): RowPage<UrlTableRow> {
    if (query.host) this.indexes?.ensureIndex(FRONTIER_HOST_INDEX);
    const where: string[] = [];
    const params: (string | number)[] = [crawlId];
    if (query.state) {
      where.push('u.state = ?');
      params.push(query.state);
    }
    if (query.host) {
      where.push('u.host = ?');
      params.push(query.host);
    }
    if (query.text) {
      where.push('instr(u.url, ?) > 0');
      params.push(query.text);
    }
    const unfiltered = where.length === 0;
    // The state and host indexes serve filtered queries; the rowid scan serves the rest.
    const crawlTest = query.state || query.host ? 'u.crawl_id = ?' : '+u.crawl_id = ?';
    let total = -1;
    if (query.withTotal !== false) {
      const countSql = `SELECT COUNT(*) FROM urls u WHERE ${['u.crawl_id = ?', ...where].join(' AND ')}`;
      total = this.statements.get(countSql).pluck().get(...params) as number;
    }
    let skip = query.offset;
    let fromId = 0;
    if (unfiltered) {
      const anchor = this.nearestAnchor(crawlId, query.offset);
      if (anchor) {
        skip = query.offset - anchor[0];
        fromId = anchor[1];
      }
    }
    const sql = `SELECT u.id, u.url, u.host, u.state, u.depth, u.normalized, u.normalized_key AS normalizedKey, u.error_code AS errorCode, u.error_reason AS errorReason,
                        u.fetched_at_ms AS fetchedAtMs, u.http_status AS httpStatus, d.url AS discoveredFrom
                 FROM urls u LEFT JOIN urls d ON d.id = u.discovered_from
                 WHERE ${unfiltered ? `${crawlTest} AND u.id >= ?` : [crawlTest, ...where].join(' AND ')}
                 ORDER BY u.id LIMIT ? OFFSET ?`;
    const rows = this.statements.get(sql).all(...(unfiltered ? [crawlId, fromId] : params), query.limit, skip) as UrlTableRow[];
    if (unfiltered && rows.length > 0) this.remember(crawlId, query.offset, rows[0]!.id);
    return { rows, total, offset: query.offset };
  }

  /**
   * One page of the host table (alphabetical), counts by state from SQLite joined with the live
   * politeness state of a running crawl (`live`; empty for a crawl that is not running).
   */
  hosts(crawlId: number, query: { offset: number; limit: number; text?: string }, live: readonly LiveHostState[]): RowPage<HostRow> {
    const all = this.hostCounts(crawlId, query.text ?? '');
    const domainOf = this.statements.get(`SELECT registrable_domain FROM urls WHERE crawl_id = ? AND host = ? LIMIT 1`).pluck();
    const liveByHost = new Map(live.map((state) => [state.host, state]));
    return {
      total: all.length,
      offset: query.offset,
      rows: all.slice(query.offset, query.offset + query.limit).map((row) => {
        const state = liveByHost.get(row.host);
        return {
          ...row,
          registrableDomain: (domainOf.get(crawlId, row.host) as string | null | undefined) ?? null,
          nextEligibleAtMs: state ? state.nextEligibleAtMs : null,
          waitingReason: state && row.queued > 0 ? state.waitingReason : null,
        };
      }),
    };
  }

  /**
   * Per-host counts by state (one scan of the (crawl_id, host, state, …) index), kept for
   * HOST_COUNTS_TTL_MS: the host table's pages and total come from one scan, and a live table
   * refreshing every second scans once per refresh.
   */
  private hostCounts(crawlId: number, text: string): HostCounts[] {
    const key = `${crawlId} ${text}`;
    const now = Date.now();
    if (this.hostCache && this.hostCache.key === key && now - this.hostCache.atMs < HOST_COUNTS_TTL_MS) return this.hostCache.rows;
    const filter = text ? ' AND instr(host, ?) > 0' : '';
    const rows = this.statements
      .get(
        `SELECT host, SUM(state = 'pending') AS queued, SUM(state = 'in_flight') AS inFlight, SUM(state = 'done') AS done, SUM(state = 'error') AS errors
         FROM urls WHERE crawl_id = ?${filter} GROUP BY host ORDER BY host`,
      )
      .all(...(text ? [crawlId, text] : [crawlId])) as HostCounts[];
    this.hostCache = { key, atMs: now, rows };
    return rows;
  }

  private nearestAnchor(crawlId: number, offset: number): [number, number] | undefined {
    const list = this.anchors.get(crawlId);
    if (!list) return undefined;
    let low = 0;
    let high = list.length - 1;
    let best: [number, number] | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = list[middle]!;
      if (entry[0] <= offset) {
        best = entry;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return best;
  }

  private remember(crawlId: number, offset: number, id: number): void {
    let list = this.anchors.get(crawlId);
    if (!list) this.anchors.set(crawlId, (list = []));
    const index = list.findIndex((entry) => entry[0] >= offset);
    if (index !== -1 && list[index]![0] === offset) return;
    list.splice(index === -1 ? list.length : index, 0, [offset, id]);
    if (list.length > MAX_ANCHORS) list.splice(Math.floor(Math.random() * list.length), 1);
  }
}
