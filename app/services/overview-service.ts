/** The Overview tab's and the site tree's service: the engine's aggregate queries for one crawl, checked and timed. */
import { CrawlReader, OverviewQueries, SiteTreeQueries, type ReadableDB, type SiteTreeQuery, type WritableDB } from '../../engine';
import type { CrawlOverview, SiteTreeChildren, UrlAncestry } from '../../shared/types/overview';

/** A monotonic clock in milliseconds (performance.now); tests pass their own. */
export type MonotonicClock = () => number;

/**
 * Answers `overview.get`, `siteTree.children` and `urls.ancestry` for the crawl database open in
 * the app. Each call first checks that the crawl exists, so an unknown id is CRAWL_NOT_FOUND
 * rather than an empty chart. `overview` reports how long its queries took (`queryMs`): the
 * renderer refreshes a live Overview no sooner than a multiple of that, so a 1,000,000-URL crawl
 * is not slowed by its own charts.
 */
export class OverviewService {
  private readonly reader: CrawlReader;
  private readonly overviews: OverviewQueries;
  private readonly siteTree: SiteTreeQueries;

  /** @param indexWriter a write handle on the same file, through which the first site-tree expand builds its index (absent: read-only) */
  constructor(
    db: ReadableDB,
    private readonly now: MonotonicClock = () => performance.now(),
    indexWriter?: WritableDB,
  ) {
    this.reader = new CrawlReader(db);
    this.overviews = new OverviewQueries(db);
    this.siteTree = new SiteTreeQueries(db, indexWriter ? { indexWriter } : {});
  }

  /** The Overview's aggregates of one crawl, with `queryMs` measured. @throws CodedError CRAWL_NOT_FOUND */
  overview(crawlId: number): CrawlOverview {
    const startMs = this.now();
    this.reader.getCrawl(crawlId);
    const overview = this.overviews.overview(crawlId);
    return { ...overview, queryMs: Math.max(0, Math.round(this.now() - startMs)) };
  }

  /** One page of a site-tree node's children. @throws CodedError CRAWL_NOT_FOUND, INVALID_PATH_PREFIX */
  children(crawlId: number, query: SiteTreeQuery): SiteTreeChildren {
    this.reader.getCrawl(crawlId);
    return this.siteTree.children(crawlId, query);
  }

  /** A URL's crawl tree, seed first. @throws CodedError CRAWL_NOT_FOUND, URL_NOT_FOUND */
  ancestry(crawlId: number, urlId: number): UrlAncestry {
    this.reader.getCrawl(crawlId);
    return this.siteTree.ancestry(crawlId, urlId);
  }
}
