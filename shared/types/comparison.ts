/**
 * Crawl comparison's vocabulary (issue 14 part 7): the kinds of change between two crawls, what
 * one crawl settled of a URL, and the Compare view's summary and rows. One source for the diff
 * engine (app/services/crawl-diff.ts), `crawlbench diff`, the IPC contract and the renderer.
 * Plain JSON; times are epoch milliseconds (`…AtMs`).
 */
import type { CrawlStatus, UrlState } from './crawl';

/**
 * The kinds of change, in the order the report lists them. One URL can have several (a page that
 * now answers 404 is a `status` change and a `new-error`).
 * - `added`: the normalized key is only in the after crawl; `removed`: only in the before crawl.
 *   Only URLs the crawl settled count (a page row: fetched, whatever the status; or state
 *   `error`): pending, held and robots-blocked URLs were never fetched and are not the site.
 * - `status`: the HTTP status differs (`pages.http_status`, else `urls.http_status`; none for a
 *   network error).
 * - `title`: `pages.title` differs, both answers 2xx (an error page's title is not the page's).
 * - `content`: the content fingerprints differ (both present, both answers 2xx) and the MinHash
 *   similarity is below the near-duplicate threshold, or unknown (a sketch missing);
 *   `near-changed`: they differ but the similarity is at or above it (a small edit).
 * - `redirect`: the redirect target (`pages.location` of a 3xx) was added, removed or changed.
 * - `new-error`: the URL failed in the after crawl (state `error`, or an HTTP 4xx/5xx answer) and
 *   not in the before crawl, or is new there (a new broken link is a new error and an add).
 */
export const CHANGE_KINDS = ['added', 'removed', 'status', 'title', 'content', 'near-changed', 'redirect', 'new-error'] as const;

/** One kind of change: see {@link CHANGE_KINDS}. */
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What each change kind means, in a few words (the CLI's summary and usage, the Compare view's tooltips). */
export const CHANGE_KIND_LABELS: Readonly<Record<ChangeKind, string>> = {
  added: 'URLs only in the after crawl',
  removed: 'URLs only in the before crawl',
  status: 'HTTP status changed',
  title: 'title changed',
  content: 'content changed (fingerprint differs, MinHash similarity below the near-duplicate threshold)',
  'near-changed': 'content near-changed (fingerprint differs, similarity at or above the threshold: a small edit)',
  redirect: 'redirect target added, removed or changed',
  'new-error': 'URLs that fail in the after crawl and did not before',
};

/** A URL as one crawl settled it: the fields the comparison reads. */
export interface UrlSnapshot {
  /** `urls.id` in that crawl's database. */
  urlId: number;
  /** The spelling the crawl fetched (`urls.url`): the first one it met, tracking parameters and all. */
  url: string;
  state: UrlState;
  /** HTTP status (`pages.http_status`, else `urls.http_status`); null when no answer came (a network error). */
  status: number | null;
  title: string | null;
  /** Content fingerprint: SHA-256 (hex) of the page's normalized visible text; null without text. */
  fingerprint: string | null;
  /** Redirect target of a 3xx answer (resolved, no fragment); null for every other answer. */
  location: string | null;
  /** The URL's error code (`HTTP_404`, `CONNECTION_REFUSED`, …); null unless it failed. */
  errorCode: string | null;
}

/** One change of one URL. */
export interface CrawlChange {
  kind: ChangeKind;
  /** The join key: the normalized key under the before crawl's identity. */
  normalizedKey: string;
  /** The after crawl's spelling when the URL is there, else the before crawl's. */
  url: string;
  /** The URL in the before crawl; null for `added`. */
  before: UrlSnapshot | null;
  /** The URL in the after crawl; null for `removed`. */
  after: UrlSnapshot | null;
  /**
   * `content` and `near-changed` only: estimated Jaccard similarity of the two MinHash sketches in
   * [0, 1] (1/64 steps); null when a page has no sketch (too little text).
   */
  similarity?: number | null;
}

/** One compared crawl, as the report names it. */
export interface DiffCrawlInfo {
  crawlId: number;
  status: CrawlStatus;
  /** Epoch ms. */
  createdAtMs: number;
  /** Name of its normalization profile. */
  profile: string;
  /** DUST rules in force in it (accepted, not undone). */
  dustRules: number;
  /** URLs of the crawl that took part: settled ones (a page row, or state `error`). */
  urls: number;
}

/** One side of a comparison in the Compare view: the crawl, and the database file it is in. */
export interface ComparisonSide extends DiffCrawlInfo {
  /** Absolute path of the other database file the crawl was read from; null: the open database. */
  file: string | null;
}

/**
 * Answer of `compare.run`: a comparison computed and kept by main (the changes themselves are read
 * a page at a time through `compare.changes`, by `comparisonId`).
 */
export interface ComparisonSummary {
  /** Names the kept comparison in `compare.changes` (main keeps the newest few; an evicted one is COMPARISON_NOT_FOUND: run it again). */
  comparisonId: number;
  before: ComparisonSide;
  after: ComparisonSide;
  /** The crawls key URLs differently, so the after crawl's URLs were keyed again under the before crawl's identity. */
  rekeyed: boolean;
  /** After-crawl URLs folded into another by that re-key (not compared). */
  foldedByRekey: number;
  /** Similarity at or above which a changed fingerprint is `near-changed`, in [0, 1]. */
  nearDuplicateThreshold: number;
  /** URLs whose normalized key is in both crawls. */
  common: number;
  /** Changes per kind (every kind present, 0 when none). */
  counts: Record<ChangeKind, number>;
  /** Every change, all kinds together. */
  total: number;
  /** Wall time of the comparison, ms. */
  ms: number;
}

/** One row of the Compare view's table: a change, numbered in the comparison's order (kind, then URL). */
export interface ChangeRow extends CrawlChange {
  /** Position of the change in the whole comparison (0-based): a stable row key across filters. */
  index: number;
}
