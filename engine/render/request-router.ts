/**
 * What happens to each request a rendered page makes (issue 14 part 3): the decision
 * ({@link routeRequest}, pure) and the gate every allowed request goes through
 * ({@link SubresourceGate}: the crawler's resolver and closed mode, robots.txt, per-host
 * politeness, a bounded response cache), so the browser itself never touches the network.
 */
import type { FetchOutcome } from '../fetch/fetcher';
import { BoundedCache } from '../dedupe/seen-cache';
import { RobotsTxt, ROBOTS_PARSE_LIMIT_BYTES } from '../robots/robots';
import { politenessDelayMs, type PolitenessDelays } from '../schedule/politeness';

/** Requests one page may have fetched for it at most; later ones are blocked (`request-cap`). */
export const MAX_RENDER_REQUESTS_PER_PAGE = 200;

/** Resource types never loaded (they cannot add links or text): aborted and counted as skipped, not blocked. */
export const SKIPPED_RESOURCE_TYPES: ReadonlySet<string> = new Set(['image', 'media', 'font']);

/** Why a request of a rendered page was refused (counted in the page's blocked requests). */
export type BlockReason =
  /** Not GET or HEAD: a rendered page may read, never write (POST beacons, form posts). */
  | 'method'
  /** Not http(s) (ftp:, ws:, chrome-extension: …; data: and blob: never reach the network and are let through). */
  | 'scheme'
  /** The main frame navigating away from the page (a script's location change): the target is not fetched. */
  | 'navigation'
  /** Past {@link MAX_RENDER_REQUESTS_PER_PAGE}. */
  | 'request-cap'
  /** Closed resolver mode and the host is not in the map (or it does not resolve). */
  | 'host-not-mapped'
  /** The host's robots.txt disallows the URL for the crawl's user agent (or could not be read: RFC 9309 §2.3.1.4, complete disallow). */
  | 'robots'
  /** A WebSocket (never opened). */
  | 'websocket';

/** One request as the browser asks it. */
export interface RenderRequest {
  url: string;
  method: string;
  /** Playwright's resource type: document, script, stylesheet, image, media, font, xhr, fetch … */
  resourceType: string;
  /** True for a navigation of the page's main frame. */
  mainFrameNavigation: boolean;
}

/** What to do with one request. */
export type RouteDecision =
  /** The page itself: answered with the body the crawler already fetched (no second fetch). */
  | { action: 'document' }
  /** Through the {@link SubresourceGate} (resolver, robots.txt, politeness), then answered with what it got. */
  | { action: 'fetch' }
  /** Let the browser answer it itself: data: and blob: URLs only (no network). */
  | { action: 'continue' }
  | { action: 'skip'; resourceType: string }
  | { action: 'block'; reason: BlockReason };

/** A page's routing state: its own URL, whether its document was answered, and how many requests were fetched for it. */
export interface PageRouteState {
  /** The URL the crawler fetched (the page's finalUrl; the render navigates to it first). */
  pageUrl: string;
  documentServed: boolean;
  fetched: number;
}

/**
 * Decides what happens to one request of a rendered page, in this order: the page's first
 * main-frame navigation (the render's own, to `state.pageUrl`) is `document`; data:/blob: URLs `continue`; a method other than GET/HEAD,
 * a scheme other than http(s), any later main-frame navigation are `block`ed; images, media and
 * fonts are `skip`ped; past {@link MAX_RENDER_REQUESTS_PER_PAGE} fetched requests, `block`
 * (`request-cap`); anything else is `fetch`ed through the gate. Updates `state` (documentServed, fetched).
 * @example routeRequest({ url: 'http://a.test/', method: 'GET', resourceType: 'document', mainFrameNavigation: true }, { pageUrl: 'http://a.test/', documentServed: false, fetched: 0 }) → { action: 'document' }
 * @example routeRequest({ url: 'http://a.test/x.png', method: 'GET', resourceType: 'image', mainFrameNavigation: false }, state) → { action: 'skip', resourceType: 'image' }
 */
export function routeRequest(request: RenderRequest, state: PageRouteState): RouteDecision {
  // The first main-frame navigation is the render's own goto (the browser may spell the URL its own way).
  if (request.mainFrameNavigation && !state.documentServed) {
    state.documentServed = true;
    return { action: 'document' };
  }
  const scheme = request.url.slice(0, Math.max(0, request.url.indexOf(':'))).toLowerCase();
  if (scheme === 'data' || scheme === 'blob') return { action: 'continue' };
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return { action: 'block', reason: 'method' };
  if (scheme !== 'http' && scheme !== 'https') return { action: 'block', reason: 'scheme' };
  if (request.mainFrameNavigation) return { action: 'block', reason: 'navigation' };
  if (SKIPPED_RESOURCE_TYPES.has(request.resourceType)) return { action: 'skip', resourceType: request.resourceType };
  if (state.fetched >= MAX_RENDER_REQUESTS_PER_PAGE) return { action: 'block', reason: 'request-cap' };
  state.fetched += 1;
  return { action: 'fetch' };
}

/** A subresource as the gate got it: an HTTP answer to hand to the browser, a refusal, or a failed fetch. */
export type GateAnswer =
  | { kind: 'fetched'; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: 'blocked'; reason: BlockReason }
  | { kind: 'failed'; code: string; message: string };

export interface SubresourceGateOptions {
  /** The worker's own fetcher (its resolver, closed mode, request rules and body cap); `cookie` is the request's Cookie header. */
  fetch(url: string, options?: { followRedirects?: boolean; cookie?: string }): Promise<FetchOutcome>;
  /** The worker's resolver: throws for a host closed mode refuses (HOST_NOT_MAPPED), before anything is asked. */
  resolve(hostname: string): Promise<unknown>;
  /** The crawl's user agent (robots.txt groups are matched against its product token). */
  userAgent: string;
  /** Obey robots.txt (CrawlSettings.obeyRobots). */
  obeyRobots: boolean;
  /** The crawl's politeness delay settings (the wait after each fetch from a host). */
  politeness: PolitenessDelays;
  /** Origins whose robots.txt is kept at most. @default 256 */
  maxRobotsOrigins?: number;
  /** Bytes of fetched subresources kept for reuse by later pages. @default 32 MiB */
  cacheBytes?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** What a host's robots.txt says for every URL on it: a parsed file, or all allowed / all disallowed. */
type RobotsState = RobotsTxt | 'allow-all' | 'disallow-all';

/** A cached answer (2xx only). */
interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A response header the browser gets back: not hop-by-hop, not about the encoding the fetcher already undid, no cookie. */
const DROPPED_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie', 'set-cookie2', 'alt-svc', 'strict-transport-security']);

/**
 * The headers to answer the browser with, from a fetch's stored response headers (JSON of
 * lower-case names, engine/fetch/response-headers.ts): all but {@link DROPPED_HEADERS} and the
 * truncation marker.
 */
export function browserHeaders(responseHeadersJson: string, contentType: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  try {
    for (const [name, value] of Object.entries(JSON.parse(responseHeadersJson) as Record<string, string>)) {
      if (name.startsWith(':') || DROPPED_HEADERS.has(name) || typeof value !== 'string') continue;
      headers[name] = value;
    }
  } catch {
    // Unreadable: the content type alone.
  }
  if (contentType !== undefined) headers['content-type'] = contentType;
  return headers;
}

/**
 * The way every subresource of a rendered page is fetched, shared by the pages one worker renders:
 * 1. the host must resolve through the crawler's resolver: in closed mode an unmapped host is
 *    `blocked` (`host-not-mapped`) and never asked anything, not even its robots.txt;
 * 2. when the crawl obeys robots.txt, the origin's robots.txt is fetched once (through the same
 *    fetcher, redirects followed) before any other request to it, and a disallowed URL is
 *    `blocked` (`robots`); 4xx means all allowed, 5xx or no answer all disallowed (RFC 9309 §2.3.1);
 *    files are kept for {@link SubresourceGateOptions.maxRobotsOrigins} origins;
 * 3. requests to one host are made one at a time, each waiting the crawl's politeness delay
 *    after the previous one (engine/schedule/politeness.ts) — the robots.txt fetch included;
 * 4. a 2xx answer of at most 2 MiB is kept in a byte-bounded cache, so the next page's same
 *    script is not fetched again.
 * Never throws: a failed fetch comes back as `failed` with the fetcher's error code.
 */
export class SubresourceGate {
  private readonly robots: Map<string, Promise<RobotsState>> = new Map();
  private readonly maxRobotsOrigins: number;
  private readonly cache: BoundedCache<CachedAnswer>;
  private readonly inFlight = new Map<string, Promise<GateAnswer>>();
  /** Per host: the tail of its request chain, and when its next request may start (epoch ms). */
  private readonly hosts = new Map<string, { tail: Promise<void>; nextAtMs: number; pending: number }>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(private readonly options: SubresourceGateOptions) {
    this.maxRobotsOrigins = options.maxRobotsOrigins ?? 256;
    const cacheBytes = options.cacheBytes ?? 32 * 1024 * 1024;
    this.cache = new BoundedCache<CachedAnswer>({ maxEntries: 4096, maxBytes: cacheBytes, sizeOf: (key, value) => key.length * 2 + value.body.length + 512 });
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Fetches `url` for a rendered page, or says why not. A cached answer, or one being fetched for
   * another page, is shared only by requests with the same cookie (a script's API answers
   * differently before and after a login).
   * @param url an absolute http(s) URL without fragment
   * @param cookie the request's Cookie header (page-cookies.ts), null for none; never sent with robots.txt
   */
  async request(url: string, cookie: string | null = null): Promise<GateAnswer> {
    const key = cookie === null ? url : `${url}\n${cookie}`;
    const cached = this.cache.get(key);
    if (cached) return { kind: 'fetched', ...cached };
    const running = this.inFlight.get(key);
    if (running) return running;
    const answer = this.fetchThroughGate(url, cookie, key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, answer);
    return answer;
  }

  /** `key`: the URL (and cookie) the answer is cached under. */
  private async fetchThroughGate(url: string, cookie: string | null, key: string): Promise<GateAnswer> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { kind: 'blocked', reason: 'scheme' };
    }
    try {
      await this.options.resolve(parsed.hostname);
    } catch {
      return { kind: 'blocked', reason: 'host-not-mapped' };
    }
    if (this.options.obeyRobots) {
      const robots = await this.robotsOf(parsed.origin, parsed.host);
      if (robots === 'disallow-all' || (robots !== 'allow-all' && !robots.isAllowed(url, this.options.userAgent))) return { kind: 'blocked', reason: 'robots' };
    }
    const outcome = await this.politely(parsed.host, () => this.options.fetch(url, cookie === null ? {} : { cookie }));
    if (!outcome.ok) return { kind: 'failed', code: outcome.error.code, message: outcome.error.message };
    const headers = browserHeaders(outcome.responseHeadersJson, outcome.contentType);
    if (outcome.redirect !== null && outcome.redirect.location !== null) headers['location'] = outcome.redirect.location;
    const answer: CachedAnswer = { status: outcome.status, headers, body: outcome.body };
    if (outcome.status >= 200 && outcome.status < 300 && outcome.body.length <= 2 * 1024 * 1024) this.cache.set(key, answer);
    return { kind: 'fetched', ...answer };
  }

  /** The origin's robots.txt verdict source, fetched once (concurrent callers share the fetch). */
  private robotsOf(origin: string, host: string): Promise<RobotsState> {
    const known = this.robots.get(origin);
    if (known) return known;
    const robotsUrl = `${origin}/robots.txt`;
    const state = this.politely(host, () => this.options.fetch(robotsUrl, { followRedirects: true })).then((outcome): RobotsState => {
      if (!outcome.ok || outcome.status >= 500) return 'disallow-all';
      if (outcome.status >= 400) return 'allow-all';
      if (outcome.status >= 300) return 'disallow-all';
      return new RobotsTxt(robotsUrl, outcome.body.subarray(0, ROBOTS_PARSE_LIMIT_BYTES).toString('utf8'));
    });
    // Bounded: the oldest origin is forgotten first (asked again if met again).
    if (this.robots.size >= this.maxRobotsOrigins) {
      const oldest = this.robots.keys().next().value;
      if (oldest !== undefined) this.robots.delete(oldest);
    }
    this.robots.set(origin, state);
    return state;
  }

  /** Drops hosts with nothing pending whose politeness delay has passed. */
  private forgetIdleHosts(): void {
    const now = this.now();
    for (const [host, entry] of this.hosts) if (entry.pending === 0 && entry.nextAtMs <= now) this.hosts.delete(host);
  }

  /** Runs `fetch` when the host's previous request is done and its politeness delay has passed. */
  private async politely(host: string, fetch: () => Promise<FetchOutcome>): Promise<FetchOutcome> {
    let entry = this.hosts.get(host);
    if (!entry) {
      if (this.hosts.size >= 1024) this.forgetIdleHosts();
      entry = { tail: Promise.resolve(), nextAtMs: 0, pending: 0 };
      this.hosts.set(host, entry);
    }
    const slot = entry;
    const previous = slot.tail;
    let release: () => void = () => undefined;
    slot.tail = new Promise<void>((resolve) => (release = resolve));
    slot.pending += 1;
    try {
      await previous;
      const waitMs = slot.nextAtMs - this.now();
      if (waitMs > 0) await this.sleep(waitMs);
      const outcome = await fetch();
      slot.nextAtMs = this.now() + politenessDelayMs(this.options.politeness, outcome.fetchMs);
      return outcome;
    } finally {
      slot.pending -= 1;
      release();
      // An idle host whose delay has passed is forgotten (the map stays as small as the hosts in use).
      if (slot.pending === 0 && slot.nextAtMs <= this.now()) this.hosts.delete(host);
    }
  }
}
