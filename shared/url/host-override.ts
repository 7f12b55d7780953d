import type { HostOverride } from '../types/crawl';
import { CodedError, type Result } from '../types/result';
import { parseWhatwg } from './whatwg-url';

/**
 * The one parser of `host=address[:port]`, the resolver override of `--resolve` (crawl, resume,
 * serve, the Electron app), the "Host overrides" field of the crawl form and the IPC settings
 * (like curl's `--resolve` and an /etc/hosts line). Runs in main and the renderer (no Node).
 */

/** IPv4 in dotted decimal, each part 0-255 without a leading zero (as Node's net.isIPv4). */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

/** `host=address[:port]`: a host without `=` or whitespace; an IPv6 address in brackets. */
const OVERRIDE = /^([^=\s]+)=(\[[0-9a-fA-F:.]+\]|[^:\s[\]]+)(?::(\d{1,5}))?$/;

/** A host name an override may name: 1-253 characters, no `=` or whitespace. */
export const OVERRIDE_HOST = /^[^=\s]{1,253}$/;

/** `*.` then a suffix of at least one label, with no other `*`: the one wildcard shape. */
const WILDCARD_HOST = /^\*\.[^*.=\s][^*=\s]*$/;

/**
 * Why `host` cannot be an override's host, or null when it can: an exact host (1-253 characters
 * without `=` or whitespace, no `*`), or a wildcard `*.suffix` where `*` is the whole first label.
 * The one check behind the `--resolve` parser, the form and the settings schema.
 * @example overrideHostProblem('*.example.test') → null
 * @example overrideHostProblem('a.*.test') → '"*" may only be the whole first label, as in *.example.test'
 */
export function overrideHostProblem(host: string): string | null {
  if (!OVERRIDE_HOST.test(host)) return 'a host of 1-253 characters without "=" or spaces';
  if (host.includes('*') && !WILDCARD_HOST.test(host)) return '"*" may only be the whole first label, as in *.example.test';
  return null;
}

/** Lowercase, IPv6 brackets dropped: the form hosts are matched in (URL.hostname brackets IPv6). */
function matchableHost(host: string): string {
  const lower = host.toLowerCase();
  const opens = lower.charCodeAt(0) === 0x5b; // [
  const closes = lower.charCodeAt(lower.length - 1) === 0x5d; // ]
  return opens || closes ? lower.slice(opens ? 1 : 0, closes ? -1 : undefined) : lower;
}

/**
 * Hosts a matcher remembers its answer for (it is asked once per link and per fetch, mostly for
 * the same few hosts); past this many it forgets them all and starts again.
 */
const MATCHED_HOSTS_KEPT = 4096;

/**
 * Compiles overrides into the one matcher the resolver and the `host-not-mapped` link rule share.
 * An exact entry wins over any wildcard; among wildcards the longest suffix wins; `*.example.test`
 * maps every host under example.test, at any depth, but not example.test itself. Cost per host:
 * one exact probe plus one probe per label.
 * @returns host → its override, or null when none maps it
 * @example hostOverrideMatcher([{ host: '*.example.test', address: '127.0.0.1', port: 8080 }])('a.b.example.test') → { host: '*.example.test', address: '127.0.0.1', port: 8080 }
 * @example hostOverrideMatcher([{ host: '*.example.test', address: '127.0.0.1' }])('example.test') → null
 */
export function hostOverrideMatcher(overrides: readonly HostOverride[]): (hostname: string) => HostOverride | null {
  return hostPatternMatcher(overrides);
}

/**
 * {@link hostOverrideMatcher}'s matching for any entries keyed by a host pattern (an exact host or
 * `*.suffix`; request rules use it too): exact first, then the longest wildcard suffix; the last
 * entry of a repeated pattern wins.
 */
export function hostPatternMatcher<T extends { host: string }>(entries: readonly T[]): (hostname: string) => T | null {
  const exact = new Map<string, T>();
  const bySuffix = new Map<string, T>();
  for (const entry of entries) {
    const host = matchableHost(entry.host);
    if (host.startsWith('*.')) bySuffix.set(host.slice(2), entry);
    else exact.set(host, entry);
  }
  const match = (hostname: string): T | null => {
    const host = matchableHost(hostname);
    const found = exact.get(host);
    if (found) return found;
    if (bySuffix.size === 0) return null;
    // Suffixes from the longest (drop the first label) to the shortest.
    for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
      const wildcard = bySuffix.get(host.slice(dot + 1));
      if (wildcard) return wildcard;
    }
    return null;
  };
  if (bySuffix.size === 0) return match;
  const matched = new Map<string, T | null>();
  return (hostname) => {
    let entry = matched.get(hostname);
    if (entry === undefined) {
      entry = match(hostname);
      if (matched.size >= MATCHED_HOSTS_KEPT) matched.clear();
      matched.set(hostname, entry);
    }
    return entry;
  };
}

/**
 * True when `text` is an IP address the resolver can connect to: IPv4 dotted decimal or IPv6
 * (RFC 4291 text form, no brackets, no zone).
 * @example isIpAddress('127.0.0.1') // true
 * @example isIpAddress('::1') // true
 * @example isIpAddress('256.1.1.1') // false
 * @example isIpAddress('example.com') // false
 */
export function isIpAddress(text: string): boolean {
  if (IPV4.test(text)) return true;
  // The WHATWG host parser is the IPv6 parser both ends share (no Node `net` in the renderer).
  return /^[0-9a-fA-F:.]+$/.test(text) && text.includes(':') && parseWhatwg(`http://[${text}]/`) !== null;
}

/**
 * Reads one override, `host=address[:port]` (surrounding whitespace ignored; the host lowercased;
 * an IPv6 address in brackets, which are dropped). The host may be a wildcard `*.suffix` (see
 * {@link hostOverrideMatcher}).
 * @returns the override, or INVALID_RESOLVE with a message quoting the value:
 *   `"x" is not host=address[:port]`, `"x": port must be 1-65535` or
 *   `"a.*.test=…": "*" may only be the whole first label, as in *.example.test`
 * @example readHostOverride('Docs.Python.Test=127.0.0.1:8080') // ok: { host: 'docs.python.test', address: '127.0.0.1', port: 8080 }
 * @example readHostOverride('a.test=[::1]:81') // ok: { host: 'a.test', address: '::1', port: 81 }
 * @example readHostOverride('*.site.test=127.0.0.1:8080') // ok: { host: '*.site.test', address: '127.0.0.1', port: 8080 }
 * @example readHostOverride('a.test=example.com') // error: '"a.test=example.com" is not host=address[:port]'
 */
export function readHostOverride(text: string): Result<HostOverride> {
  const value = text.trim();
  const invalid = (message: string): Result<HostOverride> => ({ ok: false, error: { code: 'INVALID_RESOLVE', message } });
  const match = OVERRIDE.exec(value);
  const address = match?.[2]!.replace(/^\[|\]$/g, '');
  if (!match || address === undefined || !isIpAddress(address) || !OVERRIDE_HOST.test(match[1]!)) return invalid(`"${value}" is not host=address[:port]`);
  const host = match[1]!.toLowerCase();
  const problem = overrideHostProblem(host);
  if (problem !== null) return invalid(`"${value}": ${problem}`);
  if (match[3] === undefined) return { ok: true, value: { host, address } };
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return invalid(`"${value}": port must be 1-65535`);
  return { ok: true, value: { host, address, port } };
}

/**
 * Parses one `--resolve` value (see {@link readHostOverride}).
 * @example parseHostOverride('docs.python.test=127.0.0.1:8080') // { host: 'docs.python.test', address: '127.0.0.1', port: 8080 }
 * @example parseHostOverride('a.test=[::1]:81') // { host: 'a.test', address: '::1', port: 81 }
 * @throws CodedError INVALID_RESOLVE (`Invalid --resolve "x" is not host=address[:port] …`) when the value does not have that shape
 */
export function parseHostOverride(value: string): HostOverride {
  const read = readHostOverride(value);
  if (!read.ok) throw new CodedError('INVALID_RESOLVE', `Invalid --resolve ${read.error.message}: expected host=address[:port] or *.suffix=address[:port], e.g. docs.python.test=127.0.0.1:8080`);
  return read.value;
}
