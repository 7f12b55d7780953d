/** A URL's identity in a crawl (normalized string, normalized key, host, registrable domain), from a normalizer and a domain function. */
import type { Result } from '../../shared/types/result';
import { linkParts } from './link-rules';
import { BoundedCache } from '../dedupe/seen-cache';

/** Hosts whose registrable domain is remembered at most, and their estimated bytes. */
const DOMAIN_CACHE = { maxEntries: 100_000, maxBytes: 16 * 1024 * 1024 } as const;

/** What the identifier remembers of a host: the host string every identity of it shares, and its registrable domain. */
interface HostFacts {
  host: string;
  registrableDomain: string | null;
}

/** The names one URL goes by in the crawl (seed 001): raw, normalized string, normalized key. */
export interface UrlIdentity {
  /** The raw URL (absolute, as resolved from the href). */
  url: string;
  normalized: string;
  /** UUIDv5 of `normalized`: the URL-seen test's key. */
  normalizedKey: string;
  host: string;
  registrableDomain: string | null;
}

/** Normalizes a raw URL under the crawl's profile (shared/url). */
export type NormalizeFunction = (raw: string) => Result<{ normalized: string; key: string }>;

/** Registrable domain of a host (seed 000 algorithm or PSL), null for hosts that have none. */
export type DomainFunction = (host: string) => string | null;

/**
 * Computes a URL's identity: normalized string and key from the profile, host and registrable
 * domain (cached per host: a crawl meets few hosts and many URLs). Identities of one host share
 * one `host` string while the host is cached (a cached link target holds its identity: a string
 * of its own per URL was about 32 bytes of each target's 512).
 * @returns the identity, or an error (code from the normalizer, e.g. INVALID_URL)
 */
export function createUrlIdentifier(normalize: NormalizeFunction, domainOf: DomainFunction): (raw: string) => Result<UrlIdentity> {
  const hosts = new BoundedCache<HostFacts>({ ...DOMAIN_CACHE, sizeOf: (host, facts) => 2 * host.length + 2 * (facts.registrableDomain?.length ?? 0) + 144 });
  return (raw) => {
    const normalized = normalize(raw);
    if (!normalized.ok) return normalized;
    // Raw URLs reach here serialized by the WHATWG parser (worker, seed validation): split, don't re-parse.
    const hostname = linkParts(raw).hostname;
    if (hostname === '') return { ok: false, error: { code: 'INVALID_URL', message: `No host in ${raw}` } };
    let facts = hosts.get(hostname);
    if (facts === undefined) {
      facts = { host: hostname, registrableDomain: domainOf(hostname) };
      hosts.set(hostname, facts);
    }
    return { ok: true, value: { url: raw, normalized: normalized.value.normalized, normalizedKey: normalized.value.key, host: facts.host, registrableDomain: facts.registrableDomain } };
  };
}
