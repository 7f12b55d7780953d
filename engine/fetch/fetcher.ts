/** The fetch module (IIR 20.2): one HTTP GET over undici with the crawler's resolver, a capped body and stable error codes. */
import { Agent, buildConnector, ProxyAgent, request, type Dispatcher } from 'undici';
import type { RequestRuleSecrets } from '../../shared/types/request-rules';
import { hostPatternMatcher } from '../../shared/url/host-override';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { CodedError, type ErrorInfo } from '../../shared/types/result';
import { readCappedBody, type CappedBody } from './body';
import type { HostResolver } from './dns';
import { REDIRECT_STATUSES, redirectTarget, type RedirectTarget } from './redirects';
import { recordResponseHeaders } from './response-headers';
import { mergeCookieHeaders } from '../cookies/crawl-cookie-jar';
import { ConnectionProtocols, originKey, type NegotiatedSocket } from './connection-protocols';

/** One hop of a redirect chain: the URL requested and the status it answered. */
export interface RedirectHop {
  url: string;
  status: number;
}

/** A fetch that got an HTTP response (any status, including 4xx/5xx). */
export interface FetchedResponse {
  ok: true;
  /** URL of the last request: the URL asked for, or where its redirects led when they are followed. */
  finalUrl: string;
  status: number;
  contentType: string | undefined;
  /** Selected response headers (KEPT_HEADERS), lowercased names: what the crawler acts on. */
  headers: Record<string, string>;
  /** Every response header of the last request as JSON, capped at 16 KiB (response-headers.ts). */
  responseHeadersJson: string;
  body: Buffer;
  wireBytes: number;
  truncated: boolean;
  /** Redirect hops followed before `finalUrl`, in order; empty when none (always, unless following). */
  redirectChain: RedirectHop[];
  /**
   * When redirects are not followed and the answer is a redirect (RFC 9110 §15.4: 301, 302, 303,
   * 307 or 308 with a Location), where it points; its body is discarded. Null otherwise.
   */
  redirect: RedirectTarget | null;
  fetchMs: number;
  /** The last answer's Set-Cookie headers, as sent (RFC 6265 §3: one a cookie); empty when none. */
  setCookies: string[];
  /**
   * The protocols the last answer came over, as the WARC-Protocol field names them, higher level
   * first: ['h2', 'tls/1.3'], ['http/1.1'] for cleartext (connection-protocols.ts); empty when
   * unknown (through a proxy).
   */
  protocols: readonly string[];
}

/** A fetch that got no usable response. */
export interface FailedFetch {
  ok: false;
  error: ErrorInfo;
  redirectChain: RedirectHop[];
  fetchMs: number;
}

export type FetchOutcome = FetchedResponse | FailedFetch;

export interface FetcherOptions {
  resolver: HostResolver;
  userAgent: string;
  /** Whole-request budget: connect + headers + body, across redirects. */
  timeoutMs: number;
  maxBodyBytes: number;
  /** Redirects followed (when following) before the fetch fails with REDIRECT_LIMIT. */
  maxRedirects: number;
  /** Idle keep-alive sockets are closed after this long. @default 10_000 */
  keepAliveTimeoutMs?: number;
  /**
   * Politeness wait before following a redirect to the same host, given the last hop's duration
   * (the crawl's delay formula). @default no wait
   */
  hopDelayMs?: (hopFetchMs: number) => number;
  /** Offer HTTP/2 to https origins (ALPN; undici's allowH2): those that accept are fetched over it. @default false */
  http2?: boolean;
  /**
   * Headers, Cookie, Basic auth and proxy per host pattern (shared/types/request-rules.ts), with
   * their secrets; each request (each redirect hop) takes the rule of its own host, so credentials
   * never follow a redirect to another host. @default none
   */
  requestRules?: readonly RequestRuleSecrets[];
}

/**
 * The headers of every request the fetcher sends (lower-case names; undici adds Host and
 * Connection): what a WARC request record of the fetch states (engine/warc).
 */
export function requestHeaders(userAgent: string): Record<string, string> {
  return { 'user-agent': userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br' };
}

const KEPT_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'last-modified', 'etag', 'location', 'retry-after', 'x-robots-tag', 'link'];

/**
 * The fetch module (IIR 20.2): GET over undici with keep-alive per origin, the crawler's own
 * resolver (override map, closed mode), and a capped body read. Redirects are never followed by
 * undici. Page fetches do not follow them at all: a redirect is a result of its own, whose target
 * the crawl runner sends through the frontier (see redirects.ts). robots.txt fetches follow them
 * here (`followRedirects`, RFC 9309 §2.3.1.2), recorded as a chain with a hop limit and loop
 * detection.
 */
export class Fetcher {
  private readonly agent: Agent;
  /** What each origin's connections negotiated (ALPN, TLS version), for the WARC records. */
  private readonly protocols = new ConnectionProtocols();

  private readonly requestHeaders: Record<string, string>;
  private readonly ruleOf: (hostname: string) => RequestRuleSecrets | null;
  /** One ProxyAgent per proxy URL, made on first use. */
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(private readonly options: FetcherOptions) {
    this.requestHeaders = requestHeaders(options.userAgent);
    this.ruleOf = hostPatternMatcher(options.requestRules ?? []);
    // The connector offers h2 in ALPN (the agent's allowH2 alone does not reach a custom connect).
    const base = buildConnector({ timeout: Math.min(options.timeoutMs, 15_000), allowH2: options.http2 ?? false });
    const resolver = options.resolver;
    this.agent = new Agent({
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
      allowH2: options.http2 ?? false,
      connect: (connectOptions, callback) => {
        const origin = originKey(connectOptions.protocol, connectOptions.hostname, connectOptions.port);
        resolver.resolve(connectOptions.hostname).then(
          (resolved) =>
            base({ ...connectOptions, hostname: resolved.address, port: resolved.port === undefined ? connectOptions.port : String(resolved.port) }, (...answer) => {
              // A failed connect answers with the error alone (no socket argument at all).
              const socket = answer[1] as NegotiatedSocket | null | undefined;
              if (socket) this.protocols.record(origin, socket);
              callback(...answer);
            }),
          (error: Error) => callback(error, null),
        );
      },
    });
  }

  /**
   * Fetches `url`. Never throws: failures come back as `{ ok: false, error }`.
   * @param options.followRedirects follow redirects (robots.txt), failing with REDIRECT_LOOP,
   *   REDIRECT_LIMIT (more than `maxRedirects`) or BAD_REDIRECT (a Location that is not an http(s)
   *   URL); when false (the default, for pages) a redirect comes back as it is, with `redirect` set
   * @param options.cookie the crawl's cookie jar's Cookie header for `url` (engine/cookies): sent
   *   with the first request only, merged with the host rule's cookie (a jar pair replaces the
   *   rule's of the same name)
   */
  async fetch(url: string, options: { followRedirects?: boolean; cookie?: string } = {}): Promise<FetchOutcome> {
    const follow = options.followRedirects ?? false;
    const startedAt = performance.now();
    const chain: RedirectHop[] = [];
    const visited = new Set<string>();
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let current = url;
    try {
      for (;;) {
        visited.add(current);
        const hopStartedAt = performance.now();
        const { dispatcher, headers: sent } = this.requestFor(current, chain.length === 0 ? (options.cookie ?? null) : null);
        const response = await request(current, {
          dispatcher,
          method: 'GET',
          signal,
          headers: sent,
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
        });
        const headers = pickHeaders(response.headers);
        const location = headers['location'];
        /** The response of this request as the fetch's outcome (a redirect's body is not kept). */
        const answer = (body: CappedBody, redirect: RedirectTarget | null): FetchedResponse => ({
          ok: true,
          finalUrl: current,
          status: response.statusCode,
          contentType: headers['content-type'],
          headers,
          responseHeadersJson: recordResponseHeaders(response.headers),
          body: body.bytes,
          wireBytes: body.wireBytes,
          truncated: body.truncated,
          redirectChain: chain,
          redirect,
          fetchMs: performance.now() - startedAt,
          setCookies: setCookiesOf(response.headers['set-cookie']),
          protocols: dispatcher === this.agent ? this.protocols.of(current) : [],
        });
        if (!follow && REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
          await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
          return answer({ bytes: Buffer.alloc(0), wireBytes: 0, truncated: false }, redirectTarget(response.statusCode, location, current));
        }
        if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
          await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
          const hopMs = performance.now() - hopStartedAt;
          chain.push({ url: current, status: response.statusCode });
          let next: string;
          try {
            next = new URL(location, current).href.replace(/#.*$/, '');
          } catch {
            throw new CodedError('BAD_REDIRECT', `Redirect from ${current} to an invalid Location "${location}"`);
          }
          if (visited.has(next)) throw new CodedError('REDIRECT_LOOP', `Redirect loop: ${[...chain.map((hop) => hop.url), next].join(' -> ')}`);
          if (chain.length > this.options.maxRedirects) {
            throw new CodedError('REDIRECT_LIMIT', `More than ${this.options.maxRedirects} redirects starting at ${url}`);
          }
          if (!/^https?:$/.test(new URL(next).protocol)) throw new CodedError('BAD_REDIRECT', `Redirect to a non-HTTP URL ${next}`);
          const waitMs = this.options.hopDelayMs && new URL(next).host === new URL(current).host ? this.options.hopDelayMs(hopMs) : 0;
          if (waitMs > 0) await sleep(waitMs, undefined, { signal });
          current = next;
          continue;
        }
        return answer(await readCappedBody(response.body as unknown as Readable, headers['content-encoding'], this.options.maxBodyBytes), null);
      }
    } catch (error) {
      return { ok: false, error: classifyFetchError(error, this.options.timeoutMs), redirectChain: chain, fetchMs: performance.now() - startedAt };
    }
  }

  /** Closes every keep-alive socket. */
  async close(): Promise<void> {
    await Promise.all([this.agent.close(), ...[...this.proxies.values()].map((proxy) => proxy.close())]);
  }

  /**
   * The dispatcher and headers of a request to `url`: the crawler's own, plus its host's request
   * rule (extra headers, `Cookie`, `Authorization: Basic` per RFC 7617 in UTF-8, a proxy) and the
   * cookie jar's `jarCookie`.
   */
  private requestFor(url: string, jarCookie: string | null): { dispatcher: Dispatcher; headers: Record<string, string> } {
    const rule = this.ruleOf(new URL(url).hostname);
    if (!rule) return { dispatcher: this.agent, headers: jarCookie === null ? this.requestHeaders : { ...this.requestHeaders, cookie: jarCookie } };
    const headers = { ...rule.headers, ...this.requestHeaders };
    const cookie = mergeCookieHeaders(rule.cookie, jarCookie);
    if (cookie !== null) headers['cookie'] = cookie;
    if (rule.auth !== null) headers['authorization'] = `Basic ${Buffer.from(`${rule.auth.username}:${rule.auth.password}`, 'utf8').toString('base64')}`;
    if (rule.proxy === null) return { dispatcher: this.agent, headers };
    let proxy = this.proxies.get(rule.proxy);
    if (!proxy) {
      proxy = new ProxyAgent({ uri: rule.proxy, keepAliveTimeout: this.options.keepAliveTimeoutMs ?? 10_000 });
      this.proxies.set(rule.proxy, proxy);
    }
    return { dispatcher: proxy, headers };
  }
}

/** A response's Set-Cookie header values (undici gives one as a string, several as an array). */
function setCookiesOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function pickHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = raw[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Maps undici, DNS and socket errors to the crawler's stable error codes. */
export function classifyFetchError(error: unknown, timeoutMs: number): ErrorInfo {
  if (error instanceof CodedError) return { code: error.code, message: error.message };
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.message ?? String(error);
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { code: 'TIMEOUT', message: `No complete response within ${timeoutMs} ms` };
  }
  switch (code) {
    case 'HOST_NOT_MAPPED':
    case 'DNS_FAILED':
    case 'BODY_DECODE_FAILED':
      return { code, message };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { code: 'CONNECT_TIMEOUT', message };
    case 'ECONNREFUSED':
      return { code: 'CONNECTION_REFUSED', message };
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return { code: 'CONNECTION_RESET', message };
    default:
      return { code: 'FETCH_FAILED', message };
  }
}
