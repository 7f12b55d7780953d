/**
 * The canonical URL of a duplicate-URL group through all of seed 001's layers (issue 12 part 8):
 * the group's fetched spelling is put through {@link canonicalUrl} (its redirect, a site rule, its
 * page's rel=canonical); only when none of those applies do the best-raw-URL heuristics
 * ({@link chooseGroupCanonical}) choose among the group's spellings (each without its fragment). The result names the layer
 * (and the heuristic) that decided, for the Duplicates view, the URL inspector and the export.
 */
import { canonicalUrl, chooseGroupCanonical, type CanonicalContext, type GroupHeuristic, type GroupMember } from './canonical';
import { PROFILES, type NormalizationProfile } from './profiles';

/**
 * A raw URL without its `#fragment`.
 * @example withoutFragment('http://a.test/p#top') → 'http://a.test/p'
 */
export function withoutFragment(rawUrl: string): string {
  const hash = rawUrl.indexOf('#');
  return hash === -1 ? rawUrl : rawUrl.slice(0, hash);
}

/** The layer that chose a group's canonical URL. */
export type GroupCanonicalLayer = 'redirect' | 'siteRule' | 'relCanonical' | 'heuristic';

/** What the crawl knows about one duplicate-URL group. */
export interface UrlGroupFacts {
  /** The spelling the crawl fetched for the group (urls.url). */
  fetchedUrl: string;
  /** The end of the fetched spelling's stored redirect chain (absolute); null when it did not redirect. */
  redirectTarget: string | null;
  /** The fetched page's rel=canonical (pages.canonical_url, from `<link>` or the Link header); null when none. */
  relCanonical: string | null;
  /** Every raw spelling of the group (the fetched one with its status). */
  members: readonly GroupMember[];
}

/** What {@link groupCanonical} needs: the site rules and registrable domains of canonicalUrl, and the crawl's profile. */
export interface GroupCanonicalContext extends CanonicalContext {
  /** The crawl's normalization profile (its tracking and session parameter list). @default PROFILES.standard */
  profile?: NormalizationProfile;
}

/** A group's canonical URL, the layer that chose it, and the heuristics' steps when they did. */
export interface LayeredGroupCanonical {
  canonical: string;
  layer: GroupCanonicalLayer;
  /** The heuristic that left one spelling, when `layer` is `heuristic`; else null. */
  decidedBy: GroupHeuristic | null;
  /** Each heuristic that narrowed the spellings (empty unless `layer` is `heuristic`). */
  steps: { heuristic: GroupHeuristic; kept: string[] }[];
  /** The site rule's id when `layer` is `siteRule`. */
  siteRuleId?: string;
}

/**
 * The canonical URL of a duplicate-URL group: redirect target → site rule → rel=canonical (same
 * registrable domain only) → the best-raw-URL heuristics, whose first step refuses session-id and
 * tracking variants while a clean spelling exists (canonical.ts GROUP_HEURISTICS).
 * @throws RangeError when `facts.members` is empty
 * @example groupCanonical({ fetchedUrl: 'http://a.test/p?sessionid=1', redirectTarget: null, relCanonical: null, members: [{ rawUrl: 'http://a.test/p?sessionid=1', status: 200 }, { rawUrl: 'http://a.test/p' }] }, context) → { canonical: 'http://a.test/p', layer: 'heuristic', decidedBy: 'noSessionOrTracking', … }
 * @example groupCanonical({ fetchedUrl: 'http://a.test/old', redirectTarget: 'http://a.test/new', relCanonical: null, members: [{ rawUrl: 'http://a.test/old' }, { rawUrl: 'http://a.test/old?utm_source=x' }] }, context) → { canonical: 'http://a.test/new', layer: 'redirect', decidedBy: null, … }
 */
export function groupCanonical(facts: UrlGroupFacts, context: GroupCanonicalContext): LayeredGroupCanonical {
  if (facts.members.length === 0) throw new RangeError('groupCanonical needs at least one member');
  const layered = canonicalUrl(
    { rawUrl: facts.fetchedUrl, redirects: facts.redirectTarget === null ? [] : [facts.redirectTarget], relCanonical: facts.relCanonical },
    context,
  );
  switch (layered.decidedBy) {
    case 'redirect':
    case 'relCanonical':
      return { canonical: layered.canonical, layer: layered.decidedBy, decidedBy: null, steps: [] };
    case 'siteRule':
      return { canonical: layered.canonical, layer: 'siteRule', decidedBy: null, steps: [], ...(layered.siteRuleId ? { siteRuleId: layered.siteRuleId } : {}) };
    case 'raw': {
      // A fragment never reaches the server: `x#top` is the spelling `x` (crawls since migration 0016 store it so).
      const members = facts.members.map((member) => ({ ...member, rawUrl: withoutFragment(member.rawUrl) }));
      const chosen = chooseGroupCanonical(members, context.profile ?? PROFILES.standard);
      return { canonical: chosen.canonical, layer: 'heuristic', decidedBy: chosen.decidedBy, steps: chosen.steps };
    }
    default: {
      const exhaustive: never = layered.decidedBy;
      throw new Error(`Unknown canonical layer ${String(exhaustive)}`);
    }
  }
}
