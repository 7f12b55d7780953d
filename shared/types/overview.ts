/**
 * The Overview tab's and the site tree's contract (issue 11 parts 4 and 5): the aggregates the
 * engine computes in SQL, the fixed response-time bucket edges, and the site tree's and crawl
 * tree's nodes. Plain JSON; units live in names (`…Ms` milliseconds, `…AtMs` epoch milliseconds).
 * "Pages" means the Pages table's rows: URLs of the crawl that were fetched, failed or blocked
 * (not those still queued or in flight).
 */
import type { Indexability, StatusFilter } from './pages';

/** A status class of a page: the Status filter's choices without `all`. */
export type StatusClass = Exclude<StatusFilter, 'all'>;

/** Every status class in display order (the Status filter's order). */
export const STATUS_CLASSES: readonly StatusClass[] = ['2xx', '3xx', '4xx', '5xx', 'blocked', 'failed'];

/** Status classes in words (chart labels, tree column headers). */
export const STATUS_CLASS_LABELS: Record<StatusClass, string> = {
  '2xx': '2xx success',
  '3xx': '3xx redirect',
  '4xx': '4xx client error',
  '5xx': '5xx server error',
  blocked: 'Blocked by robots.txt',
  failed: 'Failed, no answer',
};

/**
 * Lower edges of the response-time histogram's buckets, milliseconds: bucket i holds fetch times
 * in [edge i, edge i+1), the last one everything from its edge up. Fixed, so two crawls' charts compare.
 */
export const RESPONSE_TIME_EDGES_MS: readonly number[] = [0, 50, 100, 250, 500, 1000, 2000, 5000];

/** Hosts shown by name in "Pages per host"; the rest are summed as "others". */
export const OVERVIEW_TOP_HOSTS = 10;

/** Depths shown one bar each in "Depth"; deeper pages are summed in one "deeper" bar. */
export const OVERVIEW_MAX_DEPTH_BARS = 20;

/** Pages per status class of one crawl or one site-tree node. */
export type StatusClassCounts = Record<StatusClass, number>;

/** One bucket of the response-time histogram: fetch times in [`fromMs`, `belowMs`); `belowMs` null for the last. */
export interface ResponseTimeBucket {
  fromMs: number;
  belowMs: number | null;
  pages: number;
}

/** One bucket of the pages-per-second series: pages whose fetch ended in [`fromMs`, `fromMs` + `bucketMs`). */
export interface RateBucket {
  /** Epoch ms of the bucket's start. */
  fromMs: number;
  pages: number;
}

/** The Overview tab's aggregates for one crawl, every one computed in SQLite (engine/store/sqlite/queries/overview-queries.ts). */
export interface CrawlOverview {
  crawlId: number;
  /** Pages (fetched, failed or blocked) in all. */
  pages: number;
  /** URLs still queued or in flight (not pages yet). */
  queued: number;
  statusClasses: StatusClassCounts;
  /** Pages per depth for depths 0 … OVERVIEW_MAX_DEPTH_BARS - 1, in depth order (depths without pages are left out). */
  depths: { depth: number; pages: number }[];
  /** Pages at depth OVERVIEW_MAX_DEPTH_BARS or deeper. */
  deeperPages: number;
  /** One bucket per RESPONSE_TIME_EDGES_MS edge; pages without a fetch (failed, blocked) are not counted. */
  responseTimes: ResponseTimeBucket[];
  /** Pages per media type (lower case, no parameters), most pages first; `contentType` null: no Content-Type. */
  contentTypes: { contentType: string | null; pages: number }[];
  /** Pages per indexability verdict, in INDEXABILITY order, then `null`: not recorded (a page stored before the verdict existed, or a URL never fetched). */
  indexability: { indexability: Indexability | null; pages: number }[];
  /** The OVERVIEW_TOP_HOSTS hosts with most pages, most first. */
  topHosts: { host: string; pages: number }[];
  /** Pages of the other hosts, and how many hosts those are. */
  otherHosts: { hosts: number; pages: number };
  /** Links refused per link rule (links.refused_by, and pages' links over the per-page cap), most first. */
  refusedByRule: { rule: string; links: number }[];
  /** Pages fetched per bucket over the whole crawl, from pages.fetched_at_ms (survives resume). */
  rate: { bucketMs: number; buckets: RateBucket[] };
  /** How long main took to compute this, milliseconds (the renderer spaces its live refreshes by it). */
  queryMs: number;
}

/** One node of the site tree: a host, a directory (path ending in `/`) or a page path under its parent. */
export interface SiteTreeNode {
  /** `host` for a host node, else the path segment (a directory's ends with `/`; '' is the parent directory's own page, e.g. `/docs/` itself). */
  name: string;
  kind: 'host' | 'directory' | 'page';
  host: string;
  /** The path this node covers (e.g. `/docs/` or `/docs/intro.html`); `/` for a host. */
  pathPrefix: string;
  /** URLs under the node, every state. */
  urls: number;
  /** URLs under the node still queued or in flight. */
  queued: number;
  statusClasses: StatusClassCounts;
  /** The URL's id when the node is exactly one URL (the crawl tree can show it), else null. */
  urlId: number | null;
}

/** One page of a node's children in name order, with how many children there are in all. */
export interface SiteTreeChildren {
  nodes: SiteTreeNode[];
  total: number;
  offset: number;
}

/** One URL of a crawl-tree ancestry, from the seed down to the URL asked for. */
export interface AncestryHop {
  urlId: number;
  url: string;
  depth: number;
  /** The URL's frontier state (pending, in_flight, done, error …). */
  state: string;
  httpStatus: number | null;
  /** How its parent (the previous hop) linked to it: the link kind (`a`, `redirect` …); null for the seed. */
  linkKind: string | null;
  /** The anchor text of that link when recorded (migration 0009), else null. */
  anchorText: string | null;
}

/** A URL's ancestry by discovered_from: `hops` from the seed (or the oldest hop kept) down to the URL. */
export interface UrlAncestry {
  hops: AncestryHop[];
  /** True when the chain was longer than the hops kept: `hops[0]` is then not a seed. */
  truncated: boolean;
}
