/**
 * A URL's shape for the trap detectors: its path segments, query parameters and template (the
 * numbers replaced by `{n}`), and the regular-expression sources that hold a trap's URLs.
 * The sources use literals, character classes and bounded repeats only (no backreferences, no
 * nested quantifiers), so RE2 runs them in linear time and JavaScript's RegExp without
 * backtracking blow-up; they match a whole URL (`scheme://host[:port]/path?query`).
 */
import { linkParts } from '../links/link-rules';

/** A URL split for the detectors. */
export interface UrlShape {
  /** `scheme://host[:port]` as written, without user info. */
  origin: string;
  host: string;
  /** Path segments without the empty first one; a trailing slash leaves a last empty segment. */
  segments: string[];
  /** The raw query string without `?`; '' when none. */
  query: string;
  /** The path as written, starting with `/`. */
  path: string;
}

/**
 * Splits an absolute http(s) URL (as the frontier stores it: WHATWG-serialized, no fragment)
 * without `new URL` (the hot path), through the link rules' splitter (engine/links/link-rules.ts
 * linkParts). @returns null when it has no `//host` part
 * @example urlShape('http://a.test/x/y/?q=1') // { origin: 'http://a.test', host: 'a.test', segments: ['x', 'y', ''], query: 'q=1', path: '/x/y/' }
 */
export function urlShape(url: string): UrlShape | null {
  const parts = linkParts(url);
  if (parts.hostname === '') return null;
  return { origin: parts.origin, host: parts.hostname.toLowerCase(), segments: parts.pathname.slice(1).split('/'), query: parts.search.slice(1), path: parts.pathname };
}

/** A run of digits inside a segment or a query value. */
const NUMBER = /\d+/g;

/**
 * The URL's template: its path and query with every run of digits as `{n}` (parameter names kept,
 * their values' numbers replaced). Two URLs of one template differ only by numbers.
 * @example urlTemplate(urlShape('http://a.test/calendar/2031/7?page=2')!) // '/calendar/{n}/{n}?page={n}'
 */
export function urlTemplate(shape: UrlShape): string {
  const path = shape.path.replace(NUMBER, '{n}');
  return shape.query === '' ? path : `${path}?${shape.query.replace(NUMBER, '{n}')}`;
}

/** The numbers of a URL's path and query, in order (for the counter test). */
export function urlNumbers(shape: UrlShape): string {
  const numbers = `${shape.path}?${shape.query}`.match(NUMBER);
  return numbers === null ? '' : numbers.join(',');
}

/** Escapes `text` as a literal for a regular expression (RE2 and JavaScript, with or without the `u` flag, read it alike: `/` and `-` need no escape outside a class). */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** The start of every trap pattern: the scheme, the host (escaped) and any port. */
export function hostPrefix(host: string): string {
  return `^https?://${escapeRegex(host)}(?::\\d+)?`;
}

/**
 * The pattern holding every URL of `template` on `host`: its literal parts, `{n}` as `\d+`, ending
 * with the template (no longer path), query included when the template has one.
 * @example templatePattern('a.test', '/calendar/{n}/{n}') // '^https?://a\\.test(?::\\d+)?/calendar/\\d+/\\d+$'
 */
export function templatePattern(host: string, template: string): string {
  return `${hostPrefix(host)}${template.split('{n}').map(escapeRegex).join('\\d+')}$`;
}
