/**
 * The scheduler's side of redirects as first-class results (see engine/fetch/redirects.ts for the
 * whole design): which link rules a redirect target passes, and how a seed's redirect widens the
 * crawl's scope. Pure helpers, no I/O.
 */
import type { LinkParts, LinkRuleName, LinkRules, LinkUnderTest } from './link-rules';
import type { ScopeSeeds } from './scope';

/**
 * The first link rule refusing a redirect target, or null when it enters the frontier. Seed 004's
 * rules that are about the target URL apply (protocol, URL length, ignored extensions, scope,
 * include / exclude domains, include / exclude URL patterns); the query-string rule, list mode
 * and nofollow (page or link) do not (they are about links in a page's content; a server's
 * redirect is not one: a listed URL's redirect is followed), and max-depth cannot refuse it (the
 * target keeps the redirecting URL's depth, already admitted).
 *
 * A seed's redirect chain (the redirecting URL is at depth 0: a seed or a seed's redirect target)
 * is not refused by scope: its target becomes a seed too (Heritrix's seedsRedirectNewSeeds), so
 * `http://a.test/` → `https://www.a.test/` crawls www.a.test under host scope. `seeds` is widened
 * with the target when (and only when) that is what lets it in.
 * @param rules the crawl's compiled link rules, reading `seeds` for the scope rule
 */
export function redirectRefusal(
  rules: LinkRules,
  seeds: ScopeSeeds,
  target: { url: string; parts: LinkParts; raw: string; registrableDomain: string | null },
  fromDepth: number,
): LinkRuleName | null {
  const link: LinkUnderTest = { url: target.parts, raw: target.raw, registrableDomain: target.registrableDomain, depth: fromDepth, pageNofollow: false, redirect: true };
  const rule = rules.test(link);
  if (rule !== 'scope' || fromDepth !== 0) return rule;
  const undo = addRedirectSeed(seeds, target.url, target.registrableDomain);
  const widened = rules.test(link);
  if (widened !== null) undo();
  return widened;
}

/**
 * Widens the scope with a seed's redirect target (see {@link redirectRefusal}): its host, its
 * registrable domain and its directory, as if it had been given as a seed.
 * @returns a function that takes back what this call added
 */
export function addRedirectSeed(seeds: ScopeSeeds, url: string, registrableDomain: string | null): () => void {
  const parsed = new URL(url);
  const hosts = seeds.hosts as Set<string>;
  const domains = seeds.domains as Set<string>;
  const directories = seeds.directories as string[];
  const host = parsed.hostname;
  const domain = registrableDomain ?? parsed.hostname;
  const directory = parsed.origin + parsed.pathname.slice(0, parsed.pathname.lastIndexOf('/') + 1);
  const added = { host: !hosts.has(host), domain: !domains.has(domain), directory: !directories.includes(directory) };
  hosts.add(host);
  domains.add(domain);
  if (added.directory) directories.push(directory);
  if (added.host || added.domain || added.directory) seeds.generation += 1;
  return () => {
    if (added.host) hosts.delete(host);
    if (added.domain) domains.delete(domain);
    if (added.directory) directories.splice(directories.indexOf(directory), 1);
    if (added.host || added.domain || added.directory) seeds.generation += 1;
  };
}
