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
import { mediaTypeSql, pageSettledSql, settledSql, statusClassSql } from './page-classes';
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

/** One group of settled pages with a page row (OverviewQueries.pageGroups). */
interface PageGroup {
  contentType: string | null;
  indexability: string | null;
  /** Index into RESPONSE_TIME_EDGES_MS. */
  bucket: number;
  pages: number;
  firstAtMs: number;
  lastAtMs: number;
}

/** Sums the groups' pages by a key. */
function sumBy<K>(groups: readonly PageGroup[], keyOf: (group: PageGroup) => K): Map<K, number> {
  const sums = new Map<K, number>();
  for (const group of groups) sums.set(keyOf(group), (sums.get(keyOf(group)) ?? 0) + group.pages);
  return sums;
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
   *
   * Four passes, each one GROUP BY whose result is a few dozen rows: the URLs by status class ×
   * depth, the hosts (a covering index), the pages by media type × indexability × response-time
   * bucket, and the pages by time bucket. The big passes read their table in rowid order (on a
   * 1,000,000-URL crawl that beats an index walk with a lookup per row), and the page passes test
   * "settled" against the queued ids from an index instead of reading each page's URL row. Settled URLs without a page
   * row (failed, blocked) are the difference between the first pass and the third: no media type,
   * indexability not recorded.
   */
  overview(crawlId: number): CrawlOverview {
    const byClassAndDepth = this.statements
      .get(
        `SELECT ${statusClassSql('u')} AS statusClass, MIN(u.depth, ?) AS depth, COUNT(*) AS pages FROM urls u
         WHERE +u.crawl_id = ? AND ${settledSql('u')} GROUP BY statusClass, depth`,
      )
      .all(OVERVIEW_MAX_DEPTH_BARS, crawlId) as { statusClass: StatusClass; depth: number; pages: number }[];
    const statusClasses = Object.fromEntries(STATUS_CLASSES.map((statusClass) => [statusClass, 0])) as StatusClassCounts;
    const pagesByDepth = new Map<number, number>();
    for (const row of byClassAndDepth) {
      statusClasses[row.statusClass] += row.pages;
      pagesByDepth.set(row.depth, (pagesByDepth.get(row.depth) ?? 0) + row.pages);
    }
    const pages = byClassAndDepth.reduce((sum, row) => sum + row.pages, 0);
    const fetched = this.pageGroups(crawlId);
    const withoutPage = pages - fetched.reduce((sum, row) => sum + row.pages, 0);
    const { topHosts, otherHosts } = this.hosts(crawlId);
    return {
      crawlId,
      pages,
      queued: this.statements.get(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state IN ('pending', 'in_flight')`).pluck().get(crawlId) as number,
      statusClasses,
      depths: [...pagesByDepth]
        .filter(([depth]) => depth < OVERVIEW_MAX_DEPTH_BARS)
        .sort((a, b) => a[0] - b[0])
        .map(([depth, count]) => ({ depth, pages: count })),
      deeperPages: pagesByDepth.get(OVERVIEW_MAX_DEPTH_BARS) ?? 0,
      responseTimes: this.responseTimes(fetched),
      contentTypes: this.contentTypes(fetched, withoutPage),
      indexability: this.indexability(fetched, withoutPage),
      topHosts,
      otherHosts,
      refusedByRule: Object.entries(this.reader.refusalCounts(crawlId))
        .map(([rule, links]) => ({ rule, links }))
        .sort((a, b) => b.links - a.links || a.rule.localeCompare(b.rule)),
      rate: this.rate(crawlId, fetched),
      queryMs: 0,
    };
  }

  /** Settled pages with a page row, grouped by media type × indexability × response-time bucket, with their first and last fetch times. */
  private pageGroups(crawlId: number): PageGroup[] {
    // Bucket index = how many edges after the first are <= fetch_ms.
    const bucket = RESPONSE_TIME_EDGES_MS.slice(1)
      .map((edge) => `(p.fetch_ms >= ${edge})`)
      .join(' + ');
    return this.statements
      .get(
        `SELECT ${mediaTypeSql('p')} AS contentType, p.indexability AS indexability, ${bucket} AS bucket, COUNT(*) AS pages,
                MIN(p.fetched_at_ms) AS firstAtMs, MAX(p.fetched_at_ms) AS lastAtMs
         FROM pages p WHERE +p.crawl_id = ? AND ${pageSettledSql('p')} GROUP BY 1, 2, 3`,
      )
      .all(crawlId, crawlId) as PageGroup[];
  }

  private responseTimes(groups: readonly PageGroup[]): CrawlOverview['responseTimes'] {
    const byBucket = sumBy(groups, (group) => group.bucket);
    return RESPONSE_TIME_EDGES_MS.map((fromMs, index) => ({ fromMs, belowMs: RESPONSE_TIME_EDGES_MS[index + 1] ?? null, pages: byBucket.get(index) ?? 0 }));
  }

  private contentTypes(groups: readonly PageGroup[], withoutPage: number): CrawlOverview['contentTypes'] {
    const byType = sumBy(groups, (group) => group.contentType);
    if (withoutPage > 0) byType.set(null, (byType.get(null) ?? 0) + withoutPage);
    return [...byType]
      .map(([contentType, pages]) => ({ contentType, pages }))
      .sort((a, b) => b.pages - a.pages || (a.contentType ?? '').localeCompare(b.contentType ?? ''));
  }

  private indexability(groups: readonly PageGroup[], withoutPage: number): CrawlOverview['indexability'] {
    const byVerdict = sumBy(groups, (group) => group.indexability);
    const result: CrawlOverview['indexability'] = [];
    for (const verdict of INDEXABILITY) {
      const pages = byVerdict.get(verdict) ?? 0;
      if (pages > 0) result.push({ indexability: verdict as Indexability, pages });
    }
    // A value outside INDEXABILITY (a newer writer) counts as not recorded rather than vanishing.
    const known = new Set<string | null>(INDEXABILITY);
    const unrecorded = withoutPage + [...byVerdict].filter(([verdict]) => !known.has(verdict)).reduce((sum, [, pages]) => sum + pages, 0);
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
  private rate(crawlId: number, groups: readonly PageGroup[]): CrawlOverview['rate'] {
    if (groups.length === 0) return { bucketMs: RATE_BUCKET_STEPS_MS[0]!, buckets: [] };
    const range = { first: Math.min(...groups.map((group) => group.firstAtMs)), last: Math.max(...groups.map((group) => group.lastAtMs)) };
    let bucketMs = rateBucketMs(range.last - range.first);
    // Aligning the first bucket down may add one bucket: widen once more if that breaks the cap.
    if (Math.floor(range.last / bucketMs) - Math.floor(range.first / bucketMs) + 1 > RATE_MAX_BUCKETS) bucketMs = rateBucketMs(range.last - range.first + bucketMs);
    const firstBucket = Math.floor(range.first / bucketMs);
    const rows = this.statements
      .get(`SELECT CAST(p.fetched_at_ms / ? AS INTEGER) AS bucket, COUNT(*) AS pages FROM pages p WHERE +p.crawl_id = ? AND ${pageSettledSql('p')} GROUP BY bucket`)
      .all(bucketMs, crawlId, crawlId) as { bucket: number; pages: number }[];
    const byBucket = new Map(rows.map((row) => [row.bucket, row.pages]));
    const buckets: RateBucket[] = [];
    for (let bucket = firstBucket; bucket <= Math.floor(range.last / bucketMs); bucket += 1) buckets.push({ fromMs: bucket * bucketMs, pages: byBucket.get(bucket) ?? 0 });
    return { bucketMs, buckets };
  }
}
