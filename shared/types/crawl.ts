import { PROFILES, type NormalizationProfile } from '../url/profiles';
import type { Extractor } from './extraction';
import type { RequestRule } from './request-rules';
import { DEFAULT_TLD_CONFIG, type TldConfig } from '../url/tld-config';

/**
 * Crawl data shapes shared by the crawler (main), the CLI, the browser-mode server and the renderer.
 * Units live in names: `…Ms` is milliseconds, `…AtMs` is epoch milliseconds, `…Bytes` is bytes.
 */

/**
 * A URL's place in the frontier, after seed 004's page states: pending (its state 0),
 * in flight, done (its "time indexed"), error (its blacklisted state 2), and blocked: refused by
 * robots.txt before any request (RFC 9309), not an error (urls.robots_line names the rule), and
 * held: a suspected crawler trap holds it (issue 12; urls.trap_id names the trap): not fetched, not
 * lost, back to pending when the user releases the trap.
 */
export type UrlState = 'pending' | 'in_flight' | 'done' | 'error' | 'blocked' | 'held';

/** Every URL state, in the order the Frontier view's state filter lists them. */
export const URL_STATES: readonly UrlState[] = ['pending', 'in_flight', 'done', 'error', 'blocked', 'held'];

/**
 * Which discovered links stay in the crawl.
 * - `host`: same host as the seed it descends from (default).
 * - `domain`: same registrable domain as the seed.
 * - `directory`: seed 004's "whole site": the seed's directory or below, same host.
 * - `any`: no scope limit (other link rules still apply).
 */
export type CrawlScope = 'host' | 'domain' | 'directory' | 'any';

export const CRAWL_SCOPES: readonly CrawlScope[] = ['host', 'domain', 'directory', 'any'];

/**
 * What a crawl fetches (Screaming Frog's "Spider" and "List" modes).
 * - `spider`: the seeds, then every link the link rules admit (default).
 * - `list`: the seeds only (a URL list, or "seeds only"), and the redirect targets they lead to;
 *   links are still extracted and stored, each refused by the `list-mode` rule.
 */
export type CrawlMode = 'spider' | 'list';

export const CRAWL_MODES: readonly CrawlMode[] = ['spider', 'list'];

/**
 * One resolver override, like curl's `--resolve` and an /etc/hosts line for the crawler:
 * requests to `host` connect to `address` (and to `port` when given, else the URL's port).
 */
export interface HostOverride {
  host: string;
  address: string;
  port?: number;
}

/** The settings one crawl runs with. All fields are JSON; defaults are {@link DEFAULT_CRAWL_SETTINGS}. */
export interface CrawlSettings {
  /** Concurrent fetches ("crawler threads", IIR 20.2), run on a worker_threads pool. */
  threads: number;
  /** Stop after this many pages have been fetched (0 = no limit). */
  maxPages: number;
  /** Links deeper than this many hops from a seed are not followed (0 = no limit). */
  maxDepth: number;
  scope: CrawlScope;
  /** Lower bound of the politeness delay between two fetches from one host. */
  minDelayMs: number;
  /** Upper bound of the politeness delay (also caps a robots Crawl-delay and Retry-After). */
  maxDelayMs: number;
  /** Politeness factor k: wait k × the last fetch's duration before the host's next fetch (Heritrix uses 5). */
  delayFactor: number;
  /** Requests in flight at once to one host. */
  maxInFlightPerHost: number;
  userAgent: string;
  obeyRobots: boolean;
  /** Whole-request timeout for one fetch (connect + headers + body). */
  timeoutMs: number;
  /** Bodies are cut at this size and recorded as truncated. */
  maxBodyBytes: number;
  /**
   * Consecutive redirects a URL may be reached through: each hop is a URL of its own, and one
   * further down a chain is refused unfetched with REDIRECT_LIMIT. robots.txt fetches follow
   * max(5, this) redirects (RFC 9309 §2.3.1.2).
   */
  maxRedirects: number;
  /** Resolver overrides applied to every request of the crawl. */
  hostOverrides: HostOverride[];
  /** When true, a host missing from `hostOverrides` is refused and never looked up. */
  closedResolver: boolean;
  /** How long a fetched robots.txt is trusted before it is fetched again (RFC 9309 §2.4 suggests ≤ 24 h). */
  robotsCacheTtlMs: number;
  /** First wait before asking again for a robots.txt that answered 5xx or not at all; doubles per failure, 4 tries in all. */
  robotsRetryDelayMs: number;
  /** A robots.txt Crawl-delay longer than this is capped to it. */
  maxCrawlDelayMs: number;
  /** A URL answered 429/503 (or a fetch that failed in transit) is retried this many times before it is an error. */
  maxRetries: number;
  /** Link rules (seed 004): URL schemes followed. */
  allowedProtocols: string[];
  /** Link rules: longer URLs are refused (seed 004's "Max Characters: URL"; its tool used 128). */
  maxUrlLength: number;
  /** `spider` follows links from the seeds; `list` fetches the seeds (and their redirects) only. */
  crawlMode: CrawlMode;
  /** Link rules: follow URLs with a query string (seed 004's "Follow Query Strings"). */
  followQueryStrings: boolean;
  /** Link rules: lowercase file extensions never followed, pipe-separated (seed 004's "Ignore Links To"). */
  ignoredExtensions: string;
  /** Honour `<meta name="robots" content="nofollow">` and X-Robots-Tag; false is seed 004's "Rogue" mode. */
  obeyNofollow: boolean;
  /** Only links whose registrable domain is listed are followed (empty = no include filter; IIR 20.2 URL filter). */
  includeDomains: string[];
  /** Links whose registrable domain is listed are refused. */
  excludeDomains: string[];
  /**
   * Link rules: regular expressions (JavaScript syntax, run by V8's linear-time engine, see
   * engine/regex/url-regex.ts) over a link's URL without fragment; when any is given, a link is
   * followed only if one matches (`include-pattern`). Seeds are not filtered.
   */
  includeUrlPatterns: string[];
  /** Link rules: a link whose URL matches any of these regular expressions is refused (`exclude-pattern`). */
  excludeUrlPatterns: string[];
  /**
   * Follow links marked `rel="nofollow"`, `ugc` or `sponsored` (per link; false refuses them by
   * `link-nofollow`). Page-level nofollow (meta robots, X-Robots-Tag) is `obeyNofollow`.
   */
  followNofollowLinks: boolean;
  /**
   * The normalization profile of the URL-seen test (seed 001/002). Fixed for the crawl's life:
   * a resumed crawl keeps its keys.
   */
  normalizationProfile: NormalizationProfile;
  /** Registrable-domain configuration (seed 000 lists or PSL mode) for scope and domain filters. */
  tld: TldConfig;
  /** Two pages whose shingle sets have at least this estimated Jaccard similarity are near-duplicates (IIR 19.6). */
  nearDuplicateThreshold: number;
  /**
   * Characters of each page's normalized visible text kept in the database (for near-duplicate
   * diffs); 0 keeps none. Costs up to this many bytes per page.
   */
  pageTextChars: number;
  /**
   * Crawler-trap detection (issue 12; engine/traps/): URLs of a suspected trap pattern are held
   * (state `held`) instead of fetched, until released.
   */
  trapGuard: boolean;
  /**
   * Sitemaps (sitemaps.org protocol): `auto` reads each seed origin's robots.txt `Sitemap:` lines
   * and probes its `/sitemap.xml`, and offers the URLs they list to the frontier (engine/sitemaps);
   * `off` fetches no sitemap.
   */
  sitemaps: SitemapMode;
  /**
   * Keep each fetched body (after Content-Encoding decoding) in the crawl store, brotli-compressed,
   * in `page_bodies` apart from the frontier tables (engine/bodies): the inspector's source view,
   * WARC export and re-analysis without a recrawl read it (issue 14 part 1).
   */
  storeBodies: boolean;
  /** A body longer than this many bytes is kept cut at it (marked truncated). */
  maxStoredBodyBytes: number;
  /** Compressed bytes of bodies a crawl keeps in all; past it, bodies are no longer kept (counted). */
  maxStoredBodiesBytes: number;
  /**
   * Custom extraction (issue 14 part 2, shared/types/extraction.ts): named CSS, regex and
   * schema.org extractors run on every HTML page; their values are stored per page.
   */
  extractors: Extractor[];
  /**
   * Offer HTTP/2 to https servers (ALPN `h2`, undici's allowH2; issue 14 part 5): a server that
   * accepts is fetched over HTTP/2, any other over HTTP/1.1. Plain http stays HTTP/1.1.
   */
  http2: boolean;
  /**
   * Keep a cookie jar for the crawl (issue 14 part 4; RFC 6265): cookies the sites set are sent
   * back with later page fetches of the crawl, on every worker, and kept apart from the database
   * so a resumed crawl has them (engine/cookies). Off: no Set-Cookie is stored.
   */
  cookieJar: boolean;
  /**
   * Request settings per host pattern (issue 14 part 4), masked: header names, the Basic auth user,
   * whether a cookie is sent, the proxy without credentials. The secrets themselves are kept apart
   * (shared/types/request-rules.ts), never in the settings.
   */
  requestRules: RequestRule[];
  /**
   * JavaScript rendering (issue 14 part 3; engine/render/): `off` never renders; `auto` renders an
   * HTML page whose static HTML has scripts and looks script-built (little visible text, an empty
   * app root, a `<noscript>` asking for JavaScript, or document.write: engine/render/render-mode.ts);
   * `always` renders every 2xx HTML page. Rendering runs the page in Chromium with every request
   * routed through the crawler's own resolver, robots.txt and politeness; links only the rendered
   * DOM has are stored with link kind `rendered`.
   */
  render: RenderMode;
  /** Per-page render budget (navigation, scripts, settling, reading the DOM), ms; past it the URL fails as RENDER_TIMEOUT. */
  renderTimeoutMs: number;
  /** Pages each crawl worker renders at once (one Chromium per worker). */
  renderConcurrency: number;
  /** The Chromium executable to render with; '' finds the system one (/usr/bin/chromium, then chromium-browser, google-chrome). */
  chromiumPath: string;
}

/** How a crawl renders JavaScript: never, when a page looks script-built, or every HTML page. */
export const RENDER_MODES = ['off', 'auto', 'always'] as const;

/** A crawl's render mode ({@link RENDER_MODES}). */
export type RenderMode = (typeof RENDER_MODES)[number];

/** Whether a crawl discovers URLs through sitemaps (sitemaps.org): `auto` or `off`. */
export const SITEMAP_MODES = ['auto', 'off'] as const;

/** A crawl's sitemap mode ({@link SITEMAP_MODES}). */
export type SitemapMode = (typeof SITEMAP_MODES)[number];

/**
 * Default "Ignore Links To" list (seed 004's pipe-separated lowercase format): binary types a
 * link almost certainly does not lead to readable text with. PDF is not listed: it is text.
 */
export const DEFAULT_IGNORED_EXTENSIONS =
  '7z|apk|avi|bin|bmp|bz2|dmg|doc|docx|eot|exe|flv|gif|gz|ico|iso|jar|jpeg|jpg|m4a|m4v|mkv|mov|mp3|mp4|mpeg|mpg|msi|ogg|otf|png|ppt|pptx|rar|svg|tar|tgz|tif|tiff|ttf|wav|webm|webp|wmv|woff|woff2|xls|xlsx|xz|zip';

/** Defaults: polite by adaptive delay (k = 5 as Heritrix) with no fixed floor, one request per host. */
export const DEFAULT_CRAWL_SETTINGS: Readonly<CrawlSettings> = Object.freeze({
  threads: 4,
  maxPages: 0,
  maxDepth: 0,
  scope: 'host',
  minDelayMs: 0,
  maxDelayMs: 30_000,
  delayFactor: 5,
  maxInFlightPerHost: 1,
  userAgent: 'Crawlbench/0.1 (+https://github.com/crawlbench/crawlbench)',
  obeyRobots: true,
  timeoutMs: 30_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  hostOverrides: [],
  closedResolver: false,
  robotsCacheTtlMs: 24 * 60 * 60 * 1000,
  robotsRetryDelayMs: 10_000,
  maxCrawlDelayMs: 30_000,
  maxRetries: 2,
  allowedProtocols: ['http', 'https'],
  maxUrlLength: 2048,
  crawlMode: 'spider',
  followQueryStrings: true,
  ignoredExtensions: DEFAULT_IGNORED_EXTENSIONS,
  obeyNofollow: true,
  includeDomains: [],
  excludeDomains: [],
  includeUrlPatterns: [],
  excludeUrlPatterns: [],
  followNofollowLinks: false,
  normalizationProfile: PROFILES.standard,
  tld: DEFAULT_TLD_CONFIG,
  nearDuplicateThreshold: 0.9,
  pageTextChars: 2_000,
  trapGuard: true,
  sitemaps: 'auto',
  storeBodies: true,
  maxStoredBodyBytes: 10 * 1024 * 1024,
  maxStoredBodiesBytes: 4 * 1024 * 1024 * 1024,
  extractors: [],
  http2: false,
  cookieJar: true,
  requestRules: [],
  render: 'off',
  renderTimeoutMs: 10_000,
  renderConcurrency: 2,
  chromiumPath: '',
});

/** Lifecycle of a crawl. `interrupted` means the process died while it was running. */
export type CrawlStatus = 'running' | 'paused' | 'stopped' | 'finished' | 'interrupted';

/** Live counters of one crawl, pushed at most 4 times a second. */
export interface CrawlProgress {
  crawlId: number;
  status: CrawlStatus;
  /** Pages fetched (state done), including non-HTML and HTTP error statuses. */
  fetched: number;
  /** URLs waiting in the frontier (state pending). */
  queued: number;
  inFlight: number;
  /** URLs that failed (state error): network errors, timeouts, refused hosts, redirect loops. */
  errors: number;
  /** URLs robots.txt refused (state blocked): never requested, not counted as errors. */
  blocked: number;
  /** URLs a suspected crawler trap holds (state held): not fetched until the trap is released. */
  held: number;
  /** Fetch rate over the last few seconds. */
  pagesPerSecond: number;
  elapsedMs: number;
  /** Links not followed in this run, by the link rule that refused them (seed 004). */
  refusedByRule: Record<string, number>;
  /** Pages whose content duplicates an earlier page of the crawl (exact fingerprint or near-duplicate). */
  duplicates: number;
}

/** One crawl as listed in the Crawls view and returned by the CLI. */
export interface CrawlSummary {
  id: number;
  seeds: string[];
  status: CrawlStatus;
  createdAtMs: number;
  finishedAtMs: number | null;
  fetched: number;
  queued: number;
  errors: number;
  /** URLs robots.txt refused (state blocked), not counted in `errors`. */
  blocked: number;
  /** URLs a suspected crawler trap holds (state held). */
  held: number;
  settings: CrawlSettings;
}

/** One row of the frontier table. */
export interface FrontierRow {
  id: number;
  url: string;
  host: string;
  state: UrlState;
  depth: number;
  normalizedKey: string;
  /** Why the URL failed, for state `error`: the error code (`DNS_FAILURE`, `TIMEOUT`, `REDIRECT_LOOP` …) and its message. */
  errorCode: string | null;
  errorReason: string | null;
  fetchedAtMs: number | null;
  httpStatus: number | null;
}

/** A page of rows: the renderer never holds a whole table. `total` counts all matching rows. */
export interface RowPage<T> {
  rows: T[];
  total: number;
  offset: number;
}
