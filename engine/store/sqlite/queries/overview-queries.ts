/** Read queries of the Overview tab: a crawl's pages aggregated by status class, depth, response time, media type, indexability, host, refusal rule and time. */
import type { ReadableDB } from '../database';
import { INDEXABILITY, type Indexability } from '../../../../shared/types/pages';
import {
  OVERVIEW_MAX_DEPTH_BARS,
  OVERVIEW_TOP_HOSTS,
  RESPONSE_TIME_EDGES_MS,
  STATUS_CLASSES,
  type CrawlOverview,
  type RateBucket,
  type StatusClass,
  type StatusClassCounts,
} from '../../../../shared/types/overview';
import { CrawlReader } from '../crawl-repository';
import { mediaTypeSql, settledSql, statusClassSql } from './page-classes';
import { StatementCache } from './statement-cache';

/** Bucket widths the pages-per-second series may use, milliseconds: the smallest that gives at most RATE_MAX_BUCKETS buckets wins. */
export const RATE_BUCKET_STEPS_MS: readonly number[] = [1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000];

/** Most buckets in the pages-per-second series (a longer crawl takes wider buckets). */
export const RATE_MAX_BUCKETS = 60;

/**
 * The bucket width for a series spanning `spanMs` milliseconds: the first of RATE_BUCKET_STEPS_MS
 * giving at most RATE_MAX_BUCKETS buckets, else whole days.
 * @example rateBucketMs(30_000) → 1_000; rateBucketMs(3_600_000) → 60_000
 */
export function rateBucketMs(spanMs: number): number {
  for (const step of RATE_BUCKET_STEPS_MS) if (Math.floor(spanMs / step) + 1 <= RATE_MAX_BUCKETS) return step;
  return Math.ceil((Math.floor(spanMs / 86_400_000) + 1) / RATE_MAX_BUCKETS) * 86_400_000;
}

/**
 * The Overview's aggregates, each one GROUP BY in SQLite over the crawl's URLs (joined with their
 * pages where a page column is counted), so the renderer receives a few dozen numbers, never rows.
 * Pages are the URLs that settled (fetched, failed or blocked: page-classes.ts settledSql), the
 * same rows the Pages table lists, so a bar's count is the row count of the table it opens.
 */
export class OverviewQueries {
  private readonly statements: StatementCache;
  private readonly reader: CrawlReader;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
    this.reader = new CrawlReader(db);
  }

  /**
   * Every aggregate of the Overview for one crawl (`queryMs` is 0 here; the service measures it).
   * A crawl id with no URLs gives all zeros and empty lists.
   */
  overview(crawlId: number): CrawlOverview {
    const statusClasses = this.statusClasses(crawlId);
    const { depths, deeperPages } = this.depths(crawlId);
    const { topHosts, otherHosts } = this.hosts(crawlId);
    return {
      crawlId,
      pages: STATUS_CLASSES.reduce((sum, statusClass) => sum + statusClasses[statusClass], 0),
      queued: this.statements.get(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state IN ('pending', 'in_flight')`).pluck().get(crawlId) as number,
      statusClasses,
      depths,
      deeperPages,
      responseTimes: this.responseTimes(crawlId),
      contentTypes: this.statements
        .get(
          `SELECT ${mediaTypeSql('p')} AS contentType, COUNT(*) AS pages FROM urls u LEFT JOIN pages p ON p.url_id = u.id
           WHERE u.crawl_id = ? AND ${settledSql('u')} GROUP BY contentType ORDER BY pages DESC, contentType`,
        )
        .all(crawlId) as { contentType: string | null; pages: number }[],
      indexability: this.indexability(crawlId),
      topHosts,
      otherHosts,
      refusedByRule: Object.entries(this.reader.refusalCounts(crawlId))
        .map(([rule, links]) => ({ rule, links }))
        .sort((a, b) => b.links - a.links || a.rule.localeCompare(b.rule)),
      rate: this.rate(crawlId),
      queryMs: 0,
    };
  }

  private statusClasses(crawlId: number): StatusClassCounts {
    const counts = Object.fromEntries(STATUS_CLASSES.map((statusClass) => [statusClass, 0])) as StatusClassCounts;
    const rows = this.statements
      .get(`SELECT ${statusClassSql('u')} AS statusClass, COUNT(*) AS pages FROM urls u WHERE u.crawl_id = ? AND ${settledSql('u')} GROUP BY statusClass`)
      .all(crawlId) as { statusClass: StatusClass; pages: number }[];
    for (const row of rows) counts[row.statusClass] = row.pages;
    return counts;
  }

  private depths(crawlId: number): Pick<CrawlOverview, 'depths' | 'deeperPages'> {
    const rows = this.statements
      .get(`SELECT MIN(u.depth, ?) AS depth, COUNT(*) AS pages FROM urls u WHERE u.crawl_id = ? AND ${settledSql('u')} GROUP BY 1 ORDER BY 1`)
      .all(OVERVIEW_MAX_DEPTH_BARS, crawlId) as { depth: number; pages: number }[];
    return {
      depths: rows.filter((row) => row.depth < OVERVIEW_MAX_DEPTH_BARS),
      deeperPages: rows.find((row) => row.depth === OVERVIEW_MAX_DEPTH_BARS)?.pages ?? 0,
    };
  }

  private responseTimes(crawlId: number): CrawlOverview['responseTimes'] {
    // Bucket index = how many edges after the first are <= fetch_ms.
    const bucket = RESPONSE_TIME_EDGES_MS.slice(1)
      .map((edge) => `(p.fetch_ms >= ${edge})`)
      .join(' + ');
    const rows = this.statements
      .get(`SELECT ${bucket} AS bucket, COUNT(*) AS pages FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.crawl_id = ? AND ${settledSql('u')} GROUP BY bucket`)
      .all(crawlId) as { bucket: number; pages: number }[];
    const byBucket = new Map(rows.map((row) => [row.bucket, row.pages]));
    return RESPONSE_TIME_EDGES_MS.map((fromMs, index) => ({ fromMs, belowMs: RESPONSE_TIME_EDGES_MS[index + 1] ?? null, pages: byBucket.get(index) ?? 0 }));
  }

  private indexability(crawlId: number): CrawlOverview['indexability'] {
    const rows = this.statements
      .get(`SELECT p.indexability AS indexability, COUNT(*) AS pages FROM urls u LEFT JOIN pages p ON p.url_id = u.id WHERE u.crawl_id = ? AND ${settledSql('u')} GROUP BY 1`)
      .all(crawlId) as { indexability: string | null; pages: number }[];
    const known = new Set<string>(INDEXABILITY);
    const result: CrawlOverview['indexability'] = [];
    for (const verdict of INDEXABILITY) {
      const pages = rows.find((row) => row.indexability === verdict)?.pages ?? 0;
      if (pages > 0) result.push({ indexability: verdict as Indexability, pages });
    }
    // A value outside INDEXABILITY (a newer writer) counts as not recorded rather than vanishing.
    const unrecorded = rows.filter((row) => row.indexability === null || !known.has(row.indexability)).reduce((sum, row) => sum + row.pages, 0);
    if (unrecorded > 0) result.push({ indexability: null, pages: unrecorded });
    return result;
  }

  private hosts(crawlId: number): Pick<CrawlOverview, 'topHosts' | 'otherHosts'> {
    const rows = this.statements
      .get(`SELECT u.host AS host, COUNT(*) AS pages FROM urls u WHERE u.crawl_id = ? AND ${settledSql('u')} GROUP BY u.host ORDER BY pages DESC, host`)
      .all(crawlId) as { host: string; pages: number }[];
    const rest = rows.slice(OVERVIEW_TOP_HOSTS);
    return { topHosts: rows.slice(0, OVERVIEW_TOP_HOSTS), otherHosts: { hosts: rest.length, pages: rest.reduce((sum, row) => sum + row.pages, 0) } };
  }

  /** Pages per time bucket from pages.fetched_at_ms, buckets aligned to multiples of their width, gaps (a pause) as zeros. */
  private rate(crawlId: number): CrawlOverview['rate'] {
    const range = this.statements
      .get(`SELECT MIN(p.fetched_at_ms) AS first, MAX(p.fetched_at_ms) AS last FROM pages p JOIN urls u ON u.id = p.url_id WHERE p.crawl_id = ? AND ${settledSql('u')}`)
      .get(crawlId) as { first: number | null; last: number | null };
    if (range.first === null || range.last === null) return { bucketMs: RATE_BUCKET_STEPS_MS[0]!, buckets: [] };
    let bucketMs = rateBucketMs(range.last - range.first);
    // Aligning the first bucket down may add one bucket: widen once more if that breaks the cap.
    if (Math.floor(range.last / bucketMs) - Math.floor(range.first / bucketMs) + 1 > RATE_MAX_BUCKETS) bucketMs = rateBucketMs(range.last - range.first + bucketMs);
    const firstBucket = Math.floor(range.first / bucketMs);
    const rows = this.statements
      .get(`SELECT CAST(p.fetched_at_ms / ? AS INTEGER) AS bucket, COUNT(*) AS pages FROM pages p JOIN urls u ON u.id = p.url_id WHERE p.crawl_id = ? AND ${settledSql('u')} GROUP BY bucket`)
      .all(bucketMs, crawlId) as { bucket: number; pages: number }[];
    const byBucket = new Map(rows.map((row) => [row.bucket, row.pages]));
    const buckets: RateBucket[] = [];
    for (let bucket = firstBucket; bucket <= Math.floor(range.last / bucketMs); bucket += 1) buckets.push({ fromMs: bucket * bucketMs, pages: byBucket.get(bucket) ?? 0 });
    return { bucketMs, buckets };
  }
}
