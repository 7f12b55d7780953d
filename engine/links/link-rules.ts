/**
 * Seed 004's link rules: every reason a link is refused (protocol, length, list mode, query,
 * extension, page and link nofollow, scope, domains, URL patterns, unmapped host, depth).
 */
import type { CrawlSettings } from '../../shared/types/crawl';
import { LINK_RULES, NOFOLLOW_REL_TOKENS, type LinkRuleName } from '../../shared/types/link-rules';
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
 * What the link rules say about a URL by itself, without a page or a link around it, as one small
 * integer (no object: a crawl keeps one a URL): `early` (bits 0–4), the first of protocol,
 * list-mode, query-string and ignored-extension refusing it; `late` (bits 5–9, looked at only when
 * `early` is none), the first of scope, include-domains, exclude-domains, the URL patterns and
 * host-not-mapped; each as its place in LINK_RULES plus one, 0 for none. A link's verdict puts the
 * rules about the link itself (url-length, page and link nofollow, depth) around them:
 * {@link LinkRules.decide}.
 */
export type TargetVerdict = number;

/** Rule names by {@link TargetVerdict} code (0: none). */
const RULE_BY_CODE: readonly (LinkRuleName | null)[] = [null, ...LINK_RULES];
/** {@link TargetVerdict} codes by rule name. */
const CODE_OF_RULE = new Map<LinkRuleName, number>(LINK_RULES.map((rule, index) => [rule, index + 1]));

/** Packs a URL's early and late refusals into a {@link TargetVerdict}. */
export function targetVerdict(early: LinkRuleName | null, late: LinkRuleName | null): TargetVerdict {
  return (early === null ? 0 : CODE_OF_RULE.get(early)!) | ((late === null ? 0 : CODE_OF_RULE.get(late)!) << 5);
}

/** The early refusal of a {@link TargetVerdict}, or null. */
export function earlyRule(verdict: TargetVerdict): LinkRuleName | null {
  return RULE_BY_CODE[verdict & 31] ?? null;
}

/** The late refusal of a {@link TargetVerdict}, or null. */
export function lateRule(verdict: TargetVerdict): LinkRuleName | null {
  return RULE_BY_CODE[(verdict >>> 5) & 31] ?? null;
}

/**
 * A link's own circumstances, which the rules weigh beside its URL's {@link TargetVerdict}. Whether
 * the link is a redirect is not among them: it changes the URL's early rules, so it goes to
 * {@link LinkRules.ofTarget}.
 */
export type LinkContext = Pick<LinkUnderTest, 'depth' | 'pageNofollow' | 'rel'>;

/** The crawl's link rules, compiled ({@link compileLinkRules}). */
export interface LinkRules {
  /** The first rule refusing `link` in LINK_RULES order, or null when it is followed: `decide(ofTarget(link), link.raw, link)`. */
  test(link: LinkUnderTest): LinkRuleName | null;
  /**
   * The part of a link's verdict that depends on its URL alone (and on the scope's seeds, which a
   * seed's redirect widens: see ScopeSeeds.generation): a caller may keep it per URL while the
   * seeds stay as they were, and {@link decide} each link of that URL with it.
   */
  ofTarget(link: Pick<LinkUnderTest, 'url' | 'registrableDomain' | 'redirect'>): TargetVerdict;
  /** The first rule refusing a link whose URL got `target` from {@link ofTarget}, `raw` being its raw URL; null when it is followed. */
  decide(target: TargetVerdict, raw: string, context: LinkContext): LinkRuleName | null;
}

/**
 * Compiles the crawl's link rules, checked in LINK_RULES order.
 * In list mode every link of a page is refused by `list-mode`, but not a redirect's target: a
 * listed URL that redirects is answered at its target (the list names an address; what the user
 * wants fetched is the document there, and the redirect alone says nothing about it), so the
 * chain is followed as for any seed, within maxRedirects and the other rules.
 * @throws CodedError INVALID_URL_REGEX naming a URL pattern the linear-time engine cannot run
 */
export function compileLinkRules(settings: CrawlSettings, seeds: ScopeSeeds): LinkRules {
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
  const early = (link: Pick<LinkUnderTest, 'url' | 'redirect'>): LinkRuleName | null => {
    if (!protocols.has(link.url.protocol)) return 'protocol';
    const redirect = link.redirect === true;
    if (listMode && !redirect) return 'list-mode';
    if (!settings.followQueryStrings && !redirect && link.url.search !== '') return 'query-string';
    if (ignored.size > 0 && ignored.has(extensionOf(link.url))) return 'ignored-extension';
    return null;
  };
  const late = (link: Pick<LinkUnderTest, 'url' | 'registrableDomain'>): LinkRuleName | null => {
    if (!inScope(settings.scope, link.url, link.registrableDomain, seeds)) return 'scope';
    const domain = link.registrableDomain ?? link.url.hostname;
    if (include.size > 0 && !include.has(domain)) return 'include-domains';
    if (exclude.has(domain)) return 'exclude-domains';
    if (anyPattern) {
      const rule = urlPatternRefusal(patterns, patternText(link.url));
      if (rule !== null) return rule;
    }
    if (overrideOf !== null && overrideOf(link.url.hostname) === null) return 'host-not-mapped';
    return null;
  };
  const ofTarget: LinkRules['ofTarget'] = (link) => {
    const first = early(link);
    return targetVerdict(first, first === null ? late(link) : null);
  };
  const decide: LinkRules['decide'] = (target, raw, context) => {
    const first = earlyRule(target);
    if (first === 'protocol') return 'protocol';
    if (raw.length > settings.maxUrlLength) return 'url-length';
    if (first !== null) return first;
    if (settings.obeyNofollow && context.pageNofollow) return 'nofollow';
    if (!settings.followNofollowLinks && relSaysNofollow(context.rel)) return 'link-nofollow';
    const last = lateRule(target);
    if (last !== null) return last;
    if (settings.maxDepth > 0 && context.depth > settings.maxDepth) return 'max-depth';
    return null;
  };
  return { test: (link) => decide(ofTarget(link), link.raw, link), ofTarget, decide };
}
