/**
 * Seed 004's link rules: every reason a link is refused (protocol, length, list mode, query,
 * extension, page and link nofollow, scope, domains, URL patterns, unmapped host, depth).
 */
import type { CrawlSettings } from '../../shared/types/crawl';
import { NOFOLLOW_REL_TOKENS, type LinkRuleName } from '../../shared/types/link-rules';
import { hostOverrideMatcher } from '../../shared/url/host-override';
import { inScope, type ScopeSeeds } from './scope';
import { compileUrlPatterns, patternText, urlPatternRefusal } from './url-patterns';

/** The rule names and their order live in shared/types (the renderer shows them in words). */
export { LINK_RULES, type LinkRuleName } from '../../shared/types/link-rules';

/**
 * Characters of a link's raw URL kept in the links table and sent from a worker for a link
 * refused by `url-length` (whatever `maxUrlLength` is, a refused URL costs at most this).
 */
export const STORED_RAW_URL_CHARS = 2048;

/** The parts of a serialized WHATWG URL the link rules look at. */
export interface LinkParts {
  /** Scheme with its colon, lowercase: 'http:'. */
  protocol: string;
  /** Host name without port. */
  hostname: string;
  /** `scheme://host[:port]`. */
  origin: string;
  pathname: string;
  /** Query with its '?', or '' when there is none. */
  search: string;
}

/**
 * Splits an absolute URL already serialized by the WHATWG parser (as `URL.href` gives it) into the
 * parts the rules use, without parsing it again.
 * @example linkParts('http://a.test:8080/x/y.jpg?q#f') // { protocol: 'http:', hostname: 'a.test', origin: 'http://a.test:8080', pathname: '/x/y.jpg', search: '?q' }
 */
export function linkParts(href: string): LinkParts {
  const colon = href.indexOf(':');
  // The common schemes as literals (one string each, shared by every cached target), not a slice per URL.
  const protocol = href.startsWith('http:') ? 'http:' : href.startsWith('https:') ? 'https:' : href.slice(0, colon + 1);
  if (href.startsWith('//', colon + 1)) {
    const authorityStart = colon + 3;
    // The authority ends at the first '/', '?' or '#' (no array or split: this runs on every link-target cache miss).
    let end = href.indexOf('/', authorityStart);
    if (end === -1) end = href.length;
    const query = href.indexOf('?', authorityStart);
    if (query !== -1 && query < end) end = query;
    const fragment = href.indexOf('#', authorityStart);
    if (fragment !== -1 && fragment < end) end = fragment;
    const authority = href.slice(authorityStart, end);
    const at = authority.lastIndexOf('@');
    const hostPort = at === -1 ? authority : authority.slice(at + 1);
    const portColon = hostPort.indexOf(':');
    const hostname = hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : portColon === -1 ? hostPort : hostPort.slice(0, portColon);
    // No '#' lies before `end`, so the first one from the authority on is the fragment's.
    const rest = href.slice(end, fragment === -1 ? href.length : fragment);
    const question = rest.indexOf('?');
    const pathname = question === -1 ? rest : rest.slice(0, question);
    // Without userinfo the origin is the URL's start (a slice, not a new string per cached target).
    const origin = at === -1 ? href.slice(0, end) : `${protocol}//${hostPort}`;
    return { protocol, hostname, origin, pathname: pathname === '' ? '/' : pathname, search: question === -1 || question === rest.length - 1 ? '' : rest.slice(question) };
  }
  return { protocol, hostname: '', origin: 'null', pathname: href.slice(colon + 1), search: '' };
}

/** A discovered link as the rules see it. */
export interface LinkUnderTest {
  url: LinkParts;
  /** The raw URL string (its length is what `maxUrlLength` limits). */
  raw: string;
  registrableDomain: string | null;
  /** Depth the link's target would get (the page's depth + 1). */
  depth: number;
  /** The page carried meta robots / X-Robots-Tag nofollow. */
  pageNofollow: boolean;
  /** The link's own `rel` tokens, lower case, space-separated (the worker's `link.rel`); absent when none. */
  rel?: string;
  /**
   * The URL is a redirect's target, not a link in a page: the rules about following links
   * (list mode, query strings, nofollow) do not apply to it (see redirects.ts). @default false
   */
  redirect?: boolean;
}

/**
 * True when a link's `rel` tokens ask crawlers not to follow it (one of NOFOLLOW_REL_TOKENS).
 * @param rel lower-case tokens separated by single spaces, as the worker sends them
 * @example relSaysNofollow('noopener ugc') // true
 * @example relSaysNofollow('nofollowing') // false
 */
export function relSaysNofollow(rel: string | undefined): boolean {
  if (rel === undefined) return false;
  return rel.split(' ').some((token) => NOFOLLOW_REL_TOKENS.includes(token));
}

/**
 * Parses seed 004's pipe-separated extension list.
 * @example parseExtensionList('JPG| png ||zip') // Set { 'jpg', 'png', 'zip' }
 */
export function parseExtensionList(list: string): Set<string> {
  return new Set(
    list
      .split('|')
      .map((extension) => extension.trim().toLowerCase().replace(/^\./, ''))
      .filter(Boolean),
  );
}

/**
 * The lowercase file extension of a URL's last path segment, or '' when it has none.
 * @example extensionOf(new URL('http://a/x/Photo.JPG?s=1')) // 'jpg'
 * @example extensionOf(new URL('http://a/x.tar/')) // ''
 */
export function extensionOf(url: Pick<LinkParts, 'pathname'>): string {
  const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  return dot <= 0 ? '' : segment.slice(dot + 1).toLowerCase();
}

/**
 * Compiles the crawl's link rules into one test, checked in LINK_RULES order.
 * In list mode every link of a page is refused by `list-mode`, but not a redirect's target: a
 * listed URL that redirects is answered at its target (the list names an address; what the user
 * wants fetched is the document there, and the redirect alone says nothing about it), so the
 * chain is followed as for any seed, within maxRedirects and the other rules.
 * @returns a function giving the first rule that refuses a link, or null when it is followed
 * @throws CodedError INVALID_URL_REGEX naming a URL pattern the linear-time engine cannot run
 */
export function compileLinkRules(settings: CrawlSettings, seeds: ScopeSeeds): (link: LinkUnderTest) => LinkRuleName | null {
  const listMode = settings.crawlMode === 'list';
  const patterns = compileUrlPatterns(settings);
  const anyPattern = patterns.include.length > 0 || patterns.exclude.length > 0;
  const protocols = new Set(settings.allowedProtocols.map((p) => `${p.toLowerCase().replace(/:$/, '')}:`));
  const ignored = parseExtensionList(settings.ignoredExtensions);
  const include = new Set(settings.includeDomains.map((d) => d.toLowerCase()));
  const exclude = new Set(settings.excludeDomains.map((d) => d.toLowerCase()));
  // Closed mode: a host no override maps would fail HOST_NOT_MAPPED at fetch time; refuse it here,
  // with the resolver's own matcher, so it is counted as a refusal, not queued and failed.
  const overrideOf = settings.closedResolver ? hostOverrideMatcher(settings.hostOverrides) : null;
  return (link) => {
    if (!protocols.has(link.url.protocol)) return 'protocol';
    if (link.raw.length > settings.maxUrlLength) return 'url-length';
    const redirect = link.redirect === true;
    if (listMode && !redirect) return 'list-mode';
    if (!settings.followQueryStrings && !redirect && link.url.search !== '') return 'query-string';
    if (ignored.size > 0 && ignored.has(extensionOf(link.url))) return 'ignored-extension';
    if (settings.obeyNofollow && link.pageNofollow) return 'nofollow';
    if (!settings.followNofollowLinks && relSaysNofollow(link.rel)) return 'link-nofollow';
    if (!inScope(settings.scope, link.url, link.registrableDomain, seeds)) return 'scope';
    const domain = link.registrableDomain ?? link.url.hostname;
    if (include.size > 0 && !include.has(domain)) return 'include-domains';
    if (exclude.has(domain)) return 'exclude-domains';
    if (anyPattern) {
      const rule = urlPatternRefusal(patterns, patternText(link.url));
      if (rule !== null) return rule;
    }
    if (overrideOf !== null && overrideOf(link.url.hostname) === null) return 'host-not-mapped';
    if (settings.maxDepth > 0 && link.depth > settings.maxDepth) return 'max-depth';
    return null;
  };
}
