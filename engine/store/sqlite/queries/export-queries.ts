/** Read queries that stream a crawl's pages, frontier, errors and groups for export. */
import type { ExtractedValue } from '../../../../shared/types/extraction';
import type { ReadableDB } from '../database';
import { CanonicalFacts, type StoredCanonicalFacts } from './canonical-facts';
import { SitemapQueries } from './sitemap-queries';
import { StatementCache } from './statement-cache';

/** A page of rows read by key (keyset paging: `WHERE key > last ORDER BY key LIMIT n`). */
export interface KeyedPage<Row> {
  rows: Row[];
  /** Key of the last row, to pass as `afterKey` for the next page; unchanged when `rows` is empty. */
  lastKey: number;
}

/** One row of a pages export. Times are epoch ms, sizes bytes. */
export interface PageExportRow {
  urlId: number;
  url: string;
  finalUrl: string;
  httpStatus: number;
  contentType: string | null;
  bodyBytes: number;
  truncated: number;
  fetchMs: number;
  title: string | null;
  fetchedAtMs: number;
  fingerprint: string | null;
  textChars: number | null;
  /** Chain followed inside one fetch, JSON; crawls before migration 0006 only. */
  redirectChainJson: string | null;
  /** A redirect's Location (its `httpStatus` is the 3xx); null for other answers. */
  location: string | null;
  /** What the crawl's extractors found (migration 0024), by extractor name; null when none ran on the page. */
  extracted: Record<string, ExtractedValue> | null;
}

/** One row of a frontier export. */
export interface FrontierExportRow {
  id: number;
  url: string;
  normalized: string;
  normalizedKey: string;
  host: string;
  registrableDomain: string | null;
  state: string;
  depth: number;
  discoveredFrom: number | null;
  enqueuedAtMs: number;
  fetchedAtMs: number | null;
  httpStatus: number | null;
  errorCode: string | null;
  errorReason: string | null;
  attempts: number;
}

/** A duplicate-URL group with its raw spellings, and what its canonical layers read (canonical-facts.ts). */
export interface UrlGroupExport extends StoredCanonicalFacts {
  urlId: number;
  url: string;
  normalized: string;
  normalizedKey: string;
  httpStatus: number | null;
  /** Its stored spellings sorted by text, each with the spellings of it plus a `#fragment` counted (migration 0016). */
  aliases: { rawUrl: string; fragmentSpellings: number }[];
}

/** One page of a content group. */
export interface ContentMemberExportRow {
  groupId: number;
  kind: string;
  fingerprint: string | null;
  firstUrl: string;
  url: string;
  similarity: number;
  title: string | null;
}

/** One crawler trap as exported (`crawlbench export --what traps`). */
export interface TrapExportRow {
  trapId: number;
  host: string;
  detector: string;
  /** suspected, released or excluded. */
  trapState: string;
  template: string;
  /** Regular-expression source over the whole URL (linear-time constructs only). */
  pattern: string;
  /** The detector's evidence in one sentence. */
  evidence: string;
  examples: string[];
  /** URLs held under it now. */
  heldCount: number;
  detectedAtMs: number;
}

/**
 * Keyset-paged reads for exports: each call reads one bounded page, so an export of a million
 * rows never holds more than one page in memory and the crawler's writes interleave with it.
 */
export class ExportQueries {
  private readonly statements: StatementCache;
  private readonly facts: CanonicalFacts;
  /** The sitemap report's reads (sitemap-queries.ts). */
  readonly sitemaps: SitemapQueries;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
    this.facts = new CanonicalFacts(db);
    this.sitemaps = new SitemapQueries(db);
  }

  /**
   * Pages of fetched URLs (state done): the count the Crawls list and the crawl's "Fetched" show.
   * A page whose URL is not done is left out: a redirect hop that closed a loop keeps its 3xx page
   * row but is an error (REDIRECT_LOOP, in the errors export), and a URL sent back to the frontier
   * (`resume --refresh-older-than`, `--retry-errors`) is left out until it is fetched again.
   */
  countPages(crawlId: number): number {
    return this.statements.get(`SELECT COUNT(*) FROM pages p JOIN urls u ON u.id = p.url_id WHERE p.crawl_id = ? AND u.state = 'done'`).pluck().get(crawlId) as number;
  }

  /**
   * One page of fetched pages after URL id `afterKey`: a rowid range of pages (`+p.crawl_id`: with
   * no crawl index on pages since migration 0016, SQLite would otherwise read the crawl through the
   * fingerprint index and sort it for every page).
   */
  pages(crawlId: number, afterKey: number, limit: number): KeyedPage<PageExportRow> {
    // A file from before migration 0024 has no extraction results to join.
    const extracted = this.statements.hasTable('page_extractions') ? '(SELECT e.values_json FROM page_extractions e WHERE e.url_id = p.url_id)' : 'NULL';
    const rows = (
      this.statements
        .get(
          `SELECT p.url_id AS urlId, u.url, p.final_url AS finalUrl, p.http_status AS httpStatus, p.content_type AS contentType,
                  p.body_bytes AS bodyBytes, p.truncated, p.fetch_ms AS fetchMs, p.title, p.fetched_at_ms AS fetchedAtMs,
                  p.fingerprint, p.text_chars AS textChars, p.redirect_chain_json AS redirectChainJson, p.location, ${extracted} AS extractedJson
           FROM pages p JOIN urls u ON u.id = p.url_id WHERE +p.crawl_id = ? AND u.state = 'done' AND p.url_id > ? ORDER BY p.url_id LIMIT ?`,
        )
        .all(crawlId, afterKey, limit) as (Omit<PageExportRow, 'extracted'> & { extractedJson: string | null })[]
    ).map(({ extractedJson, ...row }) => ({ ...row, extracted: extractedJson === null ? null : (JSON.parse(extractedJson) as Record<string, ExtractedValue>) }));
    return { rows, lastKey: rows.at(-1)?.urlId ?? afterKey };
  }

  /** Crawler traps of a crawl (migration 0019). */
  countTraps(crawlId: number): number {
    return this.statements.get(`SELECT COUNT(*) FROM traps WHERE crawl_id = ?`).pluck().get(crawlId) as number;
  }

  /** A keyset page of a crawl's crawler traps in id order, with their held counts (queries/trap-queries.ts shapes). */
  traps(crawlId: number, afterKey: number, limit: number): KeyedPage<TrapExportRow> {
    const rows = (
      this.statements
        .get(
          `SELECT t.id AS trapId, t.host, t.detector, t.state AS trapState, t.template, t.pattern, t.evidence_json AS evidenceJson, t.examples_json AS examplesJson,
                  (SELECT COUNT(*) FROM urls u WHERE u.trap_id = t.id AND u.state = 'held') AS heldCount, t.detected_at_ms AS detectedAtMs
           FROM traps t WHERE t.crawl_id = ? AND t.id > ? ORDER BY t.id LIMIT ?`,
        )
        .all(crawlId, afterKey, limit) as (Omit<TrapExportRow, 'evidence' | 'examples'> & { evidenceJson: string; examplesJson: string })[]
    ).map(({ evidenceJson, examplesJson, ...row }) => ({ ...row, evidence: (JSON.parse(evidenceJson) as { summary: string }).summary, examples: JSON.parse(examplesJson) as string[] }));
    return { rows, lastKey: rows.at(-1)?.trapId ?? afterKey };
  }

  /** URLs of a crawl, or only those in `state`. */
  countUrls(crawlId: number, state?: 'error'): number {
    if (state) return this.statements.get(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state = ?`).pluck().get(crawlId, state) as number;
    return this.statements.get(`SELECT COUNT(*) FROM urls WHERE crawl_id = ?`).pluck().get(crawlId) as number;
  }

  /** A keyset page of the frontier in id order, or of the URLs in `state` (the errors export). */
  frontier(crawlId: number, afterKey: number, limit: number, state?: 'error'): KeyedPage<FrontierExportRow> {
    const rows = this.statements
      .get(
        `SELECT id, url, normalized, normalized_key AS normalizedKey, host, registrable_domain AS registrableDomain, state, depth,
                discovered_from AS discoveredFrom, enqueued_at_ms AS enqueuedAtMs, fetched_at_ms AS fetchedAtMs, http_status AS httpStatus,
                error_code AS errorCode, error_reason AS errorReason, attempts
         FROM urls WHERE +crawl_id = ? AND id > ? ${state ? 'AND state = ?' : ''} ORDER BY id LIMIT ?`,
      )
      .all(...(state ? [crawlId, afterKey, state, limit] : [crawlId, afterKey, limit])) as FrontierExportRow[];
    return { rows, lastKey: rows.at(-1)?.id ?? afterKey };
  }

  /** Raw spellings in duplicate-URL groups (one exported row each). */
  countUrlGroupMembers(crawlId: number): number {
    return this.statements
      // +u.crawl_id: URLs in rowid order, so the groups come out in order (no temporary B-tree over the crawl).
      .get(`SELECT COALESCE(SUM(n), 0) FROM (SELECT COUNT(*) AS n FROM urls u JOIN url_aliases a ON a.url_id = u.id WHERE +u.crawl_id = ? GROUP BY u.id HAVING COUNT(*) > 1)`)
      .pluck()
      .get(crawlId) as number;
  }

  /**
   * One page of duplicate-URL groups after URL id `afterKey`. `+u.crawl_id` keeps the planner on the
   * rowid range (keyset paging) instead of a crawl_id index plus a temporary B-tree for GROUP BY,
   * which scanned every URL of the crawl for each page (issue 15: 6.7–30 s a page at 1.05M URLs).
   */
  urlGroups(crawlId: number, afterKey: number, limit: number): KeyedPage<UrlGroupExport> {
    const groups = this.statements
      .get(
        `SELECT u.id AS urlId, u.url, u.normalized, u.normalized_key AS normalizedKey, u.http_status AS httpStatus, group_concat(a.fragment_spellings || char(9) || a.raw_url, char(10)) AS aliases
         FROM urls u JOIN url_aliases a ON a.url_id = u.id
         WHERE +u.crawl_id = ? AND u.id > ? GROUP BY u.id HAVING COUNT(*) > 1 ORDER BY u.id LIMIT ?`,
      )
      .all(crawlId, afterKey, limit) as (Omit<UrlGroupExport, 'aliases'> & { aliases: string })[];
    // Stored spellings never hold a tab or a newline (URL parsing strips them), so they separate the parts.
    const rows = groups.map((group) => ({
      ...group,
      ...this.facts.of(crawlId, group.urlId),
      aliases: group.aliases
        .split('\n')
        .map((part) => {
          const tab = part.indexOf('\t');
          return { rawUrl: part.slice(tab + 1), fragmentSpellings: Number(part.slice(0, tab)) };
        })
        .sort((a, b) => (a.rawUrl < b.rawUrl ? -1 : a.rawUrl > b.rawUrl ? 1 : 0)),
    }));
    return { rows, lastKey: rows.at(-1)?.urlId ?? afterKey };
  }

  /** Pages in content groups, counting each group's first page once. */
  countContentMembers(crawlId: number): number {
    return this.statements
      .get(
        `SELECT COUNT(*) + (SELECT COUNT(*) FROM content_groups g WHERE g.crawl_id = ? AND NOT EXISTS (SELECT 1 FROM content_group_members m WHERE m.group_id = g.id AND m.url_id = g.first_url_id))
         FROM content_group_members m JOIN content_groups g ON g.id = m.group_id WHERE g.crawl_id = ?`,
      )
      .pluck()
      .get(crawlId, crawlId) as number;
  }

  /**
   * Members of content groups with id > afterKey; whole groups per page (at least one group).
   * `+g.crawl_id`, as in urlGroups: the page reads forward through the rowid, not every group of
   * the crawl into a temporary B-tree.
   */
  contentGroups(crawlId: number, afterKey: number, limit: number): KeyedPage<ContentMemberExportRow> {
    const groups = this.statements
      .get(`SELECT g.id, g.kind, g.fingerprint, g.first_url_id AS firstUrlId, f.url AS firstUrl FROM content_groups g JOIN urls f ON f.id = g.first_url_id WHERE +g.crawl_id = ? AND g.id > ? ORDER BY g.id LIMIT ?`)
      .all(crawlId, afterKey, limit) as { id: number; kind: string; fingerprint: string | null; firstUrlId: number; firstUrl: string }[];
    const members = this.statements.get(
      `SELECT u.id AS urlId, u.url, m.similarity, p.title FROM content_group_members m JOIN urls u ON u.id = m.url_id LEFT JOIN pages p ON p.url_id = u.id
       WHERE m.group_id = ? ORDER BY m.similarity DESC, u.id`,
    );
    const firstTitle = this.statements.get(`SELECT title FROM pages WHERE url_id = ?`).pluck();
    const rows: ContentMemberExportRow[] = [];
    for (const group of groups) {
      const list = members.all(group.id) as { urlId: number; url: string; similarity: number; title: string | null }[];
      const base = { groupId: group.id, kind: group.kind, fingerprint: group.fingerprint, firstUrl: group.firstUrl };
      if (!list.some((member) => member.urlId === group.firstUrlId)) {
        rows.push({ ...base, url: group.firstUrl, similarity: 1, title: (firstTitle.get(group.firstUrlId) as string | null | undefined) ?? null });
      }
      for (const member of list) rows.push({ ...base, url: member.url, similarity: member.urlId === group.firstUrlId ? 1 : member.similarity, title: member.title });
    }
    return { rows, lastKey: groups.at(-1)?.id ?? afterKey };
  }
}
