/**
 * robots.txt matching (RFC 9309). Groups are read as the robots-parser package (3.0.1) reads
 * them and patterns match with its semantics (those of google/robotstxt), but in linear time
 * (robots-rules.ts: each pattern compiled once; per group at most ROBOTS_MAX_RULES rules kept, of
 * them ROBOTS_MAX_WILDCARD_RULES with `*`, so a check costs milliseconds, not seconds). This module
 * fixes what it can before the rules are read:
 * - product tokens (RFC 9309 §2.2.1): a `user-agent:` value is matched by its product token,
 *   the leading run of letters, `_` and `-` (`FOO BAR` and `FooBot/2.1` name `foo` and `foobot`);
 *   the caller's own user agent is reduced the same way (`productToken`);
 * - percent-encoding (RFC 9309 §2.2.2): rule paths and URL paths are compared in one form:
 *   non-ASCII as UTF-8 escapes, escape hex in uppercase, escaped unreserved characters decoded
 *   (`/%62%61%7A` matches `/baz`);
 * - a UTF-8 byte order mark is skipped, parsing stops at 500 KiB (RFC 9309 §2.5), and
 *   `/robots.txt` itself is always allowed (§2.2.2).
 * Measured on google/robotstxt's test cases (tests in robots.test.ts).
 */
import { decodeUnreservedEscapes, EncodeSet, percentEncode, uppercasePercentEscapes } from '../../shared/url';
import { RobotsGroups, uppercaseEscapes } from './robots-rules';

/** RFC 9309 §2.5: crawlers must parse at least 500 kibibytes; the rest is ignored. */
export const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;

/** A verdict for one URL and the line of the rule that decided it. */
export interface RobotsVerdict {
  allowed: boolean;
  /** False when the URL is on another origin than the robots.txt (it is then not governed by it). */
  applies: boolean;
  /** 1-based line of the deciding allow/disallow rule, or null when no rule matched. */
  matchedLine: number | null;
}

/** Characters of a robots.txt line kept when it is quoted ({@link RobotsTxt.ruleLine}); the rest is cut. */
export const ROBOTS_LINE_MAX_CHARS = 200;

/**
 * The product token of a user agent (RFC 9309 §2.2.1): its leading run of `a-zA-Z_-`.
 * @example productToken('Crawlbench/0.1 (+https://example.com/bot)') → 'Crawlbench'
 * @example productToken('FOO BAR') → 'FOO'
 */
export function productToken(userAgent: string): string {
  const match = /^[A-Za-z_-]*/.exec(userAgent.trim());
  return match?.[0] ?? '';
}

/**
 * True when `token` is a valid product token to obey: non-empty and only `a-zA-Z_-`.
 * @example isValidProductToken('Foobot-Bar') → true
 * @example isValidProductToken('Foobot/2.1') → false
 */
export function isValidProductToken(token: string | null | undefined): boolean {
  return typeof token === 'string' && /^[A-Za-z_-]+$/.test(token);
}

/**
 * Brings a rule path or URL path into the one form rules and paths are compared in: UTF-8
 * escapes for non-ASCII, uppercase escape hex, unreserved characters unescaped (RFC 9309 §2.2.2).
 * `*` and `$` keep their pattern meaning.
 * @example normalizeRobotsPath('/foo/bar/ツ') → '/foo/bar/%E3%83%84'
 * @example normalizeRobotsPath('/foo/bar/%62%61%7a') → '/foo/bar/baz'
 */
export function normalizeRobotsPath(path: string): string {
  return decodeUnreservedEscapes(uppercasePercentEscapes(percentEncode(path, EncodeSet.c0Control)));
}

/**
 * The part of a robots.txt that is read: a UTF-8 byte order mark skipped, cut at
 * ROBOTS_PARSE_LIMIT_BYTES characters (RFC 9309 §2.5). What the cache quotes and stores.
 * @example robotsSourceText('\ufeffUser-agent: *') → 'User-agent: *'
 */
export function robotsSourceText(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.length > ROBOTS_PARSE_LIMIT_BYTES ? body.slice(0, ROBOTS_PARSE_LIMIT_BYTES) : body;
}

/** Rewrites robots.txt lines (already {@link robotsSourceText}) so the group reader sees product tokens and normalized paths. */
function prepareRobotsText(source: string): string {
  return source
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const hash = line.indexOf('#');
      const content = hash === -1 ? line : line.slice(0, hash);
      const colon = content.indexOf(':');
      if (colon === -1) return content;
      const key = content.slice(0, colon).trim().toLowerCase();
      const value = content.slice(colon + 1).trim();
      if (key === 'user-agent') return `${key}: ${value === '*' ? '*' : productToken(value)}`;
      if (key === 'allow' || key === 'disallow') return `${key}: ${normalizeRobotsPath(value)}`;
      return content;
    })
    .join('\n');
}

/** One parsed robots.txt, for the origin of the URL it was fetched from. */
export class RobotsTxt {
  private readonly parsed: RobotsGroups;
  private readonly origin: string;

  /**
   * Parses robots.txt `text` fetched from `robotsUrl` (any URL on the origin it governs).
   * @throws TypeError when `robotsUrl` is not an absolute URL
   */
  constructor(robotsUrl: string, text: string) {
    this.origin = new URL(robotsUrl).origin;
    // The file as written (within the parse limit), to quote the rule that decided a URL.
    this.source = robotsSourceText(text);
    const prepared = prepareRobotsText(this.source);
    this.parsed = new RobotsGroups(prepared);
    const starts = [0];
    const breaks = /\r\n|\r|\n/g;
    for (let match = breaks.exec(this.source); match !== null; match = breaks.exec(this.source)) starts.push(match.index + match[0].length);
    this.lineStarts = Uint32Array.from(starts);
    this.approxBytes = 4 * prepared.length + 2 * this.source.length + this.lineStarts.byteLength + 1024;
  }

  /** The file as written, within ROBOTS_PARSE_LIMIT_BYTES. */
  private readonly source: string;
  /** Where each line of `source` starts (4 bytes a line, counted in approxBytes). */
  private readonly lineStarts: Uint32Array;

  /** Estimated heap bytes of the parsed rules (for caches bounded by bytes). */
  readonly approxBytes: number;

  /** Allow/disallow lines ignored past a group's ROBOTS_MAX_RULES or ROBOTS_MAX_WILDCARD_RULES (robots-rules.ts). */
  get ignoredRules(): number {
    return this.parsed.ignoredRules;
  }

  /**
   * Characters compared or scanned by every check so far (robots-rules.ts MatchCounter): a
   * measure of matching work that does not depend on the machine's speed.
   */
  get matchSteps(): number {
    return this.parsed.counter.steps;
  }

  /**
   * Whether `productTokenOrUserAgent` may fetch `url`, with the deciding line.
   * @example new RobotsTxt('http://a.test/robots.txt', 'User-agent: *\nDisallow: /private').check('http://a.test/private/x', 'Crawlbench') → { allowed: false, applies: true, matchedLine: 2 }
   */
  check(url: string, productTokenOrUserAgent: string): RobotsVerdict {
    let parsedUrl: URL;
    try {
      parsedUrl = new URL(url);
    } catch {
      return { allowed: true, applies: false, matchedLine: null };
    }
    if (parsedUrl.origin !== this.origin) return { allowed: true, applies: false, matchedLine: null };
    if (parsedUrl.pathname === '/robots.txt') return { allowed: true, applies: true, matchedLine: null };
    const token = productToken(productTokenOrUserAgent) || '*';
    // The path as robots-parser compared it: normalized, parsed again, escapes in uppercase.
    let target: URL;
    try {
      target = new URL(this.origin + normalizeRobotsPath(parsedUrl.pathname + parsedUrl.search));
    } catch {
      return { allowed: true, applies: true, matchedLine: null };
    }
    const rule = this.parsed.decide(uppercaseEscapes(target.pathname + target.search), token);
    return { allowed: rule === null || rule.allow, applies: true, matchedLine: rule?.line ?? null };
  }

  /**
   * Line `line` (1-based) of the file as written, trimmed and cut at {@link ROBOTS_LINE_MAX_CHARS},
   * prefixed with its number: how the URL inspector and the Frontier view quote the rule that
   * decided a URL. null for a line the file does not have.
   * @example new RobotsTxt('http://a.test/robots.txt', 'User-agent: *\nDisallow: /private/').ruleLine(2) → '2: Disallow: /private/'
   */
  ruleLine(line: number): string | null {
    const start = Number.isInteger(line) && line >= 1 ? this.lineStarts[line - 1] : undefined;
    if (start === undefined) return null;
    const next = this.lineStarts[line];
    const text = this.source.slice(start, next).trim();
    return `${line}: ${text.slice(0, ROBOTS_LINE_MAX_CHARS)}`;
  }

  /**
   * Whether `productTokenOrUserAgent` (e.g. `Crawlbench` or `Crawlbench/0.1 (+url)`) may fetch
   * `url`. URLs on another origin are not governed by this file: true (see `check().applies`).
   * @example new RobotsTxt('http://a.test/robots.txt', 'User-agent: foo bar\nDisallow: /').isAllowed('http://a.test/x', 'foo') → false
   */
  isAllowed(url: string, productTokenOrUserAgent: string): boolean {
    return this.check(url, productTokenOrUserAgent).allowed;
  }

  /**
   * The crawl-delay for this user agent's group (or the `*` group), in milliseconds.
   * @returns milliseconds, or undefined when the group sets none (or sets a non-number)
   * @example new RobotsTxt('http://a.test/robots.txt', 'User-agent: *\nCrawl-delay: 2.5').crawlDelayMs('x') → 2500
   */
  crawlDelayMs(productTokenOrUserAgent: string): number | undefined {
    const seconds = this.parsed.crawlDelay(productToken(productTokenOrUserAgent) || '*');
    return seconds === undefined || !Number.isFinite(seconds) || seconds < 0 ? undefined : Math.round(seconds * 1000);
  }

  /**
   * Sitemap URLs listed anywhere in the file (RFC 9309 §2.3.5 "other records"), as written.
   * @example new RobotsTxt('http://a.test/robots.txt', 'Sitemap: http://a.test/s.xml').sitemaps() → ['http://a.test/s.xml']
   */
  sitemaps(): string[] {
    return [...this.parsed.sitemaps];
  }
}
