/** Indexability: whether a fetched page can be indexed by a search engine, and if not, the most specific reason. */
import type { Indexability } from '../../shared/types/pages';

/** What the verdict reads of one fetched page. */
export interface IndexabilityInput {
  /** The answer's HTTP status. */
  status: number;
  /** Meta robots, googlebot and X-Robots-Tag directives, ", "-separated, lower case (PageResult.robotsDirectives); null when none. */
  robotsDirectives: string | null;
  /** True when the page's rel=canonical names another URL ({@link canonicalisedElsewhere}). */
  canonicalisedElsewhere: boolean;
}

/**
 * True when the directives forbid indexing: `noindex` or `none` (Google's robots meta tag and
 * X-Robots-Tag specification), also when addressed to one crawler (`googlebot: noindex`).
 * @example hasNoindex('noarchive, googlebot: none') → true
 * @example hasNoindex('index, follow') → false
 */
export function hasNoindex(directives: string | null): boolean {
  if (directives === null) return false;
  return directives.split(',').some((raw) => {
    const directive = raw.trim();
    const value = directive.slice(directive.lastIndexOf(':') + 1).trim();
    return value === 'noindex' || value === 'none';
  });
}

/**
 * True when `canonicalUrl` names another URL than `pageUrl`, compared by the crawl's normalized
 * key (the URL-seen test's identity: `http://a.test/x` and `http://A.test:80/x` are one URL). A
 * URL whose key cannot be computed (`keyOf` gives null) is compared as written.
 * @param keyOf the normalized key of a URL under the crawl's profile, or null
 * @example canonicalisedElsewhere('http://a.test/x', 'HTTP://A.TEST:80/x', keyOf) → false (one URL under any profile)
 */
export function canonicalisedElsewhere(pageUrl: string, canonicalUrl: string | null, keyOf: (url: string) => string | null): boolean {
  if (canonicalUrl === null) return false;
  const pageKey = keyOf(pageUrl);
  const canonicalKey = keyOf(canonicalUrl);
  if (pageKey === null || canonicalKey === null) return pageUrl !== canonicalUrl;
  return pageKey !== canonicalKey;
}

/**
 * A fetched page's indexability, the most specific reason first (Screaming Frog's "Indexability
 * Status"): `non-200` for any status but 200 (a redirect, an error page, a 204), else `noindex`
 * when its directives forbid indexing, else `canonicalised` when its rel=canonical names another
 * URL, else `indexable`. (`blocked` is for URLs robots.txt refused: they have no page to judge.)
 * @example pageIndexability({ status: 200, robotsDirectives: 'noindex', canonicalisedElsewhere: true }) → 'noindex'
 */
export function pageIndexability(page: IndexabilityInput): Exclude<Indexability, 'blocked'> {
  if (page.status !== 200) return 'non-200';
  if (hasNoindex(page.robotsDirectives)) return 'noindex';
  if (page.canonicalisedElsewhere) return 'canonicalised';
  return 'indexable';
}
