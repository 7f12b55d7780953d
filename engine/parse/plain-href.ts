/**
 * Link resolution without the URL parser for the hrefs most pages are made of: a root-relative
 * path (`/docs/a.html`) or an absolute http(s) URL with a plain host (`https://example.test/a`),
 * in characters the WHATWG URL parser keeps as written. For those, `new URL(href, base).href` is
 * the base's origin and the href, or the href itself: no percent-encoding applies (the path
 * percent-encode set, WHATWG URL §1.3), no dot segment is removed (§4.4 path state), no host is
 * mapped (lowercase ASCII letters, digits and hyphens pass UTS #46 unchanged, §3.5 host parsing).
 * Anything else (a relative path, a query, a fragment, a `%`, a `\`, a port, an IPv4-looking or
 * `xn--` host, whitespace) returns null and goes to the parser. Agreement with the platform's
 * parser is tested on the WPT URL test data and on random hrefs (plain-href.test.ts).
 *
 * Why: one `new URL` per link (and its `href` and `protocol` getters) was about 5% of a crawl
 * worker's time on the synthetic site, whose pages are about a hundred links each.
 */

/** Path characters kept as written (not in the path percent-encode set; not `%`, `\`, `?`, `#`), plus `/`. */
const PATH_KEPT = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/") PATH_KEPT[char.charCodeAt(0)] = 1;

/** Host characters that pass host parsing unchanged when lowercase: a-z, 0-9, `-` (and `.` between labels). */
const HOST_LABEL = new Uint8Array(128);
for (const char of 'abcdefghijklmnopqrstuvwxyz0123456789-') HOST_LABEL[char.charCodeAt(0)] = 1;

const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * True when `text` from `start` is a path of kept characters with no `.` or `..` segment (which
 * the parser would remove).
 */
function plainPath(text: string, start: number): boolean {
  let segmentStart = start;
  for (let i = start; i <= text.length; i += 1) {
    const code = i === text.length ? SLASH : text.charCodeAt(i);
    if (code >= 128 || PATH_KEPT[code] === 0) return false;
    if (code !== SLASH) continue;
    const length = i - segmentStart;
    if ((length === 1 && text.charCodeAt(segmentStart) === DOT) || (length === 2 && text.charCodeAt(segmentStart) === DOT && text.charCodeAt(segmentStart + 1) === DOT)) return false;
    segmentStart = i + 1;
  }
  return true;
}

/**
 * True when `text[start, end)` is a host the parser keeps as written: dot-separated non-empty
 * labels of a-z, 0-9 and `-`, none starting `xn--` (punycode, validated by the parser), the last
 * starting with a letter (a last label of digits, or `0x…`, makes the parser read an IPv4 address).
 */
function plainHost(text: string, start: number, end: number): boolean {
  let labelStart = start;
  for (let i = start; i <= end; i += 1) {
    const code = i === end ? DOT : text.charCodeAt(i);
    if (code !== DOT) {
      if (code >= 128 || HOST_LABEL[code] === 0) return false;
      continue;
    }
    if (i === labelStart || text.startsWith('xn--', labelStart)) return false;
    if (i === end) {
      const lastFirst = text.charCodeAt(labelStart);
      return lastFirst >= 0x61 && lastFirst <= 0x7a;
    }
    labelStart = i + 1;
  }
  return false;
}

/**
 * The origin part of an http(s) base URL as the parser serializes it (`scheme://[userinfo@]host[:port]`),
 * which a root-relative href is appended to; null for any other base, or one that does not parse.
 * The base is parsed once (a page's URL may be a seed as the user typed it).
 * @example basePrefix('HTTP://A.test:80/x/y?q') → 'http://a.test'
 */
export function basePrefix(base: string): string | null {
  let href: string;
  try {
    href = new URL(base).href;
  } catch {
    return null;
  }
  const authority = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1;
  if (authority === -1) return null;
  const pathStart = href.indexOf('/', authority);
  return pathStart === -1 ? null : href.slice(0, pathStart);
}

/**
 * `new URL(href, base).href` for a plain href (see the module comment), given the base's
 * {@link basePrefix}; null when the href is not plain and needs the parser.
 * @example resolvePlainHref('/p/2', 'http://a.test') → 'http://a.test/p/2'
 * @example resolvePlainHref('https://b.test', 'http://a.test') → 'https://b.test/'
 * @example resolvePlainHref('../x', 'http://a.test') → null
 */
export function resolvePlainHref(href: string, prefix: string | null): string | null {
  const first = href.charCodeAt(0);
  if (first === SLASH) {
    const second = href.charCodeAt(1);
    // `//host` is scheme-relative, and `/\` reads as `//` in a special URL.
    if (prefix === null || second === SLASH || second === 0x5c) return null;
    return plainPath(href, 0) ? prefix + href : null;
  }
  const authority = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1;
  if (authority === -1) return null;
  let hostEnd = href.indexOf('/', authority);
  if (hostEnd === -1) hostEnd = href.length;
  if (!plainHost(href, authority, hostEnd)) return null;
  if (hostEnd === href.length) return `${href}/`;
  return plainPath(href, hostEnd) ? href : null;
}
