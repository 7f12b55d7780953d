/** Crawl rows and what a fetch leaves behind: crawls, pages, links, aliases and page texts (reader and writer). */
import type { Statement } from 'better-sqlite3';
import type { ReadableDB, WritableDB } from './database';
import type { CrawlSettings, CrawlStatus, CrawlSummary, UrlState } from '../../../shared/types/crawl';
import { CodedError } from '../../../shared/types/result';
import { crawlSummary, noUrlCounts, type CrawlRow } from '../crawl-row';
import type { LinkRow, PageRow } from '../ports';
import { linkKindCode, linkRuleCode, linkRuleName } from './link-codes';
import { placeholderRows } from './placeholders';
import { EXTEND_LINK_RANGE_SQL, extendLinkRangeArgs, type LinkIdRange } from './link-ranges';
import type { TextBlockPlace } from './page-text-codec';

/** Links rows written by one multi-row INSERT ({@link CrawlRepository.insertLinks}): 8 columns each, 512 parameters. */
export const LINK_ROWS_PER_INSERT = 64;
const LINK_COLUMNS = 8;
const INSERT_LINKS = 'INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind, refused_by, anchor_text, rel) VALUES';

/** Writes one link's column values (INSERT_LINKS order, kind and rule as codes) into `values` from `at`; returns `values`. */
function linkValues(crawlId: number, link: LinkRecord, values: unknown[], at: number): unknown[] {
  values[at] = crawlId;
  values[at + 1] = link.fromUrlId;
  values[at + 2] = link.rawUrl;
  values[at + 3] = link.toUrlId;
  values[at + 4] = linkKindCode(link.kind);
  values[at + 5] = linkRuleCode(link.refusedBy);
  values[at + 6] = link.anchorText ?? null;
  values[at + 7] = link.rel ?? null;
  return values;
}

/**
 * A page row as SQLite stores it: the port's {@link PageRow} with the MinHash sketch as a BLOB
 * (sketchToBlob), and the redirect chain JSON that crawls before migration 0006 kept (null since).
 */
export type PageRecord = Omit<PageRow, 'minhash'> & {
  /** MinHash sketch BLOB; null for pages without text. */
  minhash: Buffer | null;
  /** Crawls before migration 0006 only (redirects followed inside the fetch); null since. */
  redirectChainJson: string | null;
};

/**
 * A link row as the repository writes it: the port's {@link LinkRow} with `rawUrl` null where the
 * link's text is its target's `urls.url` (migration 0016: the reader shows the target's URL). Kind
 * and rule are stored as their codes (link-codes.ts); `element` is not stored (it follows from the kind).
 */
export type LinkRecord = Omit<LinkRow, 'rawUrl' | 'element'> & { rawUrl: string | null };

/**
 * Reads crawls, their URL counts and refusals; takes a read handle (a read-only open, `export`,
 * the views), so nothing here can write.
 */
export class CrawlReader {
  private readonly urlIdByKey: Statement;

  constructor(readonly db: ReadableDB) {
    this.urlIdByKey = db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND normalized_key = ?`).pluck();
  }

  /** @throws CodedError CRAWL_NOT_FOUND */
  getCrawl(crawlId: number): CrawlSummary {
    const row = this.db.prepare(`SELECT * FROM crawls WHERE id = ?`).get(crawlId) as CrawlRow | undefined;
    if (!row) throw new CodedError('CRAWL_NOT_FOUND', `No crawl with id ${crawlId}`);
    return this.toSummary(row);
  }

  /** Every crawl, newest first. */
  listCrawls(): CrawlSummary[] {
    const rows = this.db.prepare(`SELECT * FROM crawls ORDER BY id DESC`).all() as CrawlRow[];
    return rows.map((row) => this.toSummary(row));
  }

  /** Id of the URL with this normalized key in the crawl, if the URL-seen test has it. */
  findUrlId(crawlId: number, normalizedKey: string): number | undefined {
    return this.urlIdByKey.get(crawlId, normalizedKey) as number | undefined;
  }

  /** Links refused per link rule in one crawl (one per distinct link of a page). */
  refusalCounts(crawlId: number): Record<string, number> {
    const rows = this.db.prepare(`SELECT refused_by AS rule, COUNT(*) AS n FROM links WHERE crawl_id = ? AND refused_by IS NOT NULL GROUP BY refused_by`).all(crawlId) as { rule: number; n: number }[];
    const counts: Record<string, number> = Object.fromEntries(rows.map((row) => [linkRuleName(row.rule), row.n]));
    // Links past a page's cap have no link rows: their count is stored with the page (migration 0007).
    const overCap = this.db.prepare(`SELECT COALESCE(SUM(links_over_cap), 0) FROM pages WHERE crawl_id = ?`).pluck().get(crawlId) as number;
    if (overCap > 0) counts['max-links-per-page'] = overCap;
    return counts;
  }

  /** Pages that duplicate an earlier page's content (members of content groups other than each group's first page). */
  duplicateCount(crawlId: number): number {
    return this.db
      .prepare(`SELECT COUNT(*) FROM content_group_members m JOIN content_groups g ON g.id = m.group_id WHERE g.crawl_id = ? AND m.url_id != g.first_url_id`)
      .pluck()
      .get(crawlId) as number;
  }

  /** When the crawl last fetched a URL (epoch ms), or null before its first fetch. */
  lastFetchedAtMs(crawlId: number): number | null {
    return this.db.prepare(`SELECT MAX(fetched_at_ms) FROM urls WHERE crawl_id = ?`).pluck().get(crawlId) as number | null;
  }

  /** URL counts by state for one crawl. */
  stateCounts(crawlId: number): Record<UrlState, number> {
    const counts = noUrlCounts();
    const rows = this.db.prepare(`SELECT state, COUNT(*) AS n FROM urls WHERE crawl_id = ? GROUP BY state`).all(crawlId) as { state: UrlState; n: number }[];
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  private toSummary(row: CrawlRow): CrawlSummary {
    return crawlSummary(row, this.stateCounts(row.id));
  }

}

/**
 * Writes crawls, pages and links, and reads them as {@link CrawlReader} does; takes a writable
 * handle. Statements are prepared once and reused (STYLE.md convention 7); callers group writes in
 * transactions.
 */
export class CrawlRepository extends CrawlReader {
  private readonly insertPageStatement: Statement;
  private readonly insertLinkStatement: Statement;
  private readonly insertLinkRowsStatement: Statement;
  private readonly deleteLinksFromStatement: Statement;
  private readonly hasPageStatement: Statement;
  private readonly linkRangeStatement: Statement;
  private readonly setLinkRangeStatement: Statement;
  private readonly extendLinkRangeStatement: Statement;
  private readonly deleteTextStatement: Statement;
  private readonly insertAliasStatement: Statement;
  private readonly insertTextBlockStatement: Statement;

  constructor(override readonly db: WritableDB) {
    super(db);
    this.insertPageStatement = db.prepare(
      `INSERT OR REPLACE INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, truncated, fetch_ms, title, redirect_chain_json, fetched_at_ms,
                                     fingerprint, minhash, text_chars, noindex, location, links_over_cap,
                                     response_headers_json, meta_description, h1, canonical_url, robots_directives, indexability, word_count, lang,
                                     text_block_id, text_slot)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteLinksFromStatement = db.prepare(`DELETE FROM links WHERE id BETWEEN ? AND ? AND from_url_id = ?`);
    this.hasPageStatement = db.prepare(`SELECT 1 FROM pages WHERE url_id = ?`).pluck();
    this.linkRangeStatement = db.prepare(`SELECT first_link_id AS first, last_link_id AS last FROM urls WHERE id = ?`);
    this.setLinkRangeStatement = db.prepare(`UPDATE urls SET first_link_id = ?, last_link_id = ? WHERE id = ?`);
    this.extendLinkRangeStatement = db.prepare(EXTEND_LINK_RANGE_SQL);
    this.deleteTextStatement = db.prepare(`DELETE FROM page_texts WHERE url_id = ?`);
    this.insertLinkStatement = db.prepare(`${INSERT_LINKS} ${placeholderRows(1, LINK_COLUMNS)}`);
    this.insertLinkRowsStatement = db.prepare(`${INSERT_LINKS} ${placeholderRows(LINK_ROWS_PER_INSERT, LINK_COLUMNS)}`);
    this.insertTextBlockStatement = db.prepare(`INSERT INTO page_text_blocks (crawl_id, texts) VALUES (?, ?)`);
    this.insertAliasStatement = db.prepare(
      `INSERT INTO url_aliases (url_id, raw_url, first_seen_from, fragment_spellings) VALUES (?, ?, ?, ?)
       ON CONFLICT (url_id, raw_url) DO UPDATE SET fragment_spellings = fragment_spellings + excluded.fragment_spellings WHERE excluded.fragment_spellings > 0`,
    );
  }

  /** Inserts a crawl in state `running`. @returns its id */
  createCrawl(seeds: readonly string[], settings: CrawlSettings, nowMs: number): number {
    const info = this.db
      .prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES (?, ?, 'running', ?)`)
      .run(JSON.stringify(seeds), JSON.stringify(settings), nowMs);
    return Number(info.lastInsertRowid);
  }

  updateSettings(crawlId: number, settings: CrawlSettings): void {
    this.db.prepare(`UPDATE crawls SET settings_json = ? WHERE id = ?`).run(JSON.stringify(settings), crawlId);
  }

  setStatus(crawlId: number, status: CrawlStatus, finishedAtMs: number | null): void {
    this.db.prepare(`UPDATE crawls SET status = ?, finished_at_ms = ? WHERE id = ?`).run(status, finishedAtMs, crawlId);
  }

  /**
   * Stores a page row, replacing the URL's earlier one.
   * @param text where its text excerpt is (a block {@link insertTextBlock} stored), or null when it has none
   */
  insertPage(crawlId: number, page: PageRecord, text: TextBlockPlace | null = null): void {
    this.insertPageStatement.run(
      page.urlId,
      crawlId,
      page.finalUrl,
      page.httpStatus,
      page.contentType,
      page.bodyBytes,
      page.truncated ? 1 : 0,
      Math.round(page.fetchMs),
      page.title,
      page.redirectChainJson,
      page.fetchedAtMs,
      page.fingerprint,
      page.minhash,
      page.textChars,
      page.noindex ? 1 : 0,
      page.location,
      page.linksOverCap,
      page.responseHeadersJson ?? null,
      page.metaDescription ?? null,
      page.h1 ?? null,
      page.canonicalUrl ?? null,
      page.robotsDirectives ?? null,
      page.indexability ?? null,
      page.wordCount ?? null,
      page.lang ?? null,
      text?.blockId ?? null,
      text?.slot ?? null,
    );
  }

  /** True when URL `urlId` has a page row (an earlier fetch's answer: this fetch is a re-fetch). */
  hasPage(urlId: number): boolean {
    return this.hasPageStatement.get(urlId) !== undefined;
  }

  /** The ids of URL `urlId`'s link rows (link-ranges.ts); null when it has none. */
  linkRange(urlId: number): LinkIdRange | null {
    const row = this.linkRangeStatement.get(urlId) as { first: number | null; last: number | null } | undefined;
    return row === undefined || row.first === null || row.last === null ? null : { first: row.first, last: row.last };
  }

  /** Makes `range` the ids of URL `urlId`'s link rows (null: it has none), as a re-fetch that replaced them. */
  setLinkRange(urlId: number, range: LinkIdRange | null): void {
    this.setLinkRangeStatement.run(range?.first ?? null, range?.last ?? null, urlId);
  }

  /** Widens URL `urlId`'s link range to take links `range.first` to `range.last`, written after its others. */
  extendLinkRange(urlId: number, range: LinkIdRange): void {
    this.extendLinkRangeStatement.run(...extendLinkRangeArgs(urlId, range));
  }

  /** Drops the `page_texts` row a page's fetch before migration 0026 stored (its page row now names its text, if any). */
  deletePageText(urlId: number): void {
    this.deleteTextStatement.run(urlId);
  }

  /**
   * Drops the link rows a page's earlier fetch stored (a re-fetch: "Re-fetch now",
   * --refresh-older-than), so its new links replace them instead of doubling every count.
   * @param range the ids of its link rows ({@link linkRange})
   */
  deleteLinksFrom(fromUrlId: number, range: LinkIdRange): void {
    this.deleteLinksFromStatement.run(range.first, range.last, fromUrlId);
  }

  /**
   * Stores one link, its kind and rule as their codes.
   * @returns its id
   * @throws CodedError UNKNOWN_LINK_KIND, UNKNOWN_LINK_RULE (a name with no code: a caller's bug);
   *   the driver's CHECK error when a link has neither a target nor a text
   */
  insertLink(crawlId: number, link: LinkRecord): number {
    return Number(this.insertLinkStatement.run(linkValues(crawlId, link, [], 0)).lastInsertRowid);
  }

  /**
   * Stores links in the order given (their ids follow it), LINK_ROWS_PER_INSERT to a statement:
   * one call into SQLite per row cost about 3 µs a link, one per 64 rows about 1.5 µs (200,000
   * links, in memory). The values go as arguments, not as one array: better-sqlite3 reads an
   * array's elements through V8's generic property lookup, an argument list directly (64-row
   * inserts into an unindexed in-memory table: 0.48 → 0.33 µs a row, three rounds each).
   * @returns the id of the last row (the rows' ids are consecutive: SQLite gives a new row the
   *   largest id plus one, and this connection is the crawl's one writer), or null for no links
   * @throws as {@link insertLink}; the rows before a failing statement stay (the caller's transaction rolls back)
   */
  insertLinks(crawlId: number, links: readonly LinkRecord[]): number | null {
    const values: unknown[] = new Array(LINK_COLUMNS * LINK_ROWS_PER_INSERT);
    let last: number | null = null;
    let start = 0;
    for (; start + LINK_ROWS_PER_INSERT <= links.length; start += LINK_ROWS_PER_INSERT) {
      for (let row = 0; row < LINK_ROWS_PER_INSERT; row += 1) linkValues(crawlId, links[start + row]!, values, row * LINK_COLUMNS);
      last = Number(this.insertLinkRowsStatement.run(...values).lastInsertRowid);
    }
    for (; start < links.length; start += 1) last = this.insertLink(crawlId, links[start]!);
    return last;
  }

  /**
   * Deletes the crawl's text blocks no page row names any more (every text in them was replaced by
   * a re-fetch's). One pass over the crawl's page rows; a block with one text still named stays whole.
   * @returns blocks deleted
   */
  deleteUnreferencedTextBlocks(crawlId: number): number {
    return this.db
      .prepare(
        `DELETE FROM page_text_blocks WHERE crawl_id = ?
           AND id NOT IN (SELECT text_block_id FROM pages WHERE crawl_id = ? AND text_block_id IS NOT NULL)`,
      )
      .run(crawlId, crawlId).changes;
  }

  /**
   * Keeps a block of page texts (page-text-codec.ts packTextBlocks), appended after the crawl's earlier ones.
   * @returns its id, for the page rows that name its texts
   */
  insertTextBlock(crawlId: number, block: Uint8Array): number {
    return Number(this.insertTextBlockStatement.run(crawlId, block).lastInsertRowid);
  }

  /**
   * Records a raw spelling of a URL (a member of its duplicate-URL group); a repeat keeps the first
   * row. `fragmentSpellings` (spellings of it with a `#fragment`, not stored apart) are added to its count.
   */
  insertAlias(urlId: number, rawUrl: string, fromUrlId: number | null, fragmentSpellings = 0): void {
    this.insertAliasStatement.run(urlId, rawUrl, fromUrlId, fragmentSpellings);
  }

  /**
   * Seed 004's "Clear Error Cache": every URL in state error or blocked goes back to pending, so
   * the next run tries it again (a blocked URL is checked against robots.txt again, as it may have
   * changed, and fetched only if it now allows it).
   * @returns how many URLs were re-queued
   */
  requeueErrors(crawlId: number): number {
    return this.db
      .prepare(`UPDATE urls SET state = 'pending', error_code = NULL, error_reason = NULL, robots_line = NULL, attempts = 0 WHERE crawl_id = ? AND state IN ('error', 'blocked')`)
      .run(crawlId).changes;
  }

  /**
   * Re-queues pages fetched before `nowMs - olderThanMs` (continuous crawling, IIR 20.2: a URL may
   * be back in the frontier for re-fetching). @returns how many URLs were re-queued
   */
  requeueOlderThan(crawlId: number, olderThanMs: number, nowMs: number): number {
    return this.db.prepare(`UPDATE urls SET state = 'pending', attempts = 0 WHERE crawl_id = ? AND state = 'done' AND fetched_at_ms < ?`).run(crawlId, nowMs - olderThanMs)
      .changes;
  }

}
