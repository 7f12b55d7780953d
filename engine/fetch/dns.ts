/** The crawler's own resolver: host overrides (`--resolve`), closed mode, and a byte-bounded cache of DNS answers. */
import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import type { HostOverride } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import { hostOverrideMatcher } from '../../shared/url/host-override';
import { BoundedCache } from '../dedupe/seen-cache';

/** Where to connect for one host: an IP address and, when the override gives one, a port. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
  /** Port to connect to instead of the URL's, from an override like `host=127.0.0.1:8080`. */
  port?: number;
}

/** A lookup function with the shape of `dns.promises.lookup(host)` (injected in tests). */
export type LookupFunction = (hostname: string) => Promise<{ address: string; family: number }>;

export interface HostResolverOptions {
  /**
   * Hosts to connect to a given address: exact (`site.test`) or every host under a suffix
   * (`*.site.test`); an exact entry wins, then the longest suffix (shared/url hostOverrideMatcher).
   */
  overrides?: readonly HostOverride[];
  /** Refuse every host not in `overrides` without asking DNS (tests, benchmarks, sandboxes). */
  closed?: boolean;
  /** How long a successful system lookup is reused. @default 300_000 (5 min) */
  cacheTtlMs?: number;
  lookup?: LookupFunction;
  now?: () => number;
}

/** Hosts whose answer is cached at most, and their estimated bytes (host names up to a URL's length). */
const DNS_CACHE = { maxEntries: 10_000, maxBytes: 4 * 1024 * 1024 } as const;

/**
 * The crawler's DNS resolution module (IIR 20.2.2): an override map consulted first (like curl's
 * `--resolve` or /etc/hosts; `*.suffix` entries map every host under a suffix), a closed mode in which unmapped hosts are refused and never looked up,
 * and a TTL cache in front of the system resolver. Failures are per-URL errors, never crashes.
 */
export class HostResolver {
  /** The override of a host (exact, else the longest wildcard suffix), or null. */
  private readonly overrideOf: (hostname: string) => HostOverride | null;
  private readonly closed: boolean;
  private readonly cacheTtlMs: number;
  private readonly lookup: LookupFunction;
  private readonly now: () => number;
  /** Answers by host, bounded (hosts come from pages): an evicted host is looked up again. */
  private readonly cache = new BoundedCache<{ value: ResolvedAddress; expiresAtMs: number }>(DNS_CACHE);

  constructor(options: HostResolverOptions = {}) {
    this.overrideOf = hostOverrideMatcher(options.overrides ?? []);
    this.closed = options.closed ?? false;
    this.cacheTtlMs = options.cacheTtlMs ?? 300_000;
    this.lookup = options.lookup ?? ((hostname) => dnsLookup(hostname));
    this.now = options.now ?? Date.now;
  }

  /**
   * Resolves a URL hostname (as `URL.hostname` gives it: lowercase, IPv6 in brackets).
   * @throws CodedError HOST_NOT_MAPPED in closed mode for a host outside the map;
   *         DNS_FAILED when the system resolver fails.
   */
  async resolve(hostname: string): Promise<ResolvedAddress> {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
    const override = this.overrideOf(host);
    if (override) {
      const family = net.isIPv6(override.address) ? 6 : 4;
      return override.port === undefined
        ? { address: override.address, family }
        : { address: override.address, family, port: override.port };
    }
    if (this.closed) {
      throw new CodedError('HOST_NOT_MAPPED', `Host ${host} is not in the resolver map (closed mode): not looked up`);
    }
    const ipFamily = net.isIP(host);
    if (ipFamily !== 0) return { address: host, family: ipFamily === 6 ? 6 : 4 };
    const cached = this.cache.get(host);
    if (cached && cached.expiresAtMs > this.now()) return cached.value;
    try {
      const answer = await this.lookup(host);
      const value: ResolvedAddress = { address: answer.address, family: answer.family === 6 ? 6 : 4 };
      this.cache.set(host, { value, expiresAtMs: this.now() + this.cacheTtlMs });
      return value;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CodedError('DNS_FAILED', `Cannot resolve ${host}: ${reason}`);
    }
  }
}

/** `--resolve` parsing lives in shared/url/host-override.ts (one parser for the CLI, the app and the form). */
export { parseHostOverride } from '../../shared/url/host-override';
