/**
 * Crawl rows in a PostgreSQL store (issue 13): create a crawl, read its summary and counts, change
 * its settings and status. The PostgreSQL twin of sqlite/crawl-repository.ts's crawl half (same
 * summary fields); URL counts come from `url_counts` (one shard per server backend, kept by
 * triggers: migration 0001), so a summary of a 1M-URL crawl sums a few rows instead of counting.
 */
import type { CrawlSettings, CrawlStatus, CrawlSummary, UrlState } from '../../../shared/types/crawl';
import { crawlSummary, noUrlCounts, type CrawlRow } from '../crawl-row';
import { CodedError } from '../../../shared/types/result';
import { postgresError, type PostgresStore } from './pool';


/** URL counts by state summed over `url_counts` shards, for the crawls `crawlIds`. */
const COUNTS_SQL = `SELECT crawl_id, state, sum(n)::bigint AS n FROM url_counts WHERE crawl_id = ANY($1::bigint[]) GROUP BY crawl_id, state`;

/**
 * The crawls of a PostgreSQL store. Each method is one round trip (or one transaction) on the
 * store's pool; failures of the server come back in plain words (pool.ts postgresError).
 */
export class PostgresCrawlRepository {
  constructor(private readonly store: PostgresStore) {}

  /** Inserts a crawl in state `running`, created at `nowMs` (epoch ms). @returns its id */
  async createCrawl(seeds: readonly string[], settings: CrawlSettings, nowMs: number): Promise<number> {
    const { rows } = await this.query<{ id: number }>(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ($1, $2, 'running', $3) RETURNING id`, [
      JSON.stringify(seeds),
      JSON.stringify(settings),
      nowMs,
    ]);
    return rows[0]!.id;
  }

  /** The crawl's summary (sqlite CrawlReader.getCrawl's fields). @throws CodedError CRAWL_NOT_FOUND */
  async getCrawl(crawlId: number): Promise<CrawlSummary> {
    const { rows } = await this.query<CrawlRow>(`SELECT * FROM crawls WHERE id = $1`, [crawlId]);
    const row = rows[0];
    if (!row) throw new CodedError('CRAWL_NOT_FOUND', `No crawl with id ${crawlId} in ${this.store.url}: list the store's crawls with crawlbench crawls --store URL`);
    return toSummary(row, await this.countsOf([crawlId]));
  }

  /** Every crawl of the store, newest first (two round trips whatever their number). */
  async listCrawls(): Promise<CrawlSummary[]> {
    const { rows } = await this.query<CrawlRow>(`SELECT * FROM crawls ORDER BY id DESC`);
    const counts = await this.countsOf(rows.map((row) => row.id));
    return rows.map((row) => toSummary(row, counts));
  }

  /** The newest crawl in state `running` (the one `crawlbench join` joins), or null when none runs. */
  async newestRunningCrawlId(): Promise<number | null> {
    const { rows } = await this.query<{ id: number }>(`SELECT id FROM crawls WHERE status = 'running' ORDER BY id DESC LIMIT 1`);
    return rows[0]?.id ?? null;
  }

  /** The newest crawl not finished (running, paused, stopped or interrupted: the one `crawlbench resume` continues), or null when every crawl finished. */
  async newestUnfinishedCrawlId(): Promise<number | null> {
    const { rows } = await this.query<{ id: number }>(`SELECT id FROM crawls WHERE status <> 'finished' ORDER BY id DESC LIMIT 1`);
    return rows[0]?.id ?? null;
  }

  /** Replaces the crawl's stored settings. */
  async updateSettings(crawlId: number, settings: CrawlSettings): Promise<void> {
    await this.query(`UPDATE crawls SET settings_json = $1 WHERE id = $2`, [JSON.stringify(settings), crawlId]);
  }

  /**
   * Sets the crawl row's status outright (`finishedAtMs` epoch ms, null while the crawl may go on),
   * whatever processes work on it: for commands outside a run. A run ends through
   * CrawlWriter.setStatus (postgres/writer.ts), which leaves the status to the last live process.
   */
  async setStatus(crawlId: number, status: CrawlStatus, finishedAtMs: number | null): Promise<void> {
    await this.query(`UPDATE crawls SET status = $1, finished_at_ms = $2 WHERE id = $3`, [status, finishedAtMs, crawlId]);
  }

  /** The crawl's URLs by state, crawl-wide (every process's), from `url_counts`. */
  async stateCounts(crawlId: number): Promise<Record<UrlState, number>> {
    return (await this.countsOf([crawlId])).get(crawlId) ?? noUrlCounts();
  }

  /** Pages that duplicate an earlier page's content (members of content groups other than each group's first page). */
  async duplicateCount(crawlId: number): Promise<number> {
    const { rows } = await this.query<{ n: number }>(
      `SELECT count(*)::bigint AS n FROM content_group_members m JOIN content_groups g ON g.id = m.group_id WHERE g.crawl_id = $1 AND m.url_id <> g.first_url_id`,
      [crawlId],
    );
    return rows[0]!.n;
  }

  private async countsOf(crawlIds: readonly number[]): Promise<Map<number, Record<UrlState, number>>> {
    const byCrawl = new Map<number, Record<UrlState, number>>();
    if (crawlIds.length === 0) return byCrawl;
    const { rows } = await this.query<{ crawl_id: number; state: UrlState; n: number }>(COUNTS_SQL, [crawlIds]);
    for (const row of rows) {
      let counts = byCrawl.get(row.crawl_id);
      if (!counts) byCrawl.set(row.crawl_id, (counts = noUrlCounts()));
      counts[row.state] = row.n;
    }
    return byCrawl;
  }

  private async query<R extends object>(sql: string, params: unknown[] = []): Promise<{ rows: R[] }> {
    try {
      return await this.store.pool.query<R>(sql, params);
    } catch (error) {
      throw postgresError(error, this.store.url);
    }
  }
}

function toSummary(row: CrawlRow, counts: Map<number, Record<UrlState, number>>): CrawlSummary {
  return crawlSummary(row, counts.get(row.id) ?? noUrlCounts());
}
