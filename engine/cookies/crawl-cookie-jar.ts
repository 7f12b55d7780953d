/**
 * A crawl's cookie jar (issue 14 part 4): the cookies the crawled sites set (`Set-Cookie`, RFC 6265
 * §5.2, with RFC 6265bis's rules as tough-cookie applies them: no cookie for a public suffix, no
 * `Secure` cookie from an http: origin, `__Host-`/`__Secure-` prefixes), sent back with later page
 * fetches (RFC 6265 §5.4). One jar per crawl on the main thread, so every worker's fetch sees the
 * cookies any worker received; its state is a secret, persisted by the caller apart from the
 * database (app/services/cookie-file.ts), never in a checkpoint, export or log.
 */
import { CookieJar, type Cookie, type SerializedCookieJar } from 'tough-cookie';
import { CodedError } from '../../shared/types/result';

/**
 * Cookies a jar keeps at most; past it the least recently used are dropped. RFC 6265 §6.1 asks
 * for at least 3,000 in all and 50 per domain; 10,000 of at most {@link MAX_SET_COOKIE_BYTES} bound
 * the jar near 40 MiB against a site that sets a new cookie on every page.
 */
export const MAX_COOKIES = 10_000;

/** A Set-Cookie header longer than this (bytes) is ignored, as browsers do (RFC 6265 §6.1: at least 4,096 a cookie). */
export const MAX_SET_COOKIE_BYTES = 4_096;

/** Set-Cookie headers of one response considered; more are ignored (a hostile answer cannot flood the jar in one go). */
export const MAX_SET_COOKIES_PER_RESPONSE = 50;

/** What storing one response's Set-Cookie headers did. */
export interface CookieStoreResult {
  /** Cookies stored or replaced. */
  stored: number;
  /** Headers ignored: malformed, too long, over the per-response cap, or refused by RFC 6265's rules. */
  ignored: number;
}

/** Options of a jar. */
export interface CrawlCookieJarOptions {
  /**
   * A jar's earlier state ({@link CrawlCookieJar.serialize}), e.g. read back on resume. Absent or
   * null: the jar starts empty, and its first {@link CrawlCookieJar.persistIfChanged} writes that
   * empty state (replacing whatever was kept under the same name).
   */
  serialized?: string | null;
  /** Writes the jar's state where it is kept; {@link CrawlCookieJar.persistIfChanged} calls it. Absent: the jar lives in memory only. */
  persist?: (serialized: string) => void;
  /** @default MAX_COOKIES */
  maxCookies?: number;
}

/**
 * The cookie jar of one crawl.
 * @example
 * const jar = new CrawlCookieJar();
 * jar.store('http://shop.test/login', ['session=abc; Path=/']);
 * jar.cookieHeader('http://shop.test/cart') → 'session=abc'
 */
export class CrawlCookieJar {
  private readonly jar: CookieJar;
  private readonly maxCookies: number;
  /** Cookies held, counted exactly at each eviction pass and approximately (stores added) between them. */
  private count: number;
  private changed = false;

  /** @throws CodedError COOKIE_JAR_UNREADABLE when `serialized` is not a jar's state */
  constructor(private readonly options: CrawlCookieJarOptions = {}) {
    this.maxCookies = options.maxCookies ?? MAX_COOKIES;
    if (options.serialized) {
      try {
        this.jar = CookieJar.deserializeSync(JSON.parse(options.serialized) as SerializedCookieJar);
      } catch (error) {
        throw new CodedError('COOKIE_JAR_UNREADABLE', `The crawl's kept cookies cannot be read (${(error as Error).message}): delete the cookies file to start with an empty jar`);
      }
    } else this.jar = new CookieJar();
    this.count = this.storedCookies().length;
    this.changed = !options.serialized;
  }

  /** Cookies held (after the last eviction pass, plus those stored since). */
  get size(): number {
    return this.count;
  }

  /**
   * The `Cookie` header (RFC 6265 §5.4) of a request to `url`, or null when the jar has none for it.
   * Expired cookies are not sent.
   */
  cookieHeader(url: string): string | null {
    if (this.count === 0) return null;
    let header: string;
    try {
      header = this.jar.getCookieStringSync(url);
    } catch {
      return null;
    }
    return header === '' ? null : header;
  }

  /**
   * The cookies the jar would send to `url`'s host at any path (RFC 6265 §5.4's domain, secure and
   * expiry tests without the path test), as a JSON array of tough-cookie's serialized cookies: what
   * a rendered page's subresource requests are sent (engine/render/page-cookies.ts). Null when none.
   */
  siteCookies(url: string): string | null {
    if (this.count === 0) return null;
    let cookies: Cookie[];
    try {
      cookies = this.jar.getCookiesSync(url, { allPaths: true });
    } catch {
      return null;
    }
    return cookies.length === 0 ? null : JSON.stringify(cookies.map((cookie) => cookie.toJSON()));
  }

  /**
   * Stores the Set-Cookie headers of the response to `url` (RFC 6265 §5.3); headers the rules
   * refuse, malformed or too long ones are ignored and counted. Past {@link MAX_COOKIES} the least
   * recently used cookies are dropped.
   */
  store(url: string, setCookies: readonly string[]): CookieStoreResult {
    let stored = 0;
    let ignored = Math.max(0, setCookies.length - MAX_SET_COOKIES_PER_RESPONSE);
    for (const header of setCookies.slice(0, MAX_SET_COOKIES_PER_RESPONSE)) {
      if (Buffer.byteLength(header) > MAX_SET_COOKIE_BYTES) {
        ignored += 1;
        continue;
      }
      let cookie;
      try {
        cookie = this.jar.setCookieSync(header, url, { ignoreError: true });
      } catch {
        cookie = undefined;
      }
      if (cookie === undefined) ignored += 1;
      else stored += 1;
    }
    if (stored > 0) {
      this.changed = true;
      this.count += stored;
      if (this.count > this.maxCookies) this.evict();
    }
    return { stored, ignored };
  }

  /** The jar's state as JSON (tough-cookie's serialization), expired cookies dropped. */
  serialize(): string {
    this.dropExpired();
    return JSON.stringify(this.jar.serializeSync());
  }

  /**
   * Writes the jar through `options.persist` when a cookie was stored since the last write.
   * @throws whatever `persist` throws (e.g. a full disk): the jar stays marked changed
   */
  persistIfChanged(): void {
    if (!this.changed || !this.options.persist) return;
    this.options.persist(this.serialize());
    this.changed = false;
  }

  /** Removes expired cookies (tough-cookie keeps them until a lookup of their domain). */
  private dropExpired(): void {
    const now = Date.now();
    for (const cookie of this.storedCookies()) {
      const expiry = cookie.expiryTime();
      if (expiry !== undefined && expiry <= now) this.remove(cookie.domain, cookie.path, cookie.key);
    }
  }

  /** Drops expired cookies, then the least recently used, down to 90% of the cap. */
  private evict(): void {
    this.dropExpired();
    const cookies = this.storedCookies();
    const keep = Math.floor(this.maxCookies * 0.9);
    if (cookies.length > keep) {
      cookies.sort((a, b) => accessedAtMs(a) - accessedAtMs(b));
      for (const cookie of cookies.slice(0, cookies.length - keep)) this.remove(cookie.domain, cookie.path, cookie.key);
    }
    this.count = Math.min(cookies.length, keep);
  }

  /** Every cookie held (the memory store answers its callback synchronously). */
  private storedCookies(): Cookie[] {
    let all: Cookie[] = [];
    this.jar.store.getAllCookies((error, cookies) => {
      if (!error && cookies) all = cookies;
    });
    return all;
  }

  private remove(domain: string | null, path: string | null, key: string): void {
    this.jar.store.removeCookie(domain, path, key, () => undefined);
  }
}

/** When a cookie was last sent or set, epoch ms (0 when never recorded). */
function accessedAtMs(cookie: Cookie): number {
  return cookie.lastAccessed instanceof Date ? cookie.lastAccessed.getTime() : 0;
}

/**
 * One Cookie header from a request rule's fixed cookies and the jar's: pairs of the jar replace a
 * rule's pair of the same name (the site set it since), the rest are kept in order (RFC 6265 §5.4).
 * @example mergeCookieHeaders('session=letmein; theme=dark', 'session=new') → 'theme=dark; session=new'
 */
export function mergeCookieHeaders(rule: string | null, jar: string | null): string | null {
  if (rule === null || rule === '') return jar;
  if (jar === null || jar === '') return rule;
  const names = new Set(jar.split(';').map((pair) => pair.split('=', 1)[0]!.trim()));
  const kept = rule
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && !names.has(pair.split('=', 1)[0]!.trim()));
  return kept.length === 0 ? jar : `${kept.join('; ')}; ${jar}`;
}
