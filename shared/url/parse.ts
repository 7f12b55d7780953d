/**
 * Splits a URL string into components without normalizing them, so that each normalization rule
 * (rules.ts) visibly does its own work and can be switched off. The splitter follows the WHATWG
 * URL Standard wherever the standard decides what a component *is*: leading/trailing C0 controls
 * and spaces are trimmed, tabs and newlines removed, `\` is a path separator in special schemes,
 * slashes after `http:` are optional, the last `@` ends the userinfo, ports are decimal numbers
 * up to 65535, and each component is percent-encoded with its WHATWG percent-encode set. Hosts
 * that are not plain ASCII names (IDNA, IPv4 in numeric forms, IPv6, percent-escapes) go through
 * the platform WHATWG host parser, which also yields punycode (ASCII) hosts. `file:` URLs are
 * parsed whole by the WHATWG parser (their host and drive-letter rules are their own).
 */
import { EncodeSet, percentEncode } from './percent';
import { err, ok, type Result } from './result';
import { parseWhatwg, type WhatwgUrl } from './whatwg-url';

/** A URL split into components (all strings percent-encoded as in the serialization). */
export interface UrlParts {
  /** Scheme as written (case kept until a rule lowercases it), without the `:`. */
  scheme: string;
  /** True for the WHATWG special schemes handled here: http, https, ws, wss, ftp, file. */
  special: boolean;
  /** True when the URL has an authority (`//host`). Always true for special schemes. */
  hasAuthority: boolean;
  /** `user` or `user:password` (percent-encoded), or '' for none. */
  userinfo: string;
  /** Host: ASCII for special schemes (punycode for IDNs), opaque text for others. */
  host: string;
  /** Port as a decimal string without leading zeros, or '' for none. */
  port: string;
  /** Path: '' or starting with `/`, or an opaque path such as `mailto:` has. */
  path: string;
  /** True for a path that is not a list of segments (`mailto:x`, `urn:a:b`). */
  opaquePath: boolean;
  /** Query without the `?`; null when there is no `?` at all, '' for a bare `?`. */
  query: string | null;
  /** Fragment without the `#`; null when there is no `#`. */
  fragment: string | null;
  /**
   * Optional shortcut: true when scheme and host are known to hold no ASCII uppercase letter
   * (the fast parser sees this for free). Rules never make it untrue; undefined means unknown.
   */
  schemeAndHostLowercase?: boolean;
  /**
   * Optional shortcut: true when the URL is known to hold no `%` at all (the fast parser sees
   * this for free). No rule adds a `%`; undefined means unknown.
   */
  noPercent?: boolean;
}

/** Default ports of the special schemes (RFC 3986 §6.2.3 scheme-based normalization). */
export const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443', ws: '80', wss: '443', ftp: '21' };

const SPECIAL_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);

/** WHATWG forbidden host code points (opaque hosts of non-special schemes must avoid them). */
const FORBIDDEN_HOST = new Set([0, 9, 10, 13, 32, 35, 47, 58, 60, 62, 63, 64, 91, 92, 93, 94, 124]);

function isSchemeChar(code: number, first: boolean): boolean {
  const alpha = (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  if (first) return alpha;
  return alpha || (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46;
}

/** Trims C0 controls and spaces at both ends and removes tabs and newlines (WHATWG basic URL parser). */
function cleanInput(input: string): string {
  let start = 0;
  let end = input.length;
  while (start < end && input.charCodeAt(start) <= 0x20) start++;
  while (end > start && input.charCodeAt(end - 1) <= 0x20) end--;
  let text = start === 0 && end === input.length ? input : input.slice(start, end);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 9 || code === 10 || code === 13) {
      let out = text.slice(0, i);
      for (let j = i + 1; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (c !== 9 && c !== 10 && c !== 13) out += text[j]!;
      }
      text = out;
      break;
    }
  }
  return text;
}

/** True when a host is a plain ASCII name the WHATWG host parser would only lowercase. */
function isPlainAsciiHost(host: string): boolean {
  let labelStart = 0;
  let lastLabelStart = 0;
  for (let i = 0; i < host.length; i++) {
    const code = host.charCodeAt(i);
    if (code === 46) {
      if (i + 1 < host.length) lastLabelStart = i + 1;
      labelStart = i + 1;
      continue;
    }
    const plain = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 95;
    if (!plain) return false;
    // "xn--" labels must be validated as punycode by the IDNA step.
    if (i === labelStart + 3 && code === 45 && host.charCodeAt(i - 1) === 45) {
      const n = host.charCodeAt(labelStart + 1) | 0x20;
      const x = host.charCodeAt(labelStart) | 0x20;
      if (x === 120 && n === 110) return false;
    }
  }
  // A last label that looks like a number makes the host an IPv4 address (WHATWG "ends in a number").
  const first = host.charCodeAt(lastLabelStart);
  return !(first >= 48 && first <= 57);
}

function parseSpecialHost(raw: string): Result<string> {
  if (raw === '') return err('INVALID_HOST', 'The URL has an empty host');
  if (isPlainAsciiHost(raw)) return ok(raw);
  const parsed = parseWhatwg('http://' + raw + '/');
  if (parsed === null || parsed.hostname === '') return err('INVALID_HOST', `Invalid host "${raw}"`);
  return ok(parsed.hostname);
}

function parseOpaqueHost(raw: string): Result<string> {
  if (raw.startsWith('[')) {
    const parsed = parseWhatwg('http://' + raw + '/');
    return parsed === null ? err('INVALID_HOST', `Invalid IPv6 host "${raw}"`) : ok(parsed.hostname);
  }
  for (let i = 0; i < raw.length; i++) {
    if (FORBIDDEN_HOST.has(raw.charCodeAt(i))) return err('INVALID_HOST', `Host "${raw}" contains a forbidden character`);
  }
  return ok(percentEncode(raw, EncodeSet.c0Control));
}

function parsePort(raw: string): Result<string> {
  if (raw === '') return ok('');
  let value = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 48 || code > 57) return err('INVALID_PORT', `Port "${raw}" is not a number`);
    value = value * 10 + (code - 48);
    if (value > 65535) return err('INVALID_PORT', `Port "${raw}" is out of range (0-65535)`);
  }
  return ok(String(value));
}

function encodeUserinfo(raw: string): string {
  const colon = raw.indexOf(':');
  const username = percentEncode(colon === -1 ? raw : raw.slice(0, colon), EncodeSet.userinfo);
  const password = colon === -1 ? '' : percentEncode(raw.slice(colon + 1), EncodeSet.userinfo);
  if (username === '' && password === '') return '';
  return password === '' ? username : username + ':' + password;
}

/** Components taken from a WHATWG URL record (used for `file:`). */
function fromWhatwg(url: WhatwgUrl, scheme: string): UrlParts {
  const href = url.href;
  const hashIndex = href.indexOf('#');
  const beforeHash = hashIndex === -1 ? href : href.slice(0, hashIndex);
  const userinfo = url.username === '' && url.password === '' ? '' : url.password === '' ? url.username : url.username + ':' + url.password;
  return {
    scheme,
    special: true,
    hasAuthority: true,
    userinfo,
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    opaquePath: false,
    query: url.search !== '' ? url.search.slice(1) : beforeHash.endsWith('?') ? '' : null,
    fragment: hashIndex === -1 ? null : href.slice(hashIndex + 1),
  };
}

/**
 * Code units that may appear anywhere in a URL the fast path accepts: printable ASCII that no
 * WHATWG percent-encode set of path, query or fragment holds, and that needs no special parsing
 * (no `\`). Anything else sends the URL through the general path below.
 */
const FAST_SAFE = (() => {
  const table = new Uint8Array(128);
  for (let code = 0x21; code < 0x7f; code++) table[code] = 1;
  for (const char of '"<>`{}\'\\^|') table[char.charCodeAt(0)] = 0;
  return table;
})();

/**
 * The fast path of {@link parseUrlParts} for the usual `http(s)://host[:port]/path?query#fragment`
 * written in plain ASCII: one scan, no encoding work, no Result wrapper.
 * @returns the parts, or null when the URL needs the general path (not an error)
 * @example parseUrlPartsFast('http://a.test/x?y') → { scheme: 'http', host: 'a.test', path: '/x', query: 'y', … }
 * @example parseUrlPartsFast('http://a.test/ä') → null
 */
export function parseUrlPartsFast(text: string): UrlParts | null {
  const length = text.length;
  let colon = 0;
  while (colon < length && isSchemeChar(text.charCodeAt(colon), colon === 0)) colon++;
  if (colon === 0 || colon + 2 >= length || text.charCodeAt(colon) !== 58 || text.charCodeAt(colon + 1) !== 47 || text.charCodeAt(colon + 2) !== 47) return null;
  const scheme = text.slice(0, colon);
  const lower = colon === 4 || colon === 5 || colon === 2 || colon === 3 ? scheme.toLowerCase() : '';
  if (lower !== 'http' && lower !== 'https' && lower !== 'ws' && lower !== 'wss' && lower !== 'ftp') return null;
  const hostStart = colon + 3;
  let i = hostStart;
  let hostEnd = -1;
  let upper = lower !== scheme;
  for (; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === 47 || code === 63 || code === 35) break;
    if (code === 58) {
      if (hostEnd !== -1) return null;
      hostEnd = i;
      continue;
    }
    if (hostEnd === -1) {
      if (code >= 65 && code <= 90) upper = true;
      else if (!((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 95)) return null;
    } else if (code < 48 || code > 57) {
      return null;
    }
  }
  const authorityEnd = i;
  if (hostEnd === -1) hostEnd = authorityEnd;
  const host = text.slice(hostStart, hostEnd);
  if (host === '' || !isPlainAsciiHost(host)) return null;
  let port = '';
  if (hostEnd < authorityEnd) {
    const portText = text.slice(hostEnd + 1, authorityEnd);
    if (portText.length > 5 || (portText.length > 1 && portText.charCodeAt(0) === 48)) return null;
    if (portText !== '' && Number(portText) > 65535) return null;
    port = portText;
  }
  let queryStart = -1;
  let fragmentStart = -1;
  let percent = false;
  for (; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || FAST_SAFE[code] === 0) return null;
    if (code === 37) {
      percent = true;
    } else if (code === 63) {
      if (queryStart === -1 && fragmentStart === -1) queryStart = i;
    } else if (code === 35 && fragmentStart === -1) {
      fragmentStart = i;
    }
  }
  const pathEnd = queryStart !== -1 ? queryStart : fragmentStart !== -1 ? fragmentStart : length;
  return {
    scheme,
    special: true,
    hasAuthority: true,
    userinfo: '',
    host,
    port,
    path: text.slice(authorityEnd, pathEnd),
    opaquePath: false,
    query: queryStart === -1 ? null : text.slice(queryStart + 1, fragmentStart === -1 ? length : fragmentStart),
    fragment: fragmentStart === -1 ? null : text.slice(fragmentStart + 1),
    schemeAndHostLowercase: !upper,
    noPercent: !percent,
  };
}

/**
 * Splits an absolute URL into {@link UrlParts}, keeping case, ports, dot-segments and escapes as
 * written (only WHATWG-mandated encoding and host parsing is applied).
 * @returns the parts, or an error: MISSING_SCHEME (not an absolute URL), INVALID_HOST,
 *   INVALID_PORT, INVALID_URL
 * @example parseUrlParts('HTTP://Example.COM:80/a/../b?q#f') → { scheme: 'HTTP', host: 'Example.COM', port: '80', path: '/a/../b', query: 'q', fragment: 'f', … }
 */
export function parseUrlParts(input: string): Result<UrlParts> {
  const fast = parseUrlPartsFast(input);
  if (fast !== null) return ok(fast);
  const text = cleanInput(input);
  let colon = 0;
  while (colon < text.length && isSchemeChar(text.charCodeAt(colon), colon === 0)) colon++;
  if (colon === 0 || colon >= text.length || text.charCodeAt(colon) !== 58) {
    return err('MISSING_SCHEME', `Not an absolute URL (no scheme): "${input}"`);
  }
  const scheme = text.slice(0, colon);
  const schemeLower = scheme.toLowerCase();
  const special = SPECIAL_SCHEMES.has(schemeLower);
  if (schemeLower === 'file') {
    const url = parseWhatwg(text);
    return url === null ? err('INVALID_URL', `Not a valid file URL: "${input}"`) : ok(fromWhatwg(url, scheme));
  }

  let index = colon + 1;
  let hasAuthority = false;
  let userinfo = '';
  let host = '';
  let port = '';
  if (special) {
    while (index < text.length && (text.charCodeAt(index) === 47 || text.charCodeAt(index) === 92)) index++;
    hasAuthority = true;
  } else if (text.startsWith('//', index)) {
    index += 2;
    hasAuthority = true;
  }
  if (hasAuthority) {
    let end = index;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (code === 47 || code === 63 || code === 35 || (special && code === 92)) break;
    }
    const authority = text.slice(index, end);
    index = end;
    const at = authority.lastIndexOf('@');
    if (at !== -1) userinfo = encodeUserinfo(authority.slice(0, at));
    const hostPort = at === -1 ? authority : authority.slice(at + 1);
    let hostEnd: number;
    if (hostPort.startsWith('[')) {
      hostEnd = hostPort.indexOf(']') + 1;
      if (hostEnd === 0) return err('INVALID_HOST', `Unclosed IPv6 host in "${input}"`);
      if (hostEnd < hostPort.length && hostPort.charCodeAt(hostEnd) !== 58) return err('INVALID_HOST', `Invalid host in "${input}"`);
    } else {
      hostEnd = hostPort.indexOf(':');
      if (hostEnd === -1) hostEnd = hostPort.length;
    }
    const portResult = parsePort(hostPort.slice(hostEnd + 1));
    if (!portResult.ok) return portResult;
    port = portResult.value;
    const hostResult = special ? parseSpecialHost(hostPort.slice(0, hostEnd)) : parseOpaqueHost(hostPort.slice(0, hostEnd));
    if (!hostResult.ok) return hostResult;
    host = hostResult.value;
    if (host === '' && (userinfo !== '' || port !== '')) return err('INVALID_HOST', `Credentials or port without a host in "${input}"`);
  }

  let pathEnd = index;
  while (pathEnd < text.length && text.charCodeAt(pathEnd) !== 63 && text.charCodeAt(pathEnd) !== 35) pathEnd++;
  let path = text.slice(index, pathEnd);
  if (special && path.includes('\\')) path = path.replaceAll('\\', '/');
  const opaquePath = !hasAuthority && !path.startsWith('/');
  path = percentEncode(path, opaquePath ? EncodeSet.c0Control : EncodeSet.path);

  let query: string | null = null;
  let fragment: string | null = null;
  let rest = pathEnd;
  if (rest < text.length && text.charCodeAt(rest) === 63) {
    let queryEnd = text.indexOf('#', rest + 1);
    if (queryEnd === -1) queryEnd = text.length;
    query = percentEncode(text.slice(rest + 1, queryEnd), special ? EncodeSet.specialQuery : EncodeSet.query);
    rest = queryEnd;
  }
  if (rest < text.length) fragment = percentEncode(text.slice(rest + 1), EncodeSet.fragment);
  return ok({ scheme, special, hasAuthority, userinfo, host, port, path, opaquePath, query, fragment });
}

/**
 * Serializes {@link UrlParts} back to a URL string (the inverse of {@link parseUrlParts}).
 * @example serializeUrlParts({ scheme: 'http', hasAuthority: true, host: 'a', port: '', path: '/b', query: null, fragment: 'f', … }) → 'http://a/b#f'
 */
export function serializeUrlParts(parts: UrlParts): string {
  // Pieces joined once: a flat string, where `+=` would leave a tree of V8 cons strings (about 46
  // heap bytes more per URL) in every cache that keeps a normalized URL.
  const out: string[] = [parts.scheme, ':'];
  if (parts.hasAuthority) {
    out.push('//');
    if (parts.userinfo !== '') out.push(parts.userinfo, '@');
    out.push(parts.host);
    if (parts.port !== '') out.push(':', parts.port);
  } else if (parts.path.startsWith('//')) {
    // Without "/." a path starting with "//" would read back as an authority (WHATWG serializer).
    out.push('/.');
  }
  out.push(parts.path);
  if (parts.query !== null) out.push('?', parts.query);
  if (parts.fragment !== null) out.push('#', parts.fragment);
  return out.join('');
}
