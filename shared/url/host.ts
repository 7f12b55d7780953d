/**
 * Finding the host in "a host or a URL" input for the domain resolver, fast: no full URL parse
 * for the usual `scheme://host/…` shape, the WHATWG host parser only for hosts with unusual
 * characters (percent-escapes, IPv6, uppercase non-ASCII is merely lowercased).
 */
import { parseWhatwg } from './whatwg-url';

/** What a host is: a domain name, an IP address, or nothing usable. */
export type HostKind = 'domain' | 'ipv4' | 'ipv6' | 'invalid';

/** A host found in the input: lowercase, without port, userinfo or one trailing dot. */
export interface ExtractedHost {
  host: string;
  kind: HostKind;
  /** Why the host is invalid (kind `invalid`). */
  problem?: string;
}

function schemeEnd(text: string): number {
  let i = 0;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i) | 0x20;
    // `| 0x20` lowercases letters and leaves digits, '+', '-' and '.' as they are.
    const ok = (code >= 97 && code <= 122) || (i > 0 && ((code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46));
    if (!ok) break;
  }
  return i > 0 && text.startsWith('://', i) ? i + 3 : -1;
}

function isPlainHostCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 95 || code >= 0x80;
}

function classify(host: string): HostKind {
  if (host.startsWith('[')) return 'ipv6';
  const first = host.charCodeAt(host.lastIndexOf('.') + 1);
  if (!(first >= 48 && first <= 57)) return 'domain';
  // WHATWG: a host whose last label is numeric must be an IPv4 address; the parser has already
  // turned any valid one into dotted decimal, so anything else is not a usable host.
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ? 'ipv4' : 'invalid';
}

/**
 * The lowercase host of `scheme://host[:port]/…` or a bare `host[:port]` when that host is plain
 * ASCII (letters, digits, `-`, `.`, `_`) and has no userinfo or trailing dot: the resolver's cache
 * key, found in one scan without allocating more than the host itself. Null means "ask
 * {@link extractHost}" (not "invalid").
 * @example fastHost('https://Docs.Python.org:443/3/') → 'docs.python.org'
 * @example fastHost('http://user@a.test/') → null
 */
export function fastHost(input: string): string | null {
  const length = input.length;
  let start = 0;
  const colon = input.indexOf('://');
  if (colon !== -1 && colon < 40) start = colon + 3;
  let upper = false;
  let end = start;
  for (; end < length; end++) {
    const code = input.charCodeAt(end);
    if (code === 47 || code === 63 || code === 35 || code === 58) break;
    if (code >= 97 && code <= 122) continue;
    if (code >= 65 && code <= 90) upper = true;
    else if (!((code >= 48 && code <= 57) || code === 45 || code === 46 || code === 95)) return null;
  }
  if (end === start || input.charCodeAt(end - 1) === 46) return null;
  if (end < length && input.charCodeAt(end) === 58) {
    // A port: digits up to the end of the authority; anything else goes the slow way.
    let i = end + 1;
    while (i < length && input.charCodeAt(i) >= 48 && input.charCodeAt(i) <= 57) i++;
    if (i < length && input.charCodeAt(i) !== 47 && input.charCodeAt(i) !== 63 && input.charCodeAt(i) !== 35) return null;
  }
  const host = input.slice(start, end);
  return upper ? host.toLowerCase() : host;
}

/**
 * Extracts the host from a bare host (`Example.COM`, `example.com:8080`) or an absolute URL
 * (`https://user@www.example.com:8443/path`).
 * @example extractHost('https://user@WWW.Example.com.:8443/x') → { host: 'www.example.com', kind: 'domain' }
 * @example extractHost('http://[::1]:80/') → { host: '[::1]', kind: 'ipv6' }
 */
export function extractHost(hostOrUrl: string): ExtractedHost {
  const text = hostOrUrl.trim();
  const start = schemeEnd(text);
  let end = start === -1 ? 0 : start;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (code === 47 || code === 63 || code === 35 || code === 92) break;
  }
  let authority = text.slice(start === -1 ? 0 : start, end);
  if (start === -1) {
    // "mailto:x@y" is a URL without a host, not host "y"; "example.com:8080" is host and port.
    const colon = authority.indexOf(':');
    if (colon > 0 && authority.indexOf(':', colon + 1) === -1 && !/^\d*$/.test(authority.slice(colon + 1)) && /^[a-z][a-z0-9+.-]*$/i.test(authority.slice(0, colon))) {
      return { host: '', kind: 'invalid', problem: `"${text}" is a URL without a host` };
    }
  }
  const at = authority.lastIndexOf('@');
  if (at !== -1) authority = authority.slice(at + 1);
  let raw: string;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    raw = close === -1 ? authority : authority.slice(0, close + 1);
  } else {
    const colon = authority.indexOf(':');
    if (colon === -1) raw = authority;
    // Several colons and no brackets: a bare IPv6 address ("::1"), not host:port.
    else if (authority.indexOf(':', colon + 1) !== -1) raw = '[' + authority + ']';
    else raw = authority.slice(0, colon);
  }
  if (raw === '') return { host: '', kind: 'invalid', problem: 'no host found' };
  let host = raw.toLowerCase();
  for (let i = 0; i < host.length; i++) {
    if (!isPlainHostCode(host.charCodeAt(i))) {
      const parsed = parseWhatwg('http://' + raw + '/');
      if (parsed === null || parsed.hostname === '') return { host, kind: 'invalid', problem: `"${raw}" is not a valid host` };
      host = parsed.hostname;
      break;
    }
  }
  if (host.endsWith('.') && host.length > 1) host = host.slice(0, -1);
  let kind = classify(host);
  if (kind === 'invalid') {
    // Numeric forms such as "3279880203" or "0x7f.1" are IPv4 addresses to the WHATWG parser.
    const parsed = parseWhatwg('http://' + host + '/');
    if (parsed !== null) {
      host = parsed.hostname;
      kind = classify(host);
    }
  }
  return kind === 'invalid' ? { host, kind, problem: `"${host}" ends in a number but is not an IPv4 address` } : { host, kind };
}
