/**
 * Redirects as first-class results (RFC 9110 §15.4). A page fetch does not follow a redirect: a
 * 3xx answer with a Location is the URL's own result (its status, Location and fetch time are
 * stored), and the crawl runner offers the Location to the frontier as a URL discovered from the
 * 3xx URL through a `redirect` link. The target then passes everything any URL passes before it
 * is fetched: the URL-seen test, the crawl's link rules, robots.txt of its own origin (fetched
 * when needed) and its host's politeness delay.
 *
 * - Depth: a redirect is not a click, so the target keeps the redirecting URL's depth.
 * - Hop count: `urls.redirect_hops` counts the consecutive redirects that first led to a URL;
 *   one reached through more than `maxRedirects` is refused with REDIRECT_LIMIT, unfetched.
 * - Loops end at the URL-seen test (the target is already known); when the known target's stored
 *   redirects lead back to the redirecting URL, that hop is recorded as REDIRECT_LOOP.
 * - robots.txt fetches still follow redirects inside the fetcher (RFC 9309 §2.3.1.2); see
 *   {@link robotsRedirectLimit} and RobotsCache.record for what a loop or too long a chain means.
 *
 * Pure helpers (no I/O) plus {@link RedirectChains}, the two indexed reads the runner needs.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { ErrorInfo } from '../../../shared/types/result';
import type { LinkParts, LinkRuleName, LinkUnderTest } from './link-rules';
import type { ScopeSeeds } from './scope';

/** Statuses that redirect to their Location (RFC 9110 §15.4.2–15.4.9); 300 and 304 do not. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * RFC 9309 §2.3.1.2: crawlers SHOULD follow at least five consecutive redirects for robots.txt,
 * even across authorities.
 */
export const ROBOTS_MIN_REDIRECTS = 5;

/** A redirect answer's target. */
export interface RedirectTarget {
  /** The Location resolved against the requested URL (WHATWG URL), fragment dropped; null when it does not resolve. */
  location: string | null;
  /** The Location header as the server sent it. */
  raw: string;
}

/**
 * The redirect target of an answer, or null when the answer is not a redirect (a status outside
 * {@link REDIRECT_STATUSES}, or no Location header: RFC 9110 §15.4 leaves such a 3xx as an
 * ordinary answer).
 * @example redirectTarget(301, '/b#x', 'http://a.test/a') → { location: 'http://a.test/b', raw: '/b#x' }
 * @example redirectTarget(302, 'http://[', 'http://a.test/a') → { location: null, raw: 'http://[' }
 */
export function redirectTarget(status: number, location: string | undefined, requestedUrl: string): RedirectTarget | null {
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return null;
  try {
    const url = new URL(location, requestedUrl);
    url.hash = '';
    return { location: url.href, raw: location };
  } catch {
    return { location: null, raw: location };
  }
}

/**
 * How many consecutive redirects a robots.txt fetch follows: the crawl's `maxRedirects`, but never
 * fewer than RFC 9309 §2.3.1.2's five. Beyond it (or on a loop) the fetch fails with
 * REDIRECT_LIMIT (REDIRECT_LOOP), which RobotsCache.record treats as "unavailable".
 */
export function robotsRedirectLimit(maxRedirects: number): number {
  return Math.max(ROBOTS_MIN_REDIRECTS, maxRedirects);
}

/**
 * Error codes of a robots.txt fetch whose redirects led nowhere: a loop, more redirects than
 * {@link robotsRedirectLimit}, or a Location that is not an http(s) URL. RFC 9309 §2.3.1.2 lets a
 * crawler assume robots.txt is then "unavailable", and §2.3.1.3 lets it access any resource of an
 * unavailable robots.txt's server: we read it so and treat such an origin as having no rules.
 */
export const ROBOTS_REDIRECT_FAILURES: ReadonlySet<string> = new Set(['REDIRECT_LOOP', 'REDIRECT_LIMIT', 'BAD_REDIRECT']);

/**
 * The error a robots.txt fetch reports. A failure after at least one redirect was followed
 * (other than {@link ROBOTS_REDIRECT_FAILURES}) happened on the redirect's target, not on the
 * host whose robots.txt was asked for: that host answered. It becomes ROBOTS_REDIRECT_FAILED, a
 * robots.txt that could not be fetched (RFC 9309 §2.3.1.4 "unreachable": everything disallowed
 * for now, asked again later), so a redirect to an unmapped or refusing host does not mark the
 * asked host itself unreachable.
 * @param hopsFollowed redirects followed before the failure
 */
export function robotsFetchError(error: ErrorInfo, hopsFollowed: number): ErrorInfo {
  if (hopsFollowed === 0 || ROBOTS_REDIRECT_FAILURES.has(error.code)) return error;
  return { code: 'ROBOTS_REDIRECT_FAILED', message: `robots.txt redirected ${hopsFollowed} time(s) to a URL that failed: ${error.code}: ${error.message}` };
}

/**
 * The first link rule refusing a redirect target, or null when it enters the frontier. Seed 004's
 * rules that are about the target URL apply (protocol, URL length, ignored extensions, scope,
 * include / exclude domains); the query-string rule and meta robots nofollow do not (nofollow
 * is about links in a page's content; a server's redirect is not one), and max-depth cannot
 * refuse it (the target keeps the redirecting URL's depth, already admitted).
 *
 * A seed's redirect chain (the redirecting URL is at depth 0: a seed or a seed's redirect target)
 * is not refused by scope: its target becomes a seed too (Heritrix's seedsRedirectNewSeeds), so
 * `http://a.test/` → `https://www.a.test/` crawls www.a.test under host scope. `seeds` is widened
 * with the target when (and only when) that is what lets it in.
 * @param rules the crawl's compiled link rules, reading `seeds` for the scope rule
 */
export function redirectRefusal(
  rules: (link: LinkUnderTest) => LinkRuleName | null,
  seeds: ScopeSeeds,
  target: { url: string; parts: LinkParts; raw: string; registrableDomain: string | null },
  fromDepth: number,
): LinkRuleName | null {
  const link: LinkUnderTest = { url: { ...target.parts, search: '' }, raw: target.raw, registrableDomain: target.registrableDomain, depth: fromDepth, pageNofollow: false };
  const rule = rules(link);
  if (rule !== 'scope' || fromDepth !== 0) return rule;
  const undo = addRedirectSeed(seeds, target.url, target.registrableDomain);
  const widened = rules(link);
  if (widened !== null) undo();
  return widened;
}

/**
 * Widens the scope with a seed's redirect target (see {@link redirectRefusal}): its host, its
 * registrable domain and its directory, as if it had been given as a seed.
 * @returns a function that takes back what this call added
 */
export function addRedirectSeed(seeds: ScopeSeeds, url: string, registrableDomain: string | null): () => void {
  const parsed = new URL(url);
  const hosts = seeds.hosts as Set<string>;
  const domains = seeds.domains as Set<string>;
  const directories = seeds.directories as string[];
  const host = parsed.hostname;
  const domain = registrableDomain ?? parsed.hostname;
  const directory = parsed.origin + parsed.pathname.slice(0, parsed.pathname.lastIndexOf('/') + 1);
  const added = { host: !hosts.has(host), domain: !domains.has(domain), directory: !directories.includes(directory) };
  hosts.add(host);
  domains.add(domain);
  if (added.directory) directories.push(directory);
  return () => {
    if (added.host) hosts.delete(host);
    if (added.domain) domains.delete(domain);
    if (added.directory) directories.splice(directories.indexOf(directory), 1);
  };
}

/**
 * The two reads the crawl runner needs about redirect chains already stored: `redirect` links
 * (one per hop, from the 3xx URL to its target) and seed redirect targets (depth 0, hops > 0).
 */
export class RedirectChains {
  private readonly redirectFrom: Statement;
  private readonly seedTargets: Statement;

  constructor(db: Database) {
    this.redirectFrom = db
      .prepare(`SELECT to_url_id FROM links WHERE crawl_id = ? AND from_url_id = ? AND kind = 'redirect' AND to_url_id IS NOT NULL ORDER BY id DESC LIMIT 1`)
      .pluck();
    this.seedTargets = db.prepare(`SELECT url, registrable_domain AS registrableDomain FROM urls WHERE crawl_id = ? AND depth = 0 AND redirect_hops > 0`);
  }

  /**
   * True when a redirect from `urlId` to the already known `targetId` closes a loop: the target is
   * the URL itself, or the target's stored redirects lead back to it within `maxSteps` hops (one
   * indexed read per hop). Holds whichever way the loop's URLs were first discovered.
   */
  closesLoop(crawlId: number, urlId: number, targetId: number, maxSteps: number): boolean {
    let id: number | undefined = targetId;
    for (let steps = 0; id !== undefined && steps <= maxSteps; steps += 1) {
      if (id === urlId) return true;
      id = this.redirectFrom.get(crawlId, id) as number | undefined;
    }
    return false;
  }

  /** Redirect targets of the crawl's seeds stored so far (to widen the scope of a resumed crawl). */
  seedRedirectTargets(crawlId: number): { url: string; registrableDomain: string | null }[] {
    return this.seedTargets.all(crawlId) as { url: string; registrableDomain: string | null }[];
  }
}
