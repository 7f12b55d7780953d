import { type WritableDB, LinkCounts, PagesQueries, type PagesQuery } from '../../engine';
import type { PageListRow } from '../../shared/types/pages';
import type { RowPage } from '../../shared/types/crawl';

/**
 * The Pages table (issue 11 part 2): brings the crawl's inlink and outlink counts up to date with
 * the links stored since the last query, then reads one page sorted and filtered in SQLite.
 */
export class PagesService {
  private readonly linkCounts: LinkCounts;
  private readonly queries: PagesQueries;

  constructor(db: WritableDB) {
    this.linkCounts = new LinkCounts(db);
    // The first sort by a column builds its index through this handle (engine sort-indexes.ts).
    this.queries = new PagesQueries(db, { indexWriter: db });
  }

  /**
   * One page of the crawl's Pages table, with the count of rows its filter matches.
   * The link counts are refreshed without waiting for the write lock: while another process commits
   * a crawl to this file they may lag until the next query, and the page is served at once.
   * @throws CodedError INVALID_URL_REGEX, REGEX_UNAVAILABLE (the URL filter's regex)
   */
  query(crawlId: number, query: PagesQuery): RowPage<PageListRow> {
    this.linkCounts.tryRefresh(crawlId);
    return this.queries.pages(crawlId, query);
  }
}
