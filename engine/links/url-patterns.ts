/**
 * The crawl's include / exclude URL patterns (issue 12): regular expressions over a link's URL,
 * compiled once per crawl for V8's linear-time engine (engine/regex/url-regex.ts), so a hostile
 * URL costs time linear in its length whatever the patterns are.
 */
import type { CrawlSettings } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import { compileUrlRegex } from '../regex/url-regex';
import type { LinkParts } from './link-rules';

/** A crawl's compiled URL patterns. */
export interface UrlPatterns {
  /** Empty: no include filter. Else a URL must match one. */
  include: readonly RegExp[];
  exclude: readonly RegExp[];
}

/**
 * Compiles `includeUrlPatterns` and `excludeUrlPatterns`. The crawl calls it when it starts, so a
 * pattern the linear engine cannot run stops the start, never a running crawl.
 * @throws CodedError INVALID_URL_REGEX naming the setting and the pattern, with why
 *   (compileUrlRegex: empty, too long, invalid, or needs backtracking); REGEX_UNAVAILABLE
 * @example compileUrlPatterns({ includeUrlPatterns: ['/blog/'], excludeUrlPatterns: [] }).include.length // 1
 */
export function compileUrlPatterns(settings: Pick<CrawlSettings, 'includeUrlPatterns' | 'excludeUrlPatterns'>): UrlPatterns {
  const compile = (patterns: readonly string[], flag: string) =>
    patterns.map((pattern) => {
      try {
        return compileUrlRegex(pattern);
      } catch (error) {
        if (!(error instanceof CodedError) || error.code !== 'INVALID_URL_REGEX') throw error;
        throw new CodedError('INVALID_URL_REGEX', `${flag} pattern ${JSON.stringify(pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern)}: ${error.message}`);
      }
    });
  return { include: compile(settings.includeUrlPatterns, '--include'), exclude: compile(settings.excludeUrlPatterns, '--exclude') };
}

/**
 * The text the patterns are matched against: the URL as it will be fetched, without fragment or
 * user:password@ (scheme, host, port when not the default, path, query), as WHATWG serializes it.
 * @example patternText(linkParts('http://a.test:8080/x?q=1#f')) // 'http://a.test:8080/x?q=1'
 */
export function patternText(url: Pick<LinkParts, 'origin' | 'pathname' | 'search'>): string {
  return url.origin + url.pathname + url.search;
}

/**
 * The pattern rule refusing a URL, or null: `include-pattern` when includes are given and none
 * matches, else `exclude-pattern` when an exclude matches.
 * @example urlPatternRefusal(compileUrlPatterns({ includeUrlPatterns: ['/blog/'], excludeUrlPatterns: [] }), 'http://a.test/shop/') // 'include-pattern'
 */
export function urlPatternRefusal(patterns: UrlPatterns, text: string): 'include-pattern' | 'exclude-pattern' | null {
  if (patterns.include.length > 0 && !patterns.include.some((regex) => regex.test(text))) return 'include-pattern';
  if (patterns.exclude.some((regex) => regex.test(text))) return 'exclude-pattern';
  return null;
}
