import type { CrawlSettings } from '../../../shared/types/crawl';
import { inScope, type ScopeSeeds } from './scope';

/**
 * Why a link was not followed. Seed 004's rules (protocol, address length, query strings, file
 * extension, robots nofollow, hostname / whole-site scope), IIR 20.2's domain URL filter
 * (include / exclude lists), the depth limit, and links that are not URLs at all.
 */
export type LinkRuleName =
  | 'invalid-url'
  | 'protocol'
  | 'url-length'
  | 'query-string'
  | 'ignored-extension'
  | 'nofollow'
  | 'scope'
  | 'include-domains'
  | 'exclude-domains'
  | 'max-depth';

/** Every rule, in the order they are checked; the first that refuses a link is the one counted. */
export const LINK_RULES: readonly LinkRuleName[] = [
  'invalid-url',
  'protocol',
  'url-length',
  'query-string',
  'ignored-extension',
  'nofollow',
  'scope',
  'include-domains',
  'exclude-domains',
  'max-depth',
];

/** A discovered link as the rules see it. */
export interface LinkUnderTest {
  url: URL;
  /** The raw URL string (its length is what `maxUrlLength` limits). */
  raw: string;
  registrableDomain: string | null;
  /** Depth the link's target would get (the page's depth + 1). */
  depth: number;
  /** The page carried meta robots / X-Robots-Tag nofollow. */
  pageNofollow: boolean;
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
export function extensionOf(url: URL): string {
  const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  return dot <= 0 ? '' : segment.slice(dot + 1).toLowerCase();
}

/**
 * Compiles the crawl's link rules into one test.
 * @returns a function giving the first rule that refuses a link, or null when it is followed
 */
export function compileLinkRules(settings: CrawlSettings, seeds: ScopeSeeds): (link: LinkUnderTest) => LinkRuleName | null {
  const protocols = new Set(settings.allowedProtocols.map((p) => `${p.toLowerCase().replace(/:$/, '')}:`));
  const ignored = parseExtensionList(settings.ignoredExtensions);
  const include = new Set(settings.includeDomains.map((d) => d.toLowerCase()));
  const exclude = new Set(settings.excludeDomains.map((d) => d.toLowerCase()));
  return (link) => {
    if (!protocols.has(link.url.protocol)) return 'protocol';
    if (link.raw.length > settings.maxUrlLength) return 'url-length';
    if (!settings.followQueryStrings && link.url.search !== '') return 'query-string';
    if (ignored.size > 0 && ignored.has(extensionOf(link.url))) return 'ignored-extension';
    if (settings.obeyNofollow && link.pageNofollow) return 'nofollow';
    if (!inScope(settings.scope, link.url, link.registrableDomain, seeds)) return 'scope';
    const domain = link.registrableDomain ?? link.url.hostname;
    if (include.size > 0 && !include.has(domain)) return 'include-domains';
    if (exclude.has(domain)) return 'exclude-domains';
    if (settings.maxDepth > 0 && link.depth > settings.maxDepth) return 'max-depth';
    return null;
  };
}
