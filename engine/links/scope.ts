/** Crawl scope: the seeds' hosts, registrable domains and directories, and whether a URL is inside them. */
import type { CrawlScope } from '../../shared/types/crawl';

/** The seeds' hosts, registrable domains and directories a scope test compares a link against. */
export interface ScopeSeeds {
  hosts: ReadonlySet<string>;
  domains: ReadonlySet<string>;
  /** `origin + directory path` of each seed, ending in '/' (seed 004's "Index Entire Site"). */
  directories: readonly string[];
  /**
   * Counts the changes to the sets (a seed's redirect widening the scope, or that taken back:
   * redirects.ts addRedirectSeed): a scope verdict kept from an earlier count may be stale.
   */
  generation: number;
}

/**
 * Builds the comparison sets of a scope from the seed URLs: each host looked up once, each
 * directory kept once (a URL list of 100,000 seeds has far fewer hosts and directories).
 * @param domainOf registrable domain of a host (seed 000 / PSL), null when it has none
 */
export function scopeSeeds(seeds: readonly string[], domainOf: (host: string) => string | null): ScopeSeeds {
  const hosts = new Set<string>();
  const domains = new Set<string>();
  const directories = new Set<string>();
  for (const seed of seeds) {
    const url = new URL(seed);
    if (!hosts.has(url.hostname)) {
      hosts.add(url.hostname);
      domains.add(domainOf(url.hostname) ?? url.hostname);
    }
    directories.add(url.origin + url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1));
  }
  return { hosts, domains, directories: [...directories], generation: 0 };
}

/**
 * True when a link stays inside the crawl's scope.
 * @example inScope('directory', new URL('http://a.test/docs/x.html'), null, seedsOf(['http://a.test/docs/'])) // true
 */
export function inScope(scope: CrawlScope, url: { hostname: string; origin: string; pathname: string }, registrableDomain: string | null, seeds: ScopeSeeds): boolean {
  switch (scope) {
    case 'any':
      return true;
    case 'host':
      return seeds.hosts.has(url.hostname);
    case 'domain':
      return seeds.domains.has(registrableDomain ?? url.hostname);
    case 'directory': {
      const href = url.origin + url.pathname;
      return seeds.directories.some((directory) => href.startsWith(directory));
    }
    default: {
      const exhaustive: never = scope;
      throw new Error(`Unknown scope ${String(exhaustive)}`);
    }
  }
}
