/**
 * The sitemap report (issue 12 part 1): for every URL a sitemap listed, what is wrong with listing
 * it — an orphan (never linked), not an indexable page, or a non-canonical variant — one row per
 * finding. Read by `crawlbench export --what sitemap-report` and the GUI export.
 */
import type { SitemapFinding } from '../../shared/types/sitemaps';
import { chooseGroupCanonical } from '../../shared/url/canonical';
import type { KeyedPage, ListedUrlRow, SitemapErrorRow, SitemapQueries } from '../../engine';

/** One row of the sitemap report: a listed URL's finding, or a sitemap's error (`urlId` null, `url` the sitemap's). */
export interface SitemapReportRow {
  urlId: number | null;
  url: string;
  finding: SitemapFinding;
  /** Why, in words (`HTTP 404`, `redirects (301) to …`, `noindex`, `canonicalised to …` …). */
  reason: string;
  /** For a non-canonical variant: the URL to list instead; null otherwise. */
  canonical: string | null;
  /** The first sitemap that lists the URL; for a sitemap error, the index that listed the sitemap (null when none did). */
  sitemap: string | null;
  /** The URL's state; for a sitemap error, how the sitemap was found (robots, probe, index). */
  state: string;
  httpStatus: number | null;
}

/** A sitemap error as a report row. */
function sitemapErrorRow(error: SitemapErrorRow): SitemapReportRow {
  const read = error.entries > 0 ? ` (${error.entries} entries read before it were used)` : '';
  return { urlId: null, url: error.url, finding: 'sitemap-error', reason: `${error.errorCode}: ${error.errorMessage ?? 'no message'}${read}`, canonical: null, sitemap: error.parentUrl, state: error.foundVia, httpStatus: error.httpStatus };
}

/** URL states whose answer is known (a pending URL is not judged yet). */
const SETTLED = new Set(['done', 'error', 'blocked']);

/** Why a settled listed URL is not an indexable page, or null when it is one. */
function notIndexableReason(row: ListedUrlRow): string | null {
  if (row.state === 'blocked') return `blocked by robots.txt${row.robotsLine ? ` (${row.robotsLine})` : ''}`;
  switch (row.indexability) {
    case 'indexable':
      return null;
    case 'noindex':
      return 'noindex (meta robots or X-Robots-Tag)';
    case 'canonicalised':
      return `canonicalised to ${row.canonicalUrl ?? 'another URL'}`;
    case 'blocked':
      return 'blocked by robots.txt';
    default:
      if (row.httpStatus !== null && row.httpStatus >= 300 && row.httpStatus < 400) return `redirects (${row.httpStatus}) to ${row.location ?? 'its Location'}`;
      if (row.httpStatus !== null) return `HTTP ${row.httpStatus}`;
      return `no answer (${row.errorCode ?? 'not fetched'})`;
  }
}

/**
 * The findings of one listed URL, in {@link SITEMAP_FINDINGS} order:
 * - orphan: `row.orphan` (sitemap-queries.ts orphanSql: no seed, no followed link)
 * - not-indexable: settled, and its answer is not an indexable page
 * - non-canonical-variant: the spelling listed is not its URL group's canonical (seed 001's
 *   heuristics, shared/url/canonical.ts chooseGroupCanonical over every spelling the crawl met),
 *   or the page duplicates an earlier page's content
 */
export function sitemapFindings(row: ListedUrlRow): Omit<SitemapReportRow, 'urlId' | 'url' | 'sitemap' | 'state' | 'httpStatus'>[] {
  const findings: Omit<SitemapReportRow, 'urlId' | 'url' | 'sitemap' | 'state' | 'httpStatus'>[] = [];
  if (row.orphan === 1) findings.push({ finding: 'orphan', reason: 'listed in a sitemap, but no crawled page links to it', canonical: null });
  const notIndexable = SETTLED.has(row.state) ? notIndexableReason(row) : null;
  if (notIndexable !== null) findings.push({ finding: 'not-indexable', reason: notIndexable, canonical: null });
  const listed = row.listedAs ?? row.url;
  const spellings = [...new Set([...row.spellings, row.url, listed])];
  if (spellings.length > 1) {
    const chosen = chooseGroupCanonical(spellings.map((rawUrl) => ({ rawUrl, ...(rawUrl === row.url && row.httpStatus !== null ? { status: row.httpStatus } : {}) })));
    if (chosen.canonical !== listed) {
      findings.push({ finding: 'non-canonical-variant', reason: `listed as ${listed}; its URL group's canonical is ${chosen.canonical} (decided by ${chosen.decidedBy})`, canonical: chosen.canonical });
    }
  }
  if (row.duplicateOf !== null) findings.push({ finding: 'non-canonical-variant', reason: `its content duplicates ${row.duplicateOf}`, canonical: row.duplicateOf });
  return findings;
}

/** The key past every URL id: the report's scan is over. */
const SCAN_OVER = Number.MAX_SAFE_INTEGER;

/**
 * One keyset page of the report: the first page (`afterKey` 0) starts with the sitemap errors;
 * then listed URLs after `afterKey` (URL id) are read `limit` at a time until some have findings
 * or none are left (the key is then past every id), so an empty page means the report is over.
 */
export function sitemapReportPage(queries: SitemapQueries, crawlId: number, afterKey: number, limit: number): KeyedPage<SitemapReportRow> {
  const errors = afterKey === 0 ? queries.sitemapErrors(crawlId).map(sitemapErrorRow) : [];
  let lastKey = afterKey;
  for (;;) {
    const page = queries.listed(crawlId, lastKey, limit);
    if (page.rows.length === 0) return { rows: errors, lastKey: SCAN_OVER };
    lastKey = page.lastKey;
    const rows: SitemapReportRow[] = [...errors];
    for (const row of page.rows) {
      for (const finding of sitemapFindings(row)) rows.push({ urlId: row.urlId, url: row.url, sitemap: row.sitemap, state: row.state, httpStatus: row.httpStatus, ...finding });
    }
    if (rows.length > 0) return { rows, lastKey };
  }
}
