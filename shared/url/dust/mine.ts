/**
 * DUST rule mining from a crawl's fetched pages (seed 002: "normalization based on URL lists";
 * DustBuster, Bar-Yossef, Keidar, Schonfeld 2007). Where DustBuster guesses duplicates from a URL
 * list and document sizes, a crawl knows: pages with one content identity (an exact fingerprint or
 * one near-duplicate group) form a bucket, and every pair of a bucket's URLs on one host is a rule
 * instance (align.ts). Then, as in the paper:
 * 1. support: a candidate's support is the number of distinct buckets giving an instance (one
 *    article with three copies counts once); buckets over `maxBucketUrls` are skipped, as the
 *    paper skips large buckets (boilerplate, soft-404 pages pair unrelated URLs);
 * 2. direction: each instance points from the URL seed 001's group heuristics reject to the one
 *    they keep (no query, shorter path …), and the candidate takes its instances' majority;
 * 3. validation: the rule is applied to every fetched URL of its host it matches (both ways); a
 *    result that is a fetched URL with the same content confirms it, one with other content refutes
 *    it. Confidence = confirmed / (confirmed + refuted); over-general rules fail here.
 * Parameter rules come from pages that differ only by one query parameter: a bucket of such pages
 * with one content supports "the parameter never changes content", one with several refutes it.
 * Work is bounded by the caps in {@link DustMiningOptions}; the result says when a cap was met.
 */
import { chooseGroupCanonical } from '../canonical';
import { alignmentRule } from './align';
import { applyDustRule, describeDustRule, dustRuleKey, splitUrl, type DustRule, type SubstitutionRule } from './rule';

/** One fetched page: its URL and its content identity (pages with the same one are duplicates). */
export interface DustPage {
  url: string;
  /** Exact fingerprint, or a near-duplicate group's id: equal ids mean "same content". */
  contentId: string;
}

/** Thresholds and caps of {@link mineDustRules}. */
export interface DustMiningOptions {
  /** Distinct buckets a rule needs. @default 3 */
  minSupport?: number;
  /** confirmed / (confirmed + refuted) a rule needs. @default 0.9 */
  minConfidence?: number;
  /** Buckets with more distinct URLs are skipped (boilerplate). @default 16 */
  maxBucketUrls?: number;
  /** URL pairs aligned at most. @default 50000 */
  maxPairs?: number;
  /** Candidate rules kept for validation at most (the best supported). @default 500 */
  maxCandidates?: number;
  /** URLs each candidate is applied to at most, per direction. @default 5000 */
  maxValidationUrls?: number;
  /** Fetched URLs of the host looked at per candidate and direction at most (most do not match). @default 100000 */
  maxValidationScan?: number;
  /** Example pairs kept per rule. @default 3 */
  maxExamples?: number;
  /**
   * The URL-seen identity of a URL (the crawl's normalized key), so a rewritten URL finds the page
   * fetched under another spelling; null when it cannot be normalized. @default the URL itself
   */
  identity?: (url: string) => string | null;
}

/** One example of a rule: a fetched URL and the fetched URL the rule rewrites it to, same content. */
export interface DustExample {
  from: string;
  to: string;
}

/** A proposed rule with its evidence. */
export interface DustProposal {
  rule: DustRule;
  /** describeDustRule(rule). */
  description: string;
  /** Distinct buckets (contents) with an instance of the rule. */
  support: number;
  /** Applications on fetched URLs that land on a fetched URL with the same content. */
  confirmed: number;
  /** Applications that land on a fetched URL with other content. */
  refuted: number;
  /** confirmed / (confirmed + refuted), 0 when neither. */
  confidence: number;
  examples: DustExample[];
}

/** What the mining looked at, and which caps it met. */
export interface DustMiningStats {
  pages: number;
  /** Buckets of two or more distinct URLs. */
  buckets: number;
  bucketsSkipped: number;
  pairs: number;
  pairsCapped: boolean;
  candidates: number;
  candidatesCapped: boolean;
}

export interface DustMiningResult {
  proposals: DustProposal[];
  stats: DustMiningStats;
}

interface Candidate {
  rule: SubstitutionRule;
  buckets: Set<string>;
}

const DEFAULTS = { minSupport: 3, minConfidence: 0.9, maxBucketUrls: 16, maxPairs: 50_000, maxCandidates: 500, maxValidationUrls: 5000, maxValidationScan: 100_000, maxExamples: 3 } as const;

const pathOf = (pathAndQuery: string): string => {
  const question = pathAndQuery.indexOf('?');
  return question === -1 ? pathAndQuery : pathAndQuery.slice(0, question);
};

/** The same rule read the other way. */
function reversed(rule: SubstitutionRule): SubstitutionRule {
  return { ...rule, from: rule.to, to: rule.from };
}

/** Orients an instance from the URL seed 001's heuristics reject to the one they keep. */
function oriented(a: string, b: string): [string, string] {
  const keep = chooseGroupCanonical([
    { rawUrl: a, status: 200 },
    { rawUrl: b, status: 200 },
  ]).canonical;
  return keep === a ? [b, a] : [a, b];
}

/** Substitution candidates from bucket pairs, with their supporting buckets. */
function substitutionCandidates(buckets: Map<string, string[]>, limits: Required<Omit<DustMiningOptions, 'identity'>>, stats: DustMiningStats): Candidate[] {
  const candidates = new Map<string, Candidate & { forward: number; backward: number }>();
  outer: for (const [contentId, urls] of buckets) {
    for (let i = 0; i < urls.length; i++) {
      for (let j = i + 1; j < urls.length; j++) {
        if (stats.pairs >= limits.maxPairs) {
          stats.pairsCapped = true;
          break outer;
        }
        stats.pairs++;
        const [from, to] = oriented(urls[i]!, urls[j]!);
        const fromParts = splitUrl(from);
        const toParts = splitUrl(to);
        // Pages one query parameter apart are the parameter miner's.
        if (fromParts === null || toParts === null || pathOf(fromParts.pathAndQuery) === pathOf(toParts.pathAndQuery)) continue;
        const rule = alignmentRule(from, to);
        if (rule === null) continue;
        const forwardKey = dustRuleKey(rule);
        const backwardKey = dustRuleKey(reversed(rule));
        const existing = candidates.get(forwardKey) ?? candidates.get(backwardKey);
        if (existing !== undefined) {
          existing.buckets.add(contentId);
          if (dustRuleKey(existing.rule) === forwardKey) existing.forward++;
          else existing.backward++;
        } else {
          candidates.set(forwardKey, { rule, buckets: new Set([contentId]), forward: 1, backward: 0 });
        }
      }
    }
  }
  const all = [...candidates.values()].filter((candidate) => candidate.buckets.size >= limits.minSupport);
  stats.candidates = all.length;
  all.sort((x, y) => y.buckets.size - x.buckets.size);
  if (all.length > limits.maxCandidates) stats.candidatesCapped = true;
  // The majority of instances sets the direction.
  return all.slice(0, limits.maxCandidates).map((candidate) => ({ rule: candidate.backward > candidate.forward ? reversed(candidate.rule) : candidate.rule, buckets: candidate.buckets }));
}

/** Applies a rule to fetched URLs of its host (both directions); counts confirmations and refutations. */
function validate(
  rule: SubstitutionRule,
  byHost: Map<string, DustPage[]>,
  contentOf: Map<string, string>,
  identity: (url: string) => string | null,
  limits: { maxValidationUrls: number; maxValidationScan: number; maxExamples: number },
): { confirmed: number; refuted: number; examples: DustExample[] } {
  let confirmed = 0;
  let refuted = 0;
  const examples: DustExample[] = [];
  for (const direction of [rule, reversed(rule)]) {
    let tried = 0;
    let scanned = 0;
    const piece = direction.from[0]!;
    for (const page of byHost.get(rule.host) ?? []) {
      if (tried >= limits.maxValidationUrls || scanned >= limits.maxValidationScan) break;
      scanned++;
      // Most URLs lack the rule's first piece: skip them before parsing.
      if (!page.url.includes(piece)) continue;
      const rewritten = applyDustRule(page.url, direction);
      if (rewritten === null) continue;
      tried++;
      const key = identity(rewritten);
      const other = key === null ? undefined : contentOf.get(key);
      if (other === undefined) continue;
      if (other === page.contentId) {
        confirmed++;
        if (direction === rule && examples.length < limits.maxExamples) examples.push({ from: page.url, to: rewritten });
      } else {
        refuted++;
      }
    }
  }
  return { confirmed, refuted, examples };
}

/** Removes parameter `name` from a query string's pairs; null when absent. */
function withoutParameter(url: string, name: string): string | null {
  return applyDustRule(url, { kind: 'parameter', host: splitUrl(url)?.host ?? '', name });
}

/** Parameter rules: buckets of URLs one parameter apart; one content supports, several refute. */
function parameterProposals(pages: readonly DustPage[], identity: (url: string) => string | null, contentOf: Map<string, string>, limits: Required<Omit<DustMiningOptions, 'identity'>>): DustProposal[] {
  // (host, name) → stripped URL → contents of the URLs that strip to it.
  const groups = new Map<string, { host: string; name: string; byStripped: Map<string, { urls: string[]; contents: Set<string> }> }>();
  for (const page of pages) {
    const parts = splitUrl(page.url);
    if (parts === null) continue;
    const question = parts.pathAndQuery.indexOf('?');
    if (question === -1) continue;
    const names = new Set(
      parts.pathAndQuery
        .slice(question + 1)
        .split('&')
        .filter((pair) => pair !== '')
        .map((pair) => pair.split('=')[0]!),
    );
    for (const name of names) {
      const stripped = withoutParameter(page.url, name);
      if (stripped === null) continue;
      const groupKey = `${parts.host}\u0000${name}`;
      let group = groups.get(groupKey);
      if (group === undefined) {
        group = { host: parts.host, name, byStripped: new Map() };
        groups.set(groupKey, group);
      }
      let bucket = group.byStripped.get(stripped);
      if (bucket === undefined) {
        bucket = { urls: [], contents: new Set() };
        // The URL without the parameter, when fetched, is one more member.
        const key = identity(stripped);
        const content = key === null ? undefined : contentOf.get(key);
        if (content !== undefined) {
          bucket.urls.push(stripped);
          bucket.contents.add(content);
        }
        group.byStripped.set(stripped, bucket);
      }
      if (bucket.urls.length < limits.maxBucketUrls) bucket.urls.push(page.url);
      bucket.contents.add(page.contentId);
    }
  }
  const proposals: DustProposal[] = [];
  for (const group of groups.values()) {
    let support = 0;
    let refuted = 0;
    const examples: DustExample[] = [];
    for (const [stripped, bucket] of group.byStripped) {
      if (bucket.urls.length < 2) continue;
      if (bucket.contents.size === 1) {
        support++;
        const variant = bucket.urls.find((url) => url !== stripped);
        if (variant !== undefined && examples.length < limits.maxExamples) examples.push({ from: variant, to: stripped });
      } else {
        refuted++;
      }
    }
    const confidence = support + refuted === 0 ? 0 : support / (support + refuted);
    if (support < limits.minSupport || confidence < limits.minConfidence) continue;
    const rule: DustRule = { kind: 'parameter', host: group.host, name: group.name };
    proposals.push({ rule, description: describeDustRule(rule), support, confirmed: support, refuted, confidence, examples });
  }
  return proposals;
}

/**
 * Mines DUST rules from a crawl's fetched pages (see the file comment for the method).
 * @param pages fetched pages with their content identity (order: discovery order, for stable examples)
 * @returns proposals, best supported first, and what was looked at (with the caps met)
 * @example mineDustRules(pages of news.test with /story?id=N and /story_N.html for N = 1..5) → { proposals: [{ description: 'news.test: /story?id={v}$ → /story_{v}.html$', support: 5, confirmed: 10, refuted: 0, … }], … }
 */
export function mineDustRules(pages: readonly DustPage[], options: DustMiningOptions = {}): DustMiningResult {
  const limits = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([name, value]) => name !== 'identity' && value !== undefined)) } as Required<Omit<DustMiningOptions, 'identity'>>;
  const identity = options.identity ?? ((url: string) => url);
  const stats: DustMiningStats = { pages: pages.length, buckets: 0, bucketsSkipped: 0, pairs: 0, pairsCapped: false, candidates: 0, candidatesCapped: false };
  const contentOf = new Map<string, string>();
  const byHost = new Map<string, DustPage[]>();
  // content id → host → distinct URLs; a bucket is one content on one host.
  const buckets = new Map<string, string[]>();
  for (const page of pages) {
    const key = identity(page.url);
    if (key !== null && !contentOf.has(key)) contentOf.set(key, page.contentId);
    const host = splitUrl(page.url)?.host;
    if (host === undefined) continue;
    let list = byHost.get(host);
    if (list === undefined) byHost.set(host, (list = []));
    list.push(page);
    const bucketKey = `${page.contentId}\u0000${host}`;
    const urls = buckets.get(bucketKey);
    if (urls === undefined) buckets.set(bucketKey, [page.url]);
    else if (!urls.includes(page.url)) urls.push(page.url);
  }
  const pairBuckets = new Map<string, string[]>();
  for (const [key, urls] of buckets) {
    if (urls.length < 2) continue;
    stats.buckets++;
    if (urls.length > limits.maxBucketUrls) stats.bucketsSkipped++;
    else pairBuckets.set(key, urls);
  }
  const proposals: DustProposal[] = [];
  for (const candidate of substitutionCandidates(pairBuckets, limits, stats)) {
    const checked = validate(candidate.rule, byHost, contentOf, identity, limits);
    const confidence = checked.confirmed + checked.refuted === 0 ? 0 : checked.confirmed / (checked.confirmed + checked.refuted);
    if (confidence < limits.minConfidence) continue;
    proposals.push({ rule: candidate.rule, description: describeDustRule(candidate.rule), support: candidate.buckets.size, ...checked, confidence });
  }
  proposals.push(...parameterProposals(pages, identity, contentOf, limits));
  proposals.sort((x, y) => y.support - x.support || y.confidence - x.confidence || x.description.localeCompare(y.description));
  return { proposals, stats };
}
