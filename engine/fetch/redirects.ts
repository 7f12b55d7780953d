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
 * This file: what a fetch makes of a 3xx answer (pure helpers, no I/O). The scheduler's side is
 * engine/links/redirects.ts; the stored chains are read by engine/store/sqlite/redirect-chains.ts.
 */
import type { ErrorInfo } from '../../shared/types/result';

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
