/**
 * The normalization rules: each kind from seed 002 (Wikipedia, "URL normalization") and RFC 3986
 * §6.2.2-6.2.3, plus the "perceptual hash" rules of seed 001, as a named function over
 * {@link UrlParts}. A rule returns true only when it changed something. Rules run in
 * {@link RULE_ORDER}, which is fixed and documented there; profiles only switch them on or off.
 */
import { DEFAULT_PORTS, type UrlParts } from './parse';
import { decodeUnreservedEscapes, uppercasePercentEscapes } from './percent';
import { comparePairs, pairName, pairValue } from './query';

/**
 * Every rule, in the order they are applied. Why this order:
 * case first (so later matching sees lowercase), `lowercaseUrl` before the escape rules (so
 * escapes end uppercase), escape decoding before dot-segment removal (`%2E%2E` is `..`),
 * dot-segments before the empty-path slash and the directory index, query removal before sorting
 * and before dropping an empty `?`, scheme folding after the default port (so `https://x:443`
 * loses its port first), and directory index → extension → trailing slash last (seed 001:
 * `/document/index.aspx` → `/document/` → `/document`).
 */
export const RULE_ORDER = [
  'lowercaseSchemeAndHost',
  'lowercaseUrl',
  'uppercasePercentEscapes',
  'decodeUnreservedCharacters',
  'removeDefaultPort',
  'removeDotSegments',
  'addTrailingSlash',
  'removeDirectoryIndex',
  'removeFragment',
  'removeWww',
  'removeQueryParams',
  'removeDefaultQueryParams',
  'sortQueryParams',
  'removeEmptyQuery',
  'foldHttpsToHttp',
  'removeFileExtension',
  'removeTrailingSlash',
] as const;

/** The name of one normalization rule. */
export type NormalizationRuleName = (typeof RULE_ORDER)[number];

/** One rule that changed the URL: its name and the whole URL before and after it ran. */
export interface RuleFiring {
  rule: NormalizationRuleName;
  before: string;
  after: string;
}

/** The lists a profile carries, compiled for fast lookups (see profiles.ts for the source lists). */
export interface RuleContext {
  /** Lowercase file names that are directory indexes (`index.html`). */
  directoryIndexes: ReadonlySet<string>;
  /** 1 at each name length that occurs in `directoryIndexes` (a quick rejection test). */
  directoryIndexLengths: Uint8Array;
  /** 1 at each lowercase first char code (0-127) that occurs in `directoryIndexes`. */
  directoryIndexFirstChars: Uint8Array;
  /** Lowercase query names removed exactly. */
  removeParamNames: ReadonlySet<string>;
  /** Lowercase name prefixes removed (`utm_` from the entry `utm_*`). */
  removeParamPrefixes: readonly string[];
  /** Lowercase name → values that are the default and can be dropped. */
  defaultParams: ReadonlyMap<string, ReadonlySet<string>>;
  /** Lowercase file extensions without the dot (`html`). */
  fileExtensions: ReadonlySet<string>;
}

/** A rule: mutates `parts` and returns true when it changed anything. */
export type RuleFunction = (parts: UrlParts, context: RuleContext) => boolean;

/** Documentation for one rule, shown in the GUI's profile editor. */
export interface RuleInfo {
  summary: string;
  example: { input: string; output: string };
  source: string;
  /** True when the rule preserves semantics (RFC 3986 §6.2.2-6.2.3); only these are in `safe`. */
  semanticsPreserving: boolean;
}

function lastSegmentStart(path: string): number {
  return path.lastIndexOf('/') + 1;
}

/** True when `text` has an ASCII uppercase letter (scheme and host are ASCII after parsing). */
function hasUpperAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) return true;
  }
  return false;
}

// Only special-scheme hosts are lowercased: other schemes' hosts are opaque to the WHATWG parser,
// which keeps their case, and a scheme we do not know may not treat them as DNS names.
const lowercaseSchemeAndHost: RuleFunction = (parts) => {
  if (parts.schemeAndHostLowercase === true) return false;
  const scheme = hasUpperAscii(parts.scheme);
  const host = parts.special && hasUpperAscii(parts.host);
  if (!scheme && !host) return false;
  if (scheme) parts.scheme = parts.scheme.toLowerCase();
  if (host) parts.host = parts.host.toLowerCase();
  return true;
};

const lowercaseUrl: RuleFunction = (parts) => {
  const before = parts.scheme + parts.userinfo + parts.host + parts.path + (parts.query ?? '') + (parts.fragment ?? '');
  if (before === before.toLowerCase()) return false;
  parts.scheme = parts.scheme.toLowerCase();
  parts.userinfo = parts.userinfo.toLowerCase();
  parts.host = parts.host.toLowerCase();
  parts.path = parts.path.toLowerCase();
  if (parts.query !== null) parts.query = parts.query.toLowerCase();
  if (parts.fragment !== null) parts.fragment = parts.fragment.toLowerCase();
  return true;
};

function mapEscapes(parts: UrlParts, map: (text: string) => string, includeHost: boolean): boolean {
  let changed = false;
  const userinfo = map(parts.userinfo);
  if (userinfo !== parts.userinfo) {
    parts.userinfo = userinfo;
    changed = true;
  }
  if (includeHost) {
    const host = map(parts.host);
    if (host !== parts.host) {
      parts.host = host;
      changed = true;
    }
  }
  const path = map(parts.path);
  if (path !== parts.path) {
    parts.path = path;
    changed = true;
  }
  if (parts.query !== null) {
    const query = map(parts.query);
    if (query !== parts.query) {
      parts.query = query;
      changed = true;
    }
  }
  if (parts.fragment !== null) {
    const fragment = map(parts.fragment);
    if (fragment !== parts.fragment) {
      parts.fragment = fragment;
      changed = true;
    }
  }
  return changed;
}

const uppercaseEscapesRule: RuleFunction = (parts) => parts.noPercent !== true && mapEscapes(parts, uppercasePercentEscapes, true);

// Special-scheme hosts never hold escapes (the host parser decodes them); opaque hosts may.
const decodeUnreservedRule: RuleFunction = (parts) => parts.noPercent !== true && mapEscapes(parts, decodeUnreservedEscapes, !parts.special);

const removeDefaultPort: RuleFunction = (parts) => {
  if (parts.port === '' || DEFAULT_PORTS[parts.scheme.toLowerCase()] !== parts.port) return false;
  parts.port = '';
  return true;
};

/** WHATWG "single-dot segment": `.` or `%2e` (any case). */
function isSingleDot(segment: string): boolean {
  return segment === '.' || (segment.length === 3 && segment.toLowerCase() === '%2e');
}

/** WHATWG "double-dot segment": `..`, `.%2e`, `%2e.` or `%2e%2e` (any case). */
function isDoubleDot(segment: string): boolean {
  if (segment === '..') return true;
  const lower = segment.length === 4 || segment.length === 6 ? segment.toLowerCase() : '';
  return lower === '.%2e' || lower === '%2e.' || lower === '%2e%2e';
}

/**
 * Removes `.` and `..` segments from an absolute path (RFC 3986 §5.2.4, in the segment-list form
 * the WHATWG URL Standard uses, which also counts `%2e` as a dot, so results agree with `new URL()`).
 * @example removeDotSegmentsFromPath('/a/b/../c/./d.html') → '/a/c/d.html'
 * @example removeDotSegmentsFromPath('/a/%2E%2e/b') → '/b'
 */
export function removeDotSegmentsFromPath(path: string): string {
  const segments = path.split('/');
  const out: string[] = [];
  const lastIndex = segments.length - 1;
  for (let i = 1; i <= lastIndex; i++) {
    const segment = segments[i]!;
    if (isSingleDot(segment)) {
      if (i === lastIndex) out.push('');
    } else if (isDoubleDot(segment)) {
      out.pop();
      if (i === lastIndex) out.push('');
    } else {
      out.push(segment);
    }
  }
  return '/' + out.join('/');
}

const removeDotSegments: RuleFunction = (parts) => {
  const path = parts.path;
  if (parts.opaquePath || !path.startsWith('/') || (!path.includes('/.') && (parts.noPercent === true || !/\/%2e/i.test(path)))) return false;
  const result = removeDotSegmentsFromPath(path);
  if (result === path) return false;
  parts.path = result;
  return true;
};

const addTrailingSlash: RuleFunction = (parts) => {
  if (!parts.special || parts.path !== '') return false;
  parts.path = '/';
  return true;
};

const removeDirectoryIndex: RuleFunction = (parts, context) => {
  const path = parts.path;
  if (parts.opaquePath) return false;
  const start = lastSegmentStart(path);
  const length = path.length - start;
  // Cheap rejections first: most last segments cannot be an index by length or first letter.
  if (length === 0 || length >= context.directoryIndexLengths.length || context.directoryIndexLengths[length] !== 1) return false;
  if (context.directoryIndexFirstChars[path.charCodeAt(start) | 0x20] !== 1) return false;
  if (!context.directoryIndexes.has(path.slice(start).toLowerCase())) return false;
  parts.path = path.slice(0, start);
  return true;
};

const removeFragment: RuleFunction = (parts) => {
  if (parts.fragment === null) return false;
  parts.fragment = null;
  return true;
};

const removeWww: RuleFunction = (parts) => {
  const host = parts.host;
  if (host.length < 6 || host.slice(0, 4).toLowerCase() !== 'www.') return false;
  // Keep `www.com` and `www.example.` whole: the remainder must still have two labels.
  const dot = host.indexOf('.', 4);
  if (dot <= 4 || dot === host.length - 1) return false;
  parts.host = host.slice(4);
  return true;
};

function isRemovedParam(name: string, context: RuleContext): boolean {
  const lower = name.toLowerCase();
  if (context.removeParamNames.has(lower)) return true;
  for (const prefix of context.removeParamPrefixes) if (lower.startsWith(prefix)) return true;
  return false;
}

/**
 * Keeps the query pairs `keep` accepts; returns true when it removed any. Scans `&` positions
 * without splitting until the first pair to remove is found (the common case removes none).
 */
function filterQuery(parts: UrlParts, keep: (pair: string) => boolean): boolean {
  const query = parts.query;
  if (query === null || query === '') return false;
  let start = 0;
  for (;;) {
    const end = query.indexOf('&', start);
    const pair = query.slice(start, end === -1 ? query.length : end);
    if (pair !== '' && !keep(pair)) break;
    if (end === -1) return false;
    start = end + 1;
  }
  // Once something is removed, empty `&&` pieces go too, so no stray `&` is left behind.
  parts.query = query
    .split('&')
    .filter((pair) => pair !== '' && keep(pair))
    .join('&');
  return true;
}

/**
 * Drops listed `;name=value` path parameters of the last segment: Java servlets put the session
 * id there (`/item;jsessionid=…`, Servlet 4.0 §7.1.3), so it is a listed variable too.
 */
function removePathParams(parts: UrlParts, context: RuleContext): boolean {
  if (parts.opaquePath) return false;
  const slash = parts.path.lastIndexOf('/');
  const semicolon = parts.path.indexOf(';', slash + 1);
  if (semicolon === -1) return false;
  const segment = parts.path.slice(semicolon + 1);
  const params = segment.split(';');
  const kept = params.filter((param) => param !== '' && !isRemovedParam(pairName(param), context));
  if (kept.length === params.length) return false;
  parts.path = parts.path.slice(0, semicolon) + kept.map((param) => `;${param}`).join('');
  return true;
}

const removeQueryParams: RuleFunction = (parts, context) => {
  const fromPath = removePathParams(parts, context);
  return filterQuery(parts, (pair) => !isRemovedParam(pairName(pair), context)) || fromPath;
};

const removeDefaultQueryParams: RuleFunction = (parts, context) => {
  if (context.defaultParams.size === 0) return false;
  return filterQuery(parts, (pair) => {
    const values = context.defaultParams.get(pairName(pair).toLowerCase());
    return values === undefined || !values.has(pairValue(pair));
  });
};

const sortQueryParams: RuleFunction = (parts) => {
  const query = parts.query;
  if (query === null || !query.includes('&')) return false;
  const pieces = query.split('&');
  const pairs = pieces.filter((pair) => pair !== '');
  let sorted = pairs.length === pieces.length;
  for (let i = 1; sorted && i < pairs.length; i++) if (comparePairs(pairs[i - 1]!, pairs[i]!) > 0) sorted = false;
  if (sorted) return false;
  pairs.sort(comparePairs);
  parts.query = pairs.join('&');
  return true;
};

const removeEmptyQuery: RuleFunction = (parts) => {
  if (parts.query !== '') return false;
  parts.query = null;
  return true;
};

const foldHttpsToHttp: RuleFunction = (parts) => {
  const scheme = parts.scheme.toLowerCase();
  if (scheme !== 'https' && scheme !== 'wss') return false;
  parts.scheme = scheme === 'https' ? 'http' : 'ws';
  return true;
};

const removeFileExtension: RuleFunction = (parts, context) => {
  if (parts.opaquePath) return false;
  const start = lastSegmentStart(parts.path);
  const dot = parts.path.lastIndexOf('.');
  if (dot <= start || !context.fileExtensions.has(parts.path.slice(dot + 1).toLowerCase())) return false;
  parts.path = parts.path.slice(0, dot);
  return true;
};

const removeTrailingSlash: RuleFunction = (parts) => {
  if (parts.opaquePath || parts.path.length < 2 || !parts.path.endsWith('/')) return false;
  parts.path = parts.path.slice(0, -1);
  return true;
};

/** The implementation of each rule. */
export const RULE_FUNCTIONS: Readonly<Record<NormalizationRuleName, RuleFunction>> = {
  lowercaseSchemeAndHost,
  lowercaseUrl,
  uppercasePercentEscapes: uppercaseEscapesRule,
  decodeUnreservedCharacters: decodeUnreservedRule,
  removeDefaultPort,
  removeDotSegments,
  addTrailingSlash,
  removeDirectoryIndex,
  removeFragment,
  removeWww,
  removeQueryParams,
  removeDefaultQueryParams,
  sortQueryParams,
  removeEmptyQuery,
  foldHttpsToHttp,
  removeFileExtension,
  removeTrailingSlash,
};

const WIKI = 'seed 002 (Wikipedia, URL normalization)';

/** What each rule does, an input → output example (from seed 002 where it has one) and its source. */
export const RULE_INFO: Readonly<Record<NormalizationRuleName, RuleInfo>> = {
  lowercaseSchemeAndHost: {
    summary: 'Lowercase the scheme and the host (they are case-insensitive); hosts of non-special schemes are opaque and keep their case.',
    example: { input: 'HTTP://www.Example.com/', output: 'http://www.example.com/' },
    source: `RFC 3986 §6.2.2.1; ${WIKI}`,
    semanticsPreserving: true,
  },
  lowercaseUrl: {
    summary: 'Lowercase the entire URL (for servers on case-insensitive file systems).',
    example: { input: 'http://www.example.com/BAR.html', output: 'http://www.example.com/bar.html' },
    source: WIKI,
    semanticsPreserving: false,
  },
  uppercasePercentEscapes: {
    summary: 'Uppercase the hex digits of percent-escapes.',
    example: { input: 'http://www.example.com/a%c2%b1b', output: 'http://www.example.com/a%C2%B1b' },
    source: `RFC 3986 §6.2.2.1; ${WIKI}`,
    semanticsPreserving: true,
  },
  decodeUnreservedCharacters: {
    summary: 'Decode percent-escapes of unreserved characters (letters, digits, - . _ ~).',
    example: { input: 'http://www.example.com/%7Euser/%41bc', output: 'http://www.example.com/~user/Abc' },
    source: 'RFC 3986 §6.2.2.2',
    semanticsPreserving: true,
  },
  removeDefaultPort: {
    summary: "Remove the port when it is the scheme's default (http 80, https 443, ws 80, wss 443, ftp 21).",
    example: { input: 'http://www.example.com:80/bar.html', output: 'http://www.example.com/bar.html' },
    source: `RFC 3986 §6.2.3; ${WIKI}`,
    semanticsPreserving: true,
  },
  removeDotSegments: {
    summary: 'Remove "." and ".." path segments.',
    example: { input: 'http://www.example.com/../a/b/../c/./d.html', output: 'http://www.example.com/a/c/d.html' },
    source: `RFC 3986 §6.2.2.3 and §5.2.4; ${WIKI}`,
    semanticsPreserving: true,
  },
  addTrailingSlash: {
    summary: 'Give an empty path the "/" it stands for (special schemes only).',
    example: { input: 'http://www.example.com', output: 'http://www.example.com/' },
    source: `RFC 3986 §6.2.3; ${WIKI}`,
    semanticsPreserving: true,
  },
  removeDirectoryIndex: {
    summary: 'Remove a directory index file name (index.html, default.asp, …) from the end of the path.',
    example: { input: 'http://www.example.com/a/index.html', output: 'http://www.example.com/a/' },
    source: WIKI,
    semanticsPreserving: false,
  },
  removeFragment: {
    summary: 'Remove the fragment (it is never sent to the server).',
    example: { input: 'http://www.example.com/bar.html#section1', output: 'http://www.example.com/bar.html' },
    source: WIKI,
    semanticsPreserving: false,
  },
  removeWww: {
    summary: 'Remove a leading "www." label (kept when the rest would be a single label).',
    example: { input: 'http://www.example.com/', output: 'http://example.com/' },
    source: `${WIKI}; seed 001`,
    semanticsPreserving: false,
  },
  removeQueryParams: {
    summary:
      'Remove listed query variables (tracking and session parameters by default; "name*" matches a prefix; names compare case-insensitively), and listed ";name=value" path parameters of the last segment (;jsessionid=).',
    example: { input: 'http://www.example.com/display?id=123&utm_source=mail', output: 'http://www.example.com/display?id=123' },
    source: `${WIKI} ("removing arbitrary querystring variables"); seed 001`,
    semanticsPreserving: false,
  },
  removeDefaultQueryParams: {
    summary: 'Remove query variables whose value is the listed default ("name=value" entries).',
    example: { input: 'http://www.example.com/display?id=&sort=ascending', output: 'http://www.example.com/display?' },
    source: WIKI,
    semanticsPreserving: false,
  },
  sortQueryParams: {
    summary: 'Sort query variables by name (then value); empty "&&" pieces are dropped.',
    example: { input: 'http://www.example.com/display?lang=en&article=fred', output: 'http://www.example.com/display?article=fred&lang=en' },
    source: WIKI,
    semanticsPreserving: false,
  },
  removeEmptyQuery: {
    summary: 'Remove the "?" when the query is empty.',
    example: { input: 'http://www.example.com/display?', output: 'http://www.example.com/display' },
    source: WIKI,
    semanticsPreserving: false,
  },
  foldHttpsToHttp: {
    summary: 'Fold https into http (and wss into ws): the same page is usually served on both.',
    example: { input: 'https://example.com/document', output: 'http://example.com/document' },
    source: 'seed 001 ("perceptual hash")',
    semanticsPreserving: false,
  },
  removeFileExtension: {
    summary: 'Strip a listed file extension (.html, .aspx, …) from the last path segment.',
    example: { input: 'http://example.com/document.html', output: 'http://example.com/document' },
    source: 'seed 001 ("perceptual hash")',
    semanticsPreserving: false,
  },
  removeTrailingSlash: {
    summary: 'Strip a trailing "/" from a non-root path.',
    example: { input: 'http://example.com/document/', output: 'http://example.com/document' },
    source: 'seed 001 ("perceptual hash")',
    semanticsPreserving: false,
  },
};
