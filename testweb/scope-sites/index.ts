/**
 * The scope fixture hosts of issue 12 together (list mode and URL patterns, sitemaps, crawler
 * traps, DUST pairs, versioned docs), so `crawlbench testweb` serves them beside the fixture web
 * and a user can try each feature by hand. Each topic's own tests start only its own hosts.
 */
import type { DynamicRoutes } from '../fixture-server';
import type { Handler } from '../fixture-sites';
import { DUST_SITES, dustRoute } from './dust';
import { RULES_SITES } from './rules';
import { SITEMAPS_SITES } from './sitemaps';
import { TRAPS_SITES, trapsRoute } from './traps';
import { VERSIONS_SITES } from './versions';

const TOPICS: readonly Record<string, Record<string, Handler>>[] = [RULES_SITES, SITEMAPS_SITES, TRAPS_SITES, DUST_SITES, VERSIONS_SITES];

/**
 * Every scope fixture host and its routes.
 * @throws Error at import when two topics name the same host (one would hide the other)
 */
export const SCOPE_SITES: Record<string, Record<string, Handler>> = (() => {
  const sites: Record<string, Record<string, Handler>> = {};
  for (const topic of TOPICS) {
    for (const [host, routes] of Object.entries(topic)) {
      if (Object.hasOwn(sites, host)) throw new Error(`Scope fixture host ${host} is defined by two topics`);
      sites[host] = routes;
    }
  }
  return sites;
})();

/** The scope hosts' variable routes (trap calendars and facets, DUST stories). */
export const scopeRoute: DynamicRoutes = (host, path) => trapsRoute(host, path) ?? dustRoute(host, path);
