/**
 * The Pages table's contract (issue 11, Screaming Frog's "Internal" tab): its columns, the filter
 * and sort a query takes, and the row it returns. One source for the engine's SQL (which sorts and
 * filters in SQLite, with indexes), the IPC schema and the renderer's column chooser. Plain JSON;
 * units live in names (`…Ms` milliseconds, `…AtMs` epoch milliseconds, `…Bytes` bytes).
 */
import type { ExtractedValue } from './extraction';
import type { SitemapFilter } from './sitemaps';

/** How a page stands for a search engine, most specific reason first (Screaming Frog's "Indexability Status"). */
export const INDEXABILITY = ['indexable', 'noindex', 'canonicalised', 'blocked', 'non-200'] as const;
/** One indexability verdict. `blocked`: refused by robots.txt; `non-200`: any other answer than 200, or none. */
export type Indexability = (typeof INDEXABILITY)[number];

/** The Status filter's choices: an HTTP status class, blocked by robots.txt, or failed without an answer. */
export const STATUS_FILTERS = ['all', '2xx', '3xx', '4xx', '5xx', 'blocked', 'failed'] as const;
/** One Status filter choice. */
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The Status filter's choices in words (the Pages view's select, the Overview's bars). */
export const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  all: 'All',
  '2xx': '2xx',
  '3xx': '3xx',
  '4xx': '4xx',
  '5xx': '5xx',
  blocked: 'Blocked by robots',
  failed: 'Failed',
};

/** Indexability verdicts in words. */
export const INDEXABILITY_LABELS: Record<Indexability, string> = {
  indexable: 'Indexable',
  noindex: 'Noindex',
  canonicalised: 'Canonicalised',
  blocked: 'Blocked by robots',
  'non-200': 'Non-200',
};

/** The Pages table's columns, in default order. Every one is sortable. */
export const PAGE_COLUMNS = [
  'url',
  'status',
  'contentType',
  'title',
  'metaDescription',
  'h1',
  'canonical',
  'indexability',
  'sizeBytes',
  'responseMs',
  'depth',
  'inlinks',
  'outlinks',
  'fetchedAtMs',
] as const;
/** One column id of the Pages table. */
export type PageColumn = (typeof PAGE_COLUMNS)[number];

/** Column headings in words (the column chooser and the table's header). */
export const PAGE_COLUMN_LABELS: Record<PageColumn, string> = {
  url: 'URL',
  status: 'Status',
  contentType: 'Content type',
  title: 'Title',
  metaDescription: 'Meta description',
  h1: 'H1',
  canonical: 'Canonical',
  indexability: 'Indexability',
  sizeBytes: 'Size',
  responseMs: 'Response time',
  depth: 'Depth',
  inlinks: 'Inlinks',
  outlinks: 'Outlinks',
  fetchedAtMs: 'Fetched',
};

/** What the Pages table shows; every field narrows (absent or null: no narrowing). */
export interface PagesFilter {
  status?: StatusFilter;
  /** URL contains this text (case-insensitive), or matches it as a regular expression when `urlRegex`. */
  urlContains?: string;
  urlRegex?: boolean;
  /** Exact host (lower case, no port). */
  host?: string;
  /** Exact depth (links from a seed). */
  depth?: number;
  /** Content type's media type, without parameters (e.g. `text/html`). */
  contentType?: string;
  indexability?: Indexability;
  /**
   * URLs whose path starts with this prefix (the site tree's click-through), with `host`. The path
   * is the URL after its scheme and authority, from its first `/` (query included). SQL for it:
   * engine/store/sqlite/queries/page-classes.ts pathPrefixTestSql (the same URLs as the site
   * tree's urlPrefixRanges); the Status filter's is statusClassTestSql there.
   */
  pathPrefix?: string;
  /** Pages whose fetch took at least this many milliseconds (the Overview's response-time bars). */
  responseMsAtLeast?: number;
  /** Pages whose fetch took less than this many milliseconds. */
  responseMsBelow?: number;
  /** Pages fetched at or after this epoch ms (the Overview's pages-per-second bars; pages.fetched_at_ms). */
  fetchedAtMsAtLeast?: number;
  /** Pages fetched before this epoch ms. */
  fetchedAtMsBelow?: number;
  /** Pages at this depth or deeper (the Overview's "deeper" bar). */
  depthAtLeast?: number;
  /** Pages with no value in this column (the Overview's "none" and "not recorded" bars). */
  withoutValue?: 'contentType' | 'indexability';
  /** Listed in a sitemap, an orphan, or listed but not indexable (shared/types/sitemaps.ts). */
  sitemap?: SitemapFilter;
}

/** The order of the Pages table. */
export interface PagesSort {
  column: PageColumn;
  direction: 'asc' | 'desc';
}

/** Columns shown until the user picks others in the column chooser (the rest are one click away). */
export const DEFAULT_PAGE_COLUMNS: readonly PageColumn[] = ['url', 'status', 'contentType', 'title', 'indexability', 'sizeBytes', 'responseMs', 'depth', 'inlinks', 'outlinks'];

/** One row of the Pages table: one URL of the crawl that was fetched, failed or blocked. */
export interface PageListRow {
  /** The URL's id in its crawl (the inspector opens it). */
  urlId: number;
  url: string;
  /** HTTP status; null when there was no answer (failed, blocked). */
  status: number | null;
  /** The URL's frontier state: done, error, or blocked (robots.txt; also a refusal stored before state `blocked` existed as error ROBOTS_DISALLOWED). */
  state: string;
  /** Error code and message when the URL failed (e.g. TIMEOUT), else null. */
  errorCode: string | null;
  errorMessage: string | null;
  contentType: string | null;
  title: string | null;
  metaDescription: string | null;
  h1: string | null;
  canonical: string | null;
  indexability: Indexability | null;
  sizeBytes: number | null;
  responseMs: number | null;
  depth: number;
  inlinks: number;
  outlinks: number;
  fetchedAtMs: number | null;
  /**
   * What the crawl's custom extractors found on the page (table page_extractions, issue 14 part 2),
   * by extractor name; null when none ran on it (not HTML, failed, or fetched before the extractor
   * existed). The Pages table shows one column per extractor of the crawl's settings; these columns
   * are not sortable.
   */
  extracted?: Record<string, ExtractedValue> | null;
}
