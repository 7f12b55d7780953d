/**
 * Canonical URLs (seed 001): "the URL I've chosen as its primary address". Layers, in order:
 * 1. redirects: a crawled URL that redirected stands for its final destination;
 * 2. site rules: structure-aware rewrites (site-rules.ts);
 * 3. rel=canonical: the page's `<link rel="canonical">` or HTTP `Link: <…>; rel="canonical"`,
 *    accepted only on the same registrable domain (a page may not claim another site's URL);
 * 4. otherwise the raw URL (or the redirect destination).
 * For a group of raw URLs sharing a normalized key, {@link chooseGroupCanonical} picks the best
 * member; {@link differenceCauses} says why a raw URL differs from its normalized form.
 */
import type { DomainResult } from './domain';
import { parseLinkHeader } from './link-header';
import { normalizeUrl } from './normalize';
import { PROFILES, type NormalizationProfile } from './profiles';
import type { Result } from './result';
import type { NormalizationRuleName, RuleFiring } from './rules';
import { resolveHref } from './resolve';
import { applySiteRules, type CompiledSiteRules } from './site-rules';
import { carriesSessionOrTracking } from './tracking-params';

/** What is known about one raw URL when choosing its canonical URL. */
export interface CanonicalInput {
  rawUrl: string;
  /** Redirect targets in the order they were followed (Location values, relative allowed). */
  redirects?: readonly string[];
  /** `href` of the page's `<link rel="canonical">`, as written (resolved against the final URL). */
  relCanonical?: string | null;
  /** The response's `Link` header value, if any. */
  linkHeader?: string | null;
}

/** The layer that decided a canonical URL. */
export type CanonicalLayer = 'redirect' | 'siteRule' | 'relCanonical' | 'raw';

/** One layer's outcome, for the GUI. */
export interface CanonicalStep {
  layer: CanonicalLayer;
  url: string;
  applied: boolean;
  note: string;
}

/** A canonical URL and how it was found. */
export interface CanonicalResult {
  canonical: string;
  decidedBy: CanonicalLayer;
  steps: CanonicalStep[];
  /** The site rule that rewrote the URL, when `decidedBy` is `siteRule`. */
  siteRuleId?: string;
}

/** What {@link canonicalUrl} needs besides the URL's own data. */
export interface CanonicalContext {
  siteRules: CompiledSiteRules;
  /** A registrable-domain resolver (createDomainResolver), for the same-domain check. */
  domainOf: (hostOrUrl: string) => DomainResult;
}

function relCanonicalCandidates(input: CanonicalInput, current: string): { url: string; from: string }[] {
  const candidates: { url: string; from: string }[] = [];
  if (input.relCanonical) {
    const resolved = resolveHref(input.relCanonical.trim(), current);
    if (resolved.ok) candidates.push({ url: resolved.value, from: '<link rel="canonical">' });
  }
  if (input.linkHeader) {
    for (const link of parseLinkHeader(input.linkHeader)) {
      if (!link.rels.includes('canonical')) continue;
      const resolved = resolveHref(link.target, current);
      if (resolved.ok) candidates.push({ url: resolved.value, from: 'Link header' });
    }
  }
  return candidates;
}

/**
 * The canonical URL of one raw URL through seed 001's layers (see the file comment).
 * @returns the canonical URL, the deciding layer and every layer's outcome
 * @example canonicalUrl({ rawUrl: 'https://stackoverflow.com/a/1732454', redirects: ['https://stackoverflow.com/questions/1732348/regex-match/1732454#1732454'] }, context) → { canonical: 'https://stackoverflow.com/questions/1732348', decidedBy: 'siteRule', … }
 * @example canonicalUrl({ rawUrl: 'http://a.test/p?x=1', relCanonical: '/p' }, context) → { canonical: 'http://a.test/p', decidedBy: 'relCanonical', … }
 */
export function canonicalUrl(input: CanonicalInput, context: CanonicalContext): CanonicalResult {
  const steps: CanonicalStep[] = [];
  let current = input.rawUrl;
  let redirected = false;
  for (const location of input.redirects ?? []) {
    const next = resolveHref(location, current);
    if (!next.ok) break;
    current = next.value;
    redirected = true;
  }
  steps.push({
    layer: 'redirect',
    url: current,
    applied: redirected,
    note: redirected ? `Redirected (${input.redirects?.length ?? 0} hop(s)) to the final destination` : 'No recorded redirect',
  });

  const rewrite = applySiteRules(current, context.siteRules);
  steps.push({
    layer: 'siteRule',
    url: rewrite?.url ?? current,
    applied: rewrite !== null,
    note: rewrite === null ? 'No site rule matches' : `Site rule "${rewrite.ruleId}" rewrote the URL`,
  });
  if (rewrite !== null) return { canonical: rewrite.url, decidedBy: 'siteRule', steps, siteRuleId: rewrite.ruleId };

  const site = context.domainOf(current).site;
  for (const candidate of relCanonicalCandidates(input, current)) {
    const sameSite = /^https?:/i.test(candidate.url) && context.domainOf(candidate.url).site === site;
    steps.push({
      layer: 'relCanonical',
      url: candidate.url,
      applied: sameSite,
      note: sameSite ? `${candidate.from} names it` : `${candidate.from} points outside ${site}: ignored`,
    });
    if (sameSite) return { canonical: candidate.url, decidedBy: 'relCanonical', steps };
  }

  const layer: CanonicalLayer = redirected ? 'redirect' : 'raw';
  steps.push({ layer: 'raw', url: current, applied: !redirected, note: redirected ? 'The redirect destination stands' : 'The raw URL stands' });
  return { canonical: current, decidedBy: layer, steps };
}

/** One raw URL of a normalized-key group. */
export interface GroupMember {
  rawUrl: string;
  /** HTTP status when fetched. */
  status?: number;
  /** The member page's rel=canonical target (absolute, or relative to `rawUrl`). */
  relCanonical?: string | null;
}

/**
 * The heuristics {@link chooseGroupCanonical} applies, in order: no session or tracking parameter
 * (tracking-params.ts, the profile's own list), fetched with status 200, https, named by a
 * member's rel=canonical, no query, shortest path (+ query); then the lexicographically smallest
 * URL as a deterministic tie-break.
 *
 * `noSessionOrTracking` comes first, before the fetch status and the scheme (issue 12 part 8: the
 * heuristic never picks such a variant when a clean one exists). The members share a normalized
 * key because the profile holds those parameters meaningless, so a canonical URL that carries
 * one would only spread the session id or the campaign to everyone who follows it:
 * - a clean spelling beats a tracked one even when the tracked one was the spelling fetched
 *   (with 200) and the clean one answered 404: the status belongs to the server's handling of a
 *   spelling, not to the page, and the 404 is a fault to fix on the site;
 * - a clean `http:` spelling beats a tracked `https:` one (the scheme is weighed among the clean
 *   spellings only; a site that serves both will redirect one of them, and the redirect layer
 *   decides before any heuristic).
 * When every member carries one, the step keeps them all and the next heuristics decide.
 */
export const GROUP_HEURISTICS = ['noSessionOrTracking', 'fetchedOk', 'https', 'matchesRelCanonical', 'noQuery', 'shorterPath', 'lexicographic'] as const;

/** The heuristic that decided a group's canonical (or `onlyMember`). */
export type GroupHeuristic = (typeof GROUP_HEURISTICS)[number] | 'onlyMember';

/** A group's chosen canonical URL, the deciding heuristic, and who each heuristic kept. */
export interface GroupCanonical {
  canonical: string;
  decidedBy: GroupHeuristic;
  steps: { heuristic: GroupHeuristic; kept: string[] }[];
}

function pathAndQueryLength(url: string): number {
  const schemeEnd = url.indexOf('://');
  const pathStart = schemeEnd === -1 ? 0 : url.indexOf('/', schemeEnd + 3);
  if (pathStart === -1) return 0;
  const hash = url.indexOf('#', pathStart);
  return (hash === -1 ? url.length : hash) - pathStart;
}

/**
 * Chooses the best raw URL of a group (seed 001: "heuristics to choose the 'best' raw URL to use
 * as a canonical URL for the group") by {@link GROUP_HEURISTICS}: each heuristic keeps the
 * members that satisfy it (when some but not all do); the one that leaves a single member decides.
 * @param profile the crawl's normalization profile: its `removeQueryParams` list says which
 *   parameters are tracking or session ones @default PROFILES.standard
 * @throws RangeError when `members` is empty
 * @example chooseGroupCanonical([{ rawUrl: 'http://a.test/x', status: 200 }, { rawUrl: 'https://a.test/x', status: 200 }]) → { canonical: 'https://a.test/x', decidedBy: 'https', … }
 * @example chooseGroupCanonical([{ rawUrl: 'https://a.test/x?sessionid=9', status: 200 }, { rawUrl: 'http://a.test/x' }]) → { canonical: 'http://a.test/x', decidedBy: 'noSessionOrTracking', … }
 */
export function chooseGroupCanonical(members: readonly GroupMember[], profile: NormalizationProfile = PROFILES.standard): GroupCanonical {
  if (members.length === 0) throw new RangeError('chooseGroupCanonical needs at least one member');
  const byUrl = new Map<string, GroupMember>();
  for (const member of members) if (!byUrl.has(member.rawUrl)) byUrl.set(member.rawUrl, member);
  let candidates = [...byUrl.values()];
  if (candidates.length === 1) return { canonical: candidates[0]!.rawUrl, decidedBy: 'onlyMember', steps: [] };

  const named = new Set<string>();
  for (const member of members) {
    if (!member.relCanonical) continue;
    const resolved = resolveHref(member.relCanonical, member.rawUrl);
    if (resolved.ok) named.add(resolved.value);
  }
  const tests: Record<Exclude<GroupHeuristic, 'onlyMember' | 'shorterPath' | 'lexicographic'>, (member: GroupMember) => boolean> = {
    noSessionOrTracking: (member) => !carriesSessionOrTracking(member.rawUrl, profile),
    fetchedOk: (member) => member.status === 200,
    https: (member) => /^https:/i.test(member.rawUrl),
    matchesRelCanonical: (member) => named.has(member.rawUrl),
    noQuery: (member) => !member.rawUrl.includes('?'),
  };
  const steps: GroupCanonical['steps'] = [];
  for (const heuristic of GROUP_HEURISTICS) {
    let kept: GroupMember[];
    if (heuristic === 'shorterPath') {
      const shortest = Math.min(...candidates.map((member) => pathAndQueryLength(member.rawUrl)));
      kept = candidates.filter((member) => pathAndQueryLength(member.rawUrl) === shortest);
    } else if (heuristic === 'lexicographic') {
      kept = [candidates.reduce((best, member) => (member.rawUrl < best.rawUrl ? member : best))];
    } else {
      kept = candidates.filter(tests[heuristic]);
    }
    if (kept.length === 0 || kept.length === candidates.length) continue;
    candidates = kept;
    steps.push({ heuristic, kept: kept.map((member) => member.rawUrl) });
    if (candidates.length === 1) return { canonical: candidates[0]!.rawUrl, decidedBy: heuristic, steps };
  }
  // Only reachable when members are all equal under every heuristic, which dedup rules out.
  return { canonical: candidates[0]!.rawUrl, decidedBy: 'lexicographic', steps };
}

/** Why a raw URL differs from its group's normalized form (one label per kind of difference). */
export type DifferenceCause =
  | 'case'
  | 'encoding'
  | 'default port'
  | 'dot segments'
  | 'trailing slash'
  | 'directory index'
  | 'fragment'
  | 'www'
  | 'tracking parameter'
  | 'default parameter'
  | 'query order'
  | 'empty query'
  | 'scheme'
  | 'extension';

/** The cause label each rule's firing stands for. */
export const RULE_CAUSES: Readonly<Record<NormalizationRuleName, DifferenceCause>> = {
  lowercaseSchemeAndHost: 'case',
  lowercaseUrl: 'case',
  uppercasePercentEscapes: 'encoding',
  decodeUnreservedCharacters: 'encoding',
  removeDefaultPort: 'default port',
  removeDotSegments: 'dot segments',
  addTrailingSlash: 'trailing slash',
  removeDirectoryIndex: 'directory index',
  removeFragment: 'fragment',
  removeWww: 'www',
  removeQueryParams: 'tracking parameter',
  removeDefaultQueryParams: 'default parameter',
  sortQueryParams: 'query order',
  removeEmptyQuery: 'empty query',
  foldHttpsToHttp: 'scheme',
  removeFileExtension: 'extension',
  removeTrailingSlash: 'trailing slash',
};

/** A raw URL's normalized form and the labelled reasons it differs from it. */
export interface DifferenceReport {
  normalized: string;
  key: string;
  /** Distinct causes in rule order; empty when the raw URL already is its normalized form. */
  causes: DifferenceCause[];
  rules: RuleFiring[];
}

/**
 * Labels why a raw URL differs from its normalized form (derived from the rules that fired).
 * @returns the report, or the normalizer's error for input that is not a URL
 * @example differenceCauses('https://www.example.com/document.html', PROFILES.aggressive) → ok({ normalized: 'http://example.com/document', causes: ['www', 'scheme', 'extension'], … })
 */
export function differenceCauses(rawUrl: string, profile: NormalizationProfile): Result<DifferenceReport> {
  const result = normalizeUrl(rawUrl, profile, { explain: true });
  if (!result.ok) return result;
  const rules = result.value.rules ?? [];
  const causes = [...new Set(rules.map((firing) => RULE_CAUSES[firing.rule]))];
  return { ok: true, value: { normalized: result.value.normalized, key: result.value.key, causes, rules } };
}
