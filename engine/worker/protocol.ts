/** The scheduler ↔ worker message protocol: discriminated unions with sequence numbers. */
import type { CrawlSettings } from '../../shared/types/crawl';
import type { ErrorInfo } from '../../shared/types/result';
import type { RedirectTarget } from '../fetch/redirects';
import type { ParsedSitemap } from '../parse/sitemap-parser';
import type { StoredBody } from '../bodies/stored-body';
import type { ExtractedValue } from '../../shared/types/extraction';
import type { RenderRecord } from '../render/render-record';
import type { RequestRuleSecrets } from '../../shared/types/request-rules';
import type { PackedLinks } from './link-wire';

/**
 * Every element a link can come from (seed 004's link patterns, extended), `redirect`: the
 * Location of a 3xx answer (RFC 9110 §15.4), one link row per redirect hop, and `rendered`: an
 * `<a href>` or `<area href>` found only in the page's DOM after JavaScript ran (engine/render/).
 */
export const LINK_KINDS = ['a', 'area', 'frame', 'iframe', 'canonical', 'redirect', 'rendered'] as const;

/** Which element a link came from. */
export type LinkKind = (typeof LINK_KINDS)[number];

/**
 * The element a link of `kind` came from, as stored in links.element: the HTML element name
 * (`canonical` is a `<link>`, `rendered` an `<a>` of the rendered DOM), or `redirect` for a 3xx answer's Location header.
 * @example linkElement('canonical') → 'link'
 */
export function linkElement(kind: LinkKind): string {
  switch (kind) {
    case 'canonical':
      return 'link';
    case 'rendered':
      return 'a';
    case 'a':
    case 'area':
    case 'frame':
    case 'iframe':
    case 'redirect':
      return kind;
    default: {
      const exhaustive: never = kind;
      throw new Error(`Unknown link kind ${String(exhaustive)}`);
    }
  }
}

/**
 * The message protocol between the scheduler (main thread) and fetch/parse workers: discriminated
 * unions with sequence numbers, so every reply names the task it answers (Signal's worker pattern).
 */

/** Settings a worker needs, sent once at start. */
export interface WorkerInit {
  settings: Pick<
    CrawlSettings,
    | 'userAgent'
    | 'timeoutMs'
    | 'maxBodyBytes'
    | 'maxRedirects'
    | 'hostOverrides'
    | 'closedResolver'
    | 'minDelayMs'
    | 'maxDelayMs'
    | 'delayFactor'
    | 'pageTextChars'
    | 'maxUrlLength'
    | 'storeBodies'
    | 'maxStoredBodyBytes'
    | 'extractors'
    | 'http2'
    | 'obeyRobots'
    | 'render'
    | 'renderTimeoutMs'
    | 'renderConcurrency'
    | 'chromiumPath'
    | 'cookieJar'
  >;
  /** The crawl's fetch slots: how many fetches the pool runs at once, shared by its workers (a worker alone may run them all). */
  concurrency: number;
  /** Request rules with their secrets (kept in memory only: never in the settings). @default none */
  requestRules?: RequestRuleSecrets[];
  /** Build each page fetch's WARC records (gzip members when `gzip`): the run writes a WARC file. Absent: none. */
  warc?: { gzip: boolean };
}

/**
 * What a fetch task is for: a page (fetched and parsed), a host's robots.txt (fetched, text
 * returned), or a sitemap (fetched, redirects followed, its XML read in the worker: entries returned).
 */
export type FetchPurpose = 'page' | 'robots' | 'sitemap';

/** Scheduler → worker. */
export type ToWorker =
  | {
      type: 'fetch';
      seq: number;
      urlId: number;
      url: string;
      purpose: FetchPurpose;
      /** The crawl's cookie jar's Cookie header for `url` (a page fetch, when the jar has cookies for it). */
      cookie?: string;
      /**
       * The jar's cookies for `url`'s host at any path (CrawlCookieJar.siteCookies, JSON), for the
       * requests of the page's rendering (engine/render/page-cookies.ts); only when the crawl renders.
       */
      siteCookies?: string;
    }
  | { type: 'shutdown' };

/** A robots.txt fetch: the HTTP status and body text, or why there is none. */
export interface RobotsResult {
  /** The robots.txt URL asked for. */
  url: string;
  status: number | null;
  text: string;
  error: ErrorInfo | null;
  fetchMs: number;
}

/** A sitemap fetch: the answer's status and what its XML held, or why there is none. */
export interface SitemapResult {
  /** The sitemap URL asked for. */
  url: string;
  /** The HTTP status of the last answer; null when there was none (`error` says why). */
  status: number | null;
  /** The file's entries when it answered 2xx (its `error` then says if it could not be read whole); null otherwise. */
  parsed: ParsedSitemap | null;
  /** Why there are no entries: a fetch error (TIMEOUT, REDIRECT_LIMIT …) or HTTP_<status>; null when parsed. */
  error: ErrorInfo | null;
  fetchMs: number;
}

/** A link found on a fetched page, resolved to an absolute URL (the raw URL of seed 001). */
export interface DiscoveredLink {
  /**
   * The absolute URL; for a link {@link tooLong}, its first STORED_RAW_URL_CHARS characters
   * (as written when it was refused before resolution).
   */
  url: string;
  kind: LinkKind;
  /** The link's text (parse-html.ts ExtractedLink.anchorText); absent when it has none. */
  anchorText?: string;
  /** Its rel tokens, lower case, space-separated; absent when none. */
  rel?: string;
  /**
   * True when the href as written, or the URL it resolves to, is longer than `maxUrlLength`: the
   * worker refused it before any other work (the `url-length` link rule) and sent `url` cut short.
   */
  tooLong?: true;
}

/** The result of fetching (and, for HTML, parsing) one URL. */
export interface PageResult {
  /** The URL fetched (page fetches do not follow redirects). */
  finalUrl: string;
  status: number;
  contentType: string | null;
  bodyBytes: number;
  truncated: boolean;
  fetchMs: number;
  /** Where a redirect answer points (its body is neither parsed nor fingerprinted); null for any other answer. */
  redirect: RedirectTarget | null;
  /** Every response header as JSON, capped (engine/fetch/response-headers.ts). */
  responseHeadersJson: string;
  title: string | null;
  /** `<meta name=description>`, whitespace collapsed, capped; null when none (or not HTML). */
  metaDescription: string | null;
  /** The first H1's text, capped; null when none (or not HTML). */
  h1: string | null;
  /**
   * The canonical URL the page names: `<link rel=canonical>` (resolved against the base URL), else
   * a `Link: <…>; rel="canonical"` header (resolved against the URL fetched); absolute http(s), no
   * fragment, at most STORED_RAW_URL_CHARS; null when none.
   */
  canonicalUrl: string | null;
  /** Meta robots, meta googlebot and X-Robots-Tag directives, lower case, ", "-separated, repeats dropped, capped; null when none. */
  robotsDirectives: string | null;
  /** Words of visible text: 0 for an HTML page without text, null when not parsed (not HTML, 3xx). */
  wordCount: number | null;
  /** `<html lang>`, else the Content-Language header, capped; null when neither. */
  lang: string | null;
  links: DiscoveredLink[];
  /** Hrefs that could not be resolved to a URL at all (malformed); other schemes are in `links`. */
  unresolvableLinks: number;
  /** Links past the per-page cap (MAX_LINKS_PER_PAGE), not in `links`: the `max-links-per-page` rule. */
  linksOverCap: number;
  nofollow: boolean;
  noindex: boolean;
  retryAfter: string | null;
  /** Content fingerprints of the visible text (HTML pages with text only). */
  content: PageContent | null;
  /**
   * The body as the store keeps it (compressed in the worker), when the crawl keeps bodies
   * (storeBodies) and the answer had one (not a redirect's: its body is discarded); else absent.
   */
  body?: StoredBody;
  /** What the crawl's extractors found (an HTML page, when the crawl has extractors); else absent. */
  extracted?: Record<string, ExtractedValue>;
  /** How the page was rendered with JavaScript (engine/render/), when it was; else absent. */
  render?: RenderRecord;
  /** The fetch's WARC records, when the run writes a WARC file (WorkerInit.warc); else absent. */
  warc?: WarcCapture;
  /**
   * The answer's Set-Cookie headers, when the crawl keeps a cookie jar (settings.cookieJar) and
   * there were any: the runner stores them in the jar and drops them from the result.
   */
  setCookies?: string[];
}

/** A fetch's WARC records as the worker built them (engine/warc/warc-records.ts fetchRecords). */
export interface WarcCapture {
  /** The request and response records (gzip members when the file is .warc.gz). */
  bytes: Uint8Array;
  /** Records in `bytes` (2: request and response). */
  records: number;
  /** The response's WARC-Payload-Digest (`sha1:` base32). */
  payloadDigest: string;
  /** The records' WARC-Date, epoch ms. */
  fetchedAtMs: number;
  /** The protocols the fetch came over (their WARC-Protocol fields; FetchedResponse.protocols), for a revisit record of it. */
  protocols: readonly string[];
}

/** What the content-seen test needs of a page (IIR 20.2: "Doc FP's"; IIR 19.6 shingles). */
export interface PageContent {
  /** SHA-256 (hex) of the normalized visible text. */
  fingerprint: string;
  /** MinHash sketch of the text's 4-word shingles (MINHASH_SIZE unsigned 32-bit values). */
  minhash: Uint32Array;
  /** Words in the normalized text. */
  words: number;
  textChars: number;
  /** The start of the normalized text (pageTextChars characters), '' when none is kept. */
  excerpt: string;
}

/**
 * What the content-seen test reads of a page's content: its fingerprint, sketch and sizes. The
 * excerpt is not among them: a commit batch carries it once, as PageWrite.text (it is most of a
 * page's bytes on the way to the store writer, about 2 KB at the default excerpt length).
 */
export type ContentFingerprints = Omit<PageContent, 'excerpt'>;

/** A page result as a worker posts it: its links packed (link-wire.ts), the rest as it is. */
export type PageResultOnWire = Omit<PageResult, 'links'> & { links: PackedLinks };

/** Worker → scheduler (a page's links packed: the pool unpacks them, worker-pool.ts PoolMessage). */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'page'; seq: number; urlId: number; result: PageResultOnWire }
  | { type: 'robots'; seq: number; urlId: number; result: RobotsResult }
  | { type: 'sitemap'; seq: number; urlId: number; result: SitemapResult }
  | {
      type: 'failed';
      seq: number;
      urlId: number;
      error: ErrorInfo;
      fetchMs: number;
      /**
       * The answer's Set-Cookie headers when it came but its parse or render failed (the crawl keeps
       * a cookie jar and there were any): the server set them all the same (PageResult.setCookies).
       */
      setCookies?: string[];
    };
