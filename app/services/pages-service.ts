import { type WritableDB, LinkCounts, PagesQueries, type PagesQuery } from '../../engine';
import type { ExtractedValue } from '../../shared/types/extraction';
import type { PageListRow } from '../../shared/types/pages';
import type { RowPage } from '../../shared/types/crawl';

/**
 * The Pages table (issue 11 part 2): brings the crawl's inlink and outlink counts up to date with
 * the links stored since the last query, then reads one page sorted and filtered in SQLite, with
 * each row's extracted values (issue 14 part 2).
 */
export class PagesService {
  private readonly linkCounts: LinkCounts;
  private readonly queries: PagesQueries;
  private readonly db: WritableDB;
  /** The extracted values of a page of URL ids, by primary key (null: a file from before migration 0024). */
  private extractions: ReturnType<WritableDB['prepare']> | null | undefined;

  constructor(db: WritableDB) {
    this.db = db;
    this.linkCounts = new LinkCounts(db);
    // The first sort by a column builds its index through this handle (engine sort-indexes.ts).
    this.queries = new PagesQueries(db, { indexWriter: db });
  }

  /**
   * One page of the crawl's Pages table, with the count of rows its filter matches; each row
   * carries `extracted`, its extractors' values (null when none ran on it), read by URL id for
   * the page's rows only (one primary-key lookup each).
   * The link counts are refreshed without waiting for the write lock: while another process commits
   * a crawl to this file they may lag until the next query, and the page is served at once.
   * @throws CodedError INVALID_URL_REGEX, REGEX_UNAVAILABLE (the URL filter's regex)
   */
  query(crawlId: number, query: PagesQuery): RowPage<PageListRow> {
    this.linkCounts.tryRefresh(crawlId);
    const page = this.queries.pages(crawlId, query);
    return { ...page, rows: this.withExtracted(page.rows) };
  }

  private withExtracted(rows: PageListRow[]): PageListRow[] {
    if (this.extractions === undefined) {
      const hasTable = this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'page_extractions'`).get() !== undefined;
      this.extractions = hasTable ? this.db.prepare(`SELECT url_id AS urlId, values_json AS json FROM page_extractions WHERE url_id IN (SELECT value FROM json_each(?))`) : null;
    }
    if (this.extractions === null || rows.length === 0) return rows.map((row) => ({ ...row, extracted: null }));
    const found = new Map<number, string>();
    for (const { urlId, json } of this.extractions.all(JSON.stringify(rows.map((row) => row.urlId))) as { urlId: number; json: string }[]) found.set(urlId, json);
    return rows.map((row) => {
      const json = found.get(row.urlId);
      return { ...row, extracted: json === undefined ? null : (JSON.parse(json) as Record<string, ExtractedValue>) };
    });
  }
}
