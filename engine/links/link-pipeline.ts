/**
 * The link pipeline: from a page's links (or a redirect's Location) to frontier candidates and link
 * rows: link target cache, URL identity, link rules (seed 004), scope widened by seed redirects,
 * aliases (each raw spelling stored once). No I/O of its own: it returns the link and alias rows of a
 * commit batch (targets named by normalized key), and the committer hands them to the store.
 */
import type { CrawlSettings } from '../../shared/types/crawl';
import type { Result } from '../../shared/types/result';
import { seenEntryId } from '../dedupe/seen-cache';
import type { RedirectTarget } from '../fetch/redirects';
import type { AliasWrite, ClaimedUrl, FrontierCandidate, LinkWrite } from '../store/ports';
import { LINK_KINDS, type LinkKind, type PageResult } from '../worker/protocol';
import { aliasWrite } from './aliases';
import { aliasCache, linkTargetCache, originCache } from './link-budget';
import { compileLinkRules, linkParts, STORED_RAW_URL_CHARS, type LinkContext, type LinkParts, type LinkRuleName, type LinkRules, type TargetVerdict } from './link-rules';
import { addRedirectSeed, redirectRefusal } from './redirects';
import { scopeSeeds, type ScopeSeeds } from './scope';
import type { UrlIdentity } from './url-identity';

/**
 * The depth a URL listed in a sitemap gets: one step from the seed, like a link on the home page
 * (so `maxDepth` 1 still crawls a site's sitemap URLs, and they keep breadth-first priority).
 */
export const SITEMAP_URL_DEPTH = 1;

/**
 * What the crawl has learned about a cached link target, so a repeat link skips the lookups these
 * answer (each was a lookup of a long URL string in a large map, per link: together about a fifth
 * of the main thread at 100,000 pages). Facts only ever become true, so a stale memo cannot be wrong;
 * a target evicted from its cache starts a new memo and the lookups answer again.
 */
export interface TargetMemo {
  /** The link's raw spelling, which is the target's cache key (no fragment), is stored as an alias. */
  aliasStored: boolean;
  /** The store's URL-seen entry (seen-cache.ts seenEntry) once it says the URL is linked; null before. */
  linkedEntry: number | null;
  /** The URL to fetch went through the trap screen (TrapGuard.screen: its link detectors saw it). */
  screened: boolean;
}

/** What a link's URL is, worked out once per URL string. */
interface LinkTarget extends TargetMemo {
  /** Parts of the URL to fetch (no fragment), for the link rules. */
  parts: LinkParts;
  /** The URL's identity, `url` being the URL to fetch; null when the link is refused before any rule. */
  identity: UrlIdentity | null;
  /** Why `identity` is null. */
  refusal: Extract<LinkRuleName, 'protocol' | 'invalid-url'> | null;
  /**
   * The link rules' verdict on the URL alone (LinkRules.ofTarget), worked out at the first link to
   * it and kept while the scope's seeds stay as they were (`rulesGeneration`, ScopeSeeds.generation;
   * -1 before): the rules about a URL ran again for every link to it, 10M times at 100,000 pages.
   */
  rules: TargetVerdict;
  rulesGeneration: number;
}

/** A page's link on its way to a link row; `refusedBy` null when it went to the frontier. */
export interface PendingLink {
  raw: string;
  kind: LinkKind;
  /** The target's normalized key; null when refused. */
  key: string | null;
  refusedBy: LinkRuleName | null;
  /** The link's text and rel tokens as the worker sent them (absent when none). */
  anchorText?: string;
  rel?: string;
  /** The target's memo when the raw spelling is the target's cache key (a followed link without a fragment). */
  memo?: TargetMemo;
  /** The target's URL id when its memo knows it as linked (TargetMemo.linkedEntry): the link offered no candidate. */
  toUrlId?: number;
}

/**
 * A page's links, sorted: the candidates (in link order, each with its target's memo) and every
 * link to store. A followed link whose target the memo knows as linked names it by id and offers
 * no candidate: the store would only confirm what the memo says (ResultCommitter.unknownTargets),
 * and the trap screen has seen it (a memo learns `linkedEntry` after its target was screened).
 */
export interface PageLinks {
  candidates: FrontierCandidate[];
  /** `memos[i]` is the memo of `candidates[i]`'s target. */
  memos: TargetMemo[];
  links: PendingLink[];
}

/** A redirect's target, judged: `candidate` when it goes to the frontier, else the rule refusing it. */
export type RedirectVerdict = { raw: string; candidate: FrontierCandidate; refusedBy: null } | { raw: string; candidate: null; refusedBy: LinkRuleName };

export interface LinkPipelineOptions {
  settings: CrawlSettings;
  /** The crawl's seeds (for the scope rule). */
  seeds: readonly string[];
  /** A URL's identity under the crawl's normalization profile and TLD settings. */
  identify: (raw: string) => Result<UrlIdentity>;
  countRefusal(rule: string, count?: number): void;
}

/** One bit per link kind (its place in LINK_KINDS), for a page's written-kinds masks. */
const LINK_KIND_BITS = Object.fromEntries(LINK_KINDS.map((kind, index) => [kind, 1 << index])) as Readonly<Record<LinkKind, number>>;

/** A followed URL's frontier candidate: its identity's names, where it sits and how the crawl met it. */
function candidateOf(identity: UrlIdentity, placement: Pick<FrontierCandidate, 'depth' | 'discoveredFrom' | 'source' | 'redirectHops'>): FrontierCandidate {
  return { url: identity.url, normalized: identity.normalized, normalizedKey: identity.normalizedKey, host: identity.host, registrableDomain: identity.registrableDomain, ...placement };
}

export class LinkPipeline {
  private readonly linkRules: LinkRules;
  private readonly allowedProtocols: Set<string>;
  /** Link targets by URL string (a crawl meets the same navigation links on every page); bounded by bytes. */
  private readonly linkTargets = linkTargetCache<LinkTarget>();
  /** Raw spellings already stored as aliases (bounded by bytes: link-budget.ts). */
  private readonly aliasesSeen = aliasCache();
  /** One string per origin, which the cached targets of that origin share (see {@link linkTarget}). */
  private readonly origins = originCache();
  /** The profile drops fragments, so `x#a` and `x#b` share x's identity (and one cache entry). */
  private readonly fragmentFree: boolean;
  /** What the scope rule compares with; a seed's redirect target joins it (see redirects.ts). */
  private readonly scope: ScopeSeeds;

  constructor(private readonly options: LinkPipelineOptions) {
    const { settings, identify } = options;
    const seeds = scopeSeeds(options.seeds, (host) => {
      const identity = identify(`http://${host}/`);
      return identity.ok ? identity.value.registrableDomain : null;
    });
    this.scope = seeds;
    this.linkRules = compileLinkRules(settings, seeds);
    this.allowedProtocols = new Set(settings.allowedProtocols.map((p) => `${p}:`));
    this.fragmentFree = settings.normalizationProfile.rules.removeFragment;
  }

  /**
   * Sorts a page's links (fetched as `from`) into frontier candidates one level deeper and refused
   * links (each refusal counted, also the page's unresolvable links and those past its cap).
   */
  pageLinks(from: ClaimedUrl, page: PageResult): PageLinks {
    const depth = from.depth + 1;
    const candidates: FrontierCandidate[] = [];
    const memos: TargetMemo[] = [];
    const links: PendingLink[] = [];
    const refuse = (link: PageResult['links'][number], rule: LinkRuleName) => {
      this.options.countRefusal(rule);
      links.push({ raw: link.url.slice(0, STORED_RAW_URL_CHARS), kind: link.kind, key: null, refusedBy: rule, anchorText: link.anchorText, rel: link.rel });
    };
    const { maxUrlLength } = this.options.settings;
    for (const link of page.links) {
      // By length before any other work: a too-long URL is never parsed, normalized nor cached.
      if (link.tooLong === true || link.url.length > maxUrlLength) {
        refuse(link, 'url-length');
        continue;
      }
      const verdict = this.judge(link.url, { depth, pageNofollow: page.nofollow, rel: link.rel });
      if (verdict.rule !== null) {
        refuse(link, verdict.rule);
        continue;
      }
      const { identity, target } = verdict;
      const pending: PendingLink = { raw: link.url, kind: link.kind, key: identity.normalizedKey, refusedBy: null, anchorText: link.anchorText, rel: link.rel };
      if (identity.url === link.url) pending.memo = target;
      if (target.linkedEntry !== null) pending.toUrlId = seenEntryId(target.linkedEntry);
      else {
        candidates.push(candidateOf(identity, { depth, discoveredFrom: from.id, source: 'link' }));
        memos.push(target);
      }
      links.push(pending);
    }
    for (let i = 0; i < page.unresolvableLinks; i += 1) this.options.countRefusal('invalid-url');
    // Links past the page's cap were not passed on: counted, and stored with the page.
    if (page.linksOverCap > 0) this.options.countRefusal('max-links-per-page', page.linksOverCap);
    return { candidates, memos, links };
  }

  /**
   * A page's link rows and the aliases they bring, for its commit batch. One link row per (target,
   * kind) of a page: `#fragment` variants of one target are one link; one refused row per (kind, raw).
   */
  linkRows(fromUrlId: number, links: readonly PendingLink[]): { links: LinkWrite[]; aliases: AliasWrite[] } {
    const rows: LinkWrite[] = [];
    const aliases: AliasWrite[] = [];
    // The kinds already written per target key, and per raw URL for refused links (a bit per kind):
    // keyed by the strings the links hold (their hashes already computed), not by a new string per link.
    const writtenTo = new Map<string, number>();
    const writtenRaw = new Map<string, number>();
    for (const link of links) {
      if (link.key !== null && link.memo?.aliasStored !== true) {
        const alias = this.alias(link.key, link.raw, fromUrlId);
        if (alias) aliases.push(alias);
        if (link.memo !== undefined) link.memo.aliasStored = true;
      }
      const written = link.key !== null ? writtenTo : writtenRaw;
      const name = link.key ?? link.raw;
      const kinds = written.get(name) ?? 0;
      const bit = LINK_KIND_BITS[link.kind];
      if ((kinds & bit) !== 0) continue;
      written.set(name, kinds | bit);
      const row: LinkWrite = {
        fromUrlId,
        rawUrl: link.raw,
        toKey: link.toUrlId === undefined ? link.key : null,
        kind: link.kind,
        refusedBy: link.refusedBy,
        anchorText: link.anchorText ?? null,
        rel: link.rel ?? null,
      };
      if (link.toUrlId !== undefined) row.toUrlId = link.toUrlId;
      rows.push(row);
    }
    return { links: rows, aliases };
  }

  /**
   * Judges a redirect answer's target like a link (kind `redirect`, the same depth, one more
   * redirect hop): the URL-seen test, robots.txt, politeness and the link rules apply to it before
   * any fetch (RFC 9110 §15.4; engine/fetch/redirects.ts). A refusal is counted.
   */
  redirect(from: ClaimedUrl, redirect: RedirectTarget): RedirectVerdict {
    // By length before any other work, as for links: a too-long Location is never normalized nor cached.
    const tooLong = redirect.location !== null && redirect.location.length > this.options.settings.maxUrlLength;
    const target = redirect.location === null || tooLong ? null : this.linkTarget(redirect.location);
    const identity = target?.identity ?? null;
    const raw = (redirect.location ?? redirect.raw).slice(0, STORED_RAW_URL_CHARS);
    let refusedBy: LinkRuleName | null = tooLong ? 'url-length' : target === null ? 'invalid-url' : target.refusal;
    if (target !== null && identity !== null) {
      refusedBy = redirectRefusal(this.linkRules, this.scope, { url: identity.url, parts: target.parts, raw, registrableDomain: identity.registrableDomain }, from.depth);
    }
    if (refusedBy !== null || identity === null) {
      this.options.countRefusal(refusedBy ?? 'invalid-url');
      return { raw, candidate: null, refusedBy: refusedBy ?? 'invalid-url' };
    }
    const candidate = candidateOf(identity, { depth: from.depth, discoveredFrom: from.id, redirectHops: from.redirectHops + 1, source: 'redirect' });
    return { raw, candidate, refusedBy: null };
  }

  /**
   * Sorts a sitemap's page URLs (sitemaps.org `<url><loc>`) like a seed page's links: the link
   * rules see each at depth 1 (listed, one step from the site's entry), no page nofollow; a
   * refusal is counted by rule. Candidates carry source `sitemap` and no referring page.
   * @returns the candidates, each one's `<loc>` as written and `<lastmod>` (by index), and how many were refused
   */
  sitemapUrls(entries: readonly { loc: string; lastmod: string | null; tooLong?: true }[]): { candidates: FrontierCandidate[]; locs: string[]; lastmods: (string | null)[]; refused: number } {
    const candidates: FrontierCandidate[] = [];
    const locs: string[] = [];
    const lastmods: (string | null)[] = [];
    let refused = 0;
    const { maxUrlLength } = this.options.settings;
    const refuse = (rule: LinkRuleName) => {
      this.options.countRefusal(rule);
      refused += 1;
    };
    for (const entry of entries) {
      if (entry.tooLong === true || entry.loc.length > maxUrlLength) {
        refuse('url-length');
        continue;
      }
      const verdict = this.judge(entry.loc, { depth: SITEMAP_URL_DEPTH, pageNofollow: false });
      if (verdict.rule !== null) {
        refuse(verdict.rule);
        continue;
      }
      candidates.push(candidateOf(verdict.identity, { depth: SITEMAP_URL_DEPTH, discoveredFrom: null, source: 'sitemap' }));
      locs.push(entry.loc);
      lastmods.push(entry.lastmod);
    }
    return { candidates, locs, lastmods, refused };
  }

  /**
   * The normalized key of `url` under the crawl's profile (the URL-seen test's identity), or null
   * when it cannot be normalized or its scheme is not crawled. Cached like links' targets.
   */
  normalizedKey(url: string): string | null {
    return this.linkTarget(url).identity?.normalizedKey ?? null;
  }

  /**
   * Each distinct raw spelling of a URL is stored once; a bounded cache skips the repeats (a raw
   * spelling always names the same URL within a crawl, so the spelling alone is the key).
   * @returns the alias row to write, or null when the spelling was written before
   */
  alias(toKey: string, raw: string, fromUrlId: number | null): AliasWrite | null {
    if (this.aliasesSeen.has(raw)) return null;
    this.aliasesSeen.set(raw, 1);
    return aliasWrite(toKey, raw, fromUrlId);
  }

  /** Widens the scope rule with seed redirect targets stored by earlier runs (a resumed crawl). */
  addSeedRedirectTargets(targets: readonly { url: string; registrableDomain: string | null }[]): void {
    for (const target of targets) addRedirectSeed(this.scope, target.url, target.registrableDomain);
  }

  /**
   * A URL met in a page or a sitemap, judged: its identity when the link rules follow it, else the
   * rule refusing it (`protocol` / `invalid-url` when it has no identity). The caller checks the
   * length first, before any parsing.
   */
  private judge(raw: string, context: LinkContext): { identity: UrlIdentity; target: LinkTarget; rule: null } | { identity: null; target: LinkTarget; rule: LinkRuleName } {
    const target = this.linkTarget(raw);
    const identity = target.identity;
    if (identity === null) return { identity: null, target, rule: target.refusal ?? 'invalid-url' };
    if (target.rulesGeneration !== this.scope.generation) {
      target.rules = this.linkRules.ofTarget({ url: target.parts, registrableDomain: identity.registrableDomain });
      target.rulesGeneration = this.scope.generation;
    }
    const rule = this.linkRules.decide(target.rules, raw, context);
    return rule === null ? { identity, target, rule: null } : { identity: null, target, rule };
  }

  /**
   * What a link's URL is: its parts, and its identity unless its scheme is not crawled or it
   * cannot be normalized. Cached by URL string (by the URL without its fragment when the profile
   * drops fragments): navigation links recur on every page, and their identity does not change.
   */
  private linkTarget(raw: string): LinkTarget {
    const hash = raw.indexOf('#');
    // The URL fetched carries no fragment (never sent to a server); the raw spelling is kept as an alias.
    const fetchUrl = hash === -1 ? raw : raw.slice(0, hash);
    const key = this.fragmentFree ? fetchUrl : raw;
    let target = this.linkTargets.get(key);
    if (target !== undefined) return target;
    const parts = linkParts(fetchUrl);
    // Strings a cached target shares with the other targets of its origin instead of holding its own.
    const origin = this.origins.get(parts.origin);
    if (origin !== undefined) parts.origin = origin;
    else this.origins.set(parts.origin, parts.origin);
    let identity: UrlIdentity | null = null;
    let refusal: LinkTarget['refusal'] = null;
    // Scheme first: mailto:/javascript: are never normalized, only counted.
    if (!this.allowedProtocols.has(parts.protocol)) refusal = 'protocol';
    else {
      const identified = this.options.identify(key);
      if (identified.ok) {
        // One string for equal ones: most links are in normal form already (linkTargetBytes counts it once).
        const normalized = identified.value.normalized === fetchUrl ? fetchUrl : identified.value.normalized;
        identity = { ...identified.value, url: fetchUrl, normalized };
        if (identity.host === parts.hostname) parts.hostname = identity.host;
      } else refusal = 'invalid-url';
    }
    // A new target has learned nothing yet (TargetMemo).
    target = { parts, identity, refusal, aliasStored: false, linkedEntry: null, screened: false, rules: 0, rulesGeneration: -1 };
    this.linkTargets.set(key, target);
    return target;
  }
}
