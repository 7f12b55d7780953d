/**
 * What the URL inspector receives over IPC (issue 11 part 3): one URL's whole story (its names,
 * the answer, the redirect chain, robots.txt, a timeline from stored fields, links in and out,
 * duplicates) and the answers of its actions. Plain JSON; units live in names (`…Ms`
 * milliseconds, `…AtMs` epoch milliseconds, `…Bytes` bytes).
 */
import type { RenderRecord } from '../types/render';
import type { ExtractedValue } from '../types/extraction';
import type { InlinkRow, LinkPage, OutlinkRow, RedirectHopRow, SpellingRow } from '../types/inspector-rows';
import type { ContentGroupMember, ContentGroupKind } from '../types/rows';
import type { UrlSource } from '../types/url-sources';
import type { GroupHeuristic } from '../url/canonical';
import type { UrlGroupDetail } from './views';

export type { InlinkRow, LinkPage, OutlinkRow, RedirectHopRow, SpellingRow } from '../types/inspector-rows';

/**
 * Which layer chose a URL's canonical URL (seed 001's layers as the crawl stores them, in order): the URL
 * redirects (its chain's end stands for it), a site rule rewrites it, the page names one with
 * rel=canonical (on its own registrable domain), the duplicate-URL group's heuristics chose among
 * its spellings, or none applies (the URL itself). shared/url/group-canonical.ts decides.
 */
export type CanonicalSource = 'redirect' | 'siteRule' | 'relCanonical' | 'groupHeuristic' | 'none';

/** The layer words the inspector shows for each {@link CanonicalSource}. */
export const CANONICAL_SOURCE_LABELS: Readonly<Record<CanonicalSource, string>> = {
  redirect: 'redirect (the URL redirects)',
  siteRule: 'site rule (a structure-aware rewrite)',
  relCanonical: 'rel=canonical (named by the page)',
  groupHeuristic: 'duplicate-URL group heuristic',
  none: 'none (the URL itself)',
};

/** The Names section: every spelling, the normalized forms, the canonical URL and the version template. */
export interface InspectorNames {
  /** Every raw spelling met, with the page it was first met on. */
  spellings: SpellingRow[];
  /** The normalized URL (a string a person can read). */
  normalized: string;
  /** The normalized key (UUID v5 of the normalized URL under the crawl's profile): the URL-seen test's key. */
  normalizedKey: string;
  /** Normalization profile the crawl used (its name). */
  profileName: string;
  canonical: {
    url: string;
    /** The canonical URL's id in the crawl when it is one of its URLs (the inspector can open it). */
    urlId: number | null;
    source: CanonicalSource;
    /** The heuristic that chose it when `source` is `groupHeuristic` (shared/url/canonical GROUP_HEURISTICS); else null. */
    heuristic: GroupHeuristic | null;
    /** Why, in words (e.g. "2 redirects to the end of the chain", "the page names itself"). */
    detail: string;
  };
  /** Seed 001's version URL template when other URLs of the crawl differ from this one only by a version segment; else null. */
  versionTemplate: { template: string; versions: string[] } | null;
}

/** The Response section: the stored answer, or why there is none. */
export interface InspectorResponse {
  /** The URL's frontier state (pending, in_flight, done, error …). */
  state: string;
  status: number | null;
  /** All response headers (lower-case name → value); null when not recorded for this page. */
  headers: Record<string, string> | null;
  sizeBytes: number | null;
  /** True when the body was cut at the size cap. */
  truncated: boolean;
  fetchMs: number | null;
  fetchedAtMs: number | null;
  contentType: string | null;
  title: string | null;
  /** shared/types/pages.ts INDEXABILITY; null when not recorded. */
  indexability: string | null;
  errorCode: string | null;
  errorMessage: string | null;
}

/** The Redirect chain section: every hop, and this URL's place in it. */
export interface InspectorRedirects {
  /** `redirects`: this URL answered with a redirect; `target`: a redirect led here; `none`: neither. */
  role: 'redirects' | 'target' | 'none';
  /** The whole chain from its first URL; one hop (this URL) when it has no part in a chain. */
  hops: RedirectHopRow[];
}

/** The Robots section's verdict. */
export interface InspectorRobots {
  /**
   * `allowed`: robots.txt let it be fetched; `blocked`: robots.txt disallows it; `unavailable`:
   * the host's robots.txt kept failing; `ignored`: the crawl does not obey robots.txt;
   * `not-checked`: not claimed for fetching yet.
   */
  verdict: 'allowed' | 'blocked' | 'unavailable' | 'ignored' | 'not-checked';
  /** The robots.txt rule that matched (e.g. `Disallow: /private/`) when the crawl recorded it; else null. */
  matchedLine: string | null;
  /** What was stored about it (the error message of a refusal), or a sentence saying why the verdict holds. */
  message: string;
}

/** One step of a URL's life as stored; `atMs` null when the step has no stored time. */
export interface TimelineStep {
  step: 'discovered' | 'queued' | 'claimed' | 'fetched' | 'failed' | 'waiting' | 'committed';
  atMs: number | null;
  /** The step in words (who discovered it, at what depth, how many attempts …). */
  detail: string;
  /** The URL this step points to (the page that discovered it), when there is one. */
  urlId?: number | null;
}

/** The Sources section: where the crawl met the URL (issue 12), and the sitemaps that list it. */
export interface InspectorUrlSources {
  /** Its sources in display order (shared/types/url-sources.ts); empty for a URL stored before they were recorded. */
  sources: UrlSource[];
  /** Sitemaps that list it (at most 100), with the `<lastmod>` and, where it differs from the URL, the spelling each gave. */
  sitemaps: { url: string; lastmod: string | null; listedAs: string | null }[];
}

/** The Duplicates section. */
export interface InspectorDuplicates {
  /** Its duplicate-URL group (two or more spellings under one normalized key), or null. */
  urlGroup: UrlGroupDetail | null;
  /** Its content group with each member's similarity, or null. */
  contentGroup: { groupId: number; kind: ContentGroupKind; members: ContentGroupMember[] } | null;
}

/** A link rule the "Exclude URLs like this" action can add for this URL. */
export interface ExclusionOption {
  rule: ExclusionRule;
  /** What is added: an extension (`pdf`) or a registrable domain (`cdn.test`). */
  value: string;
  /** The action in words, e.g. "Ignore .pdf links". */
  label: string;
}

/** The crawl settings "Exclude URLs like this" can extend: seed 004's ignored extensions, or the excluded domains. */
export const EXCLUSION_RULES = ['ignored-extension', 'exclude-domains'] as const;
/** One of {@link EXCLUSION_RULES}. */
export type ExclusionRule = (typeof EXCLUSION_RULES)[number];

/** Answer of `urls.inspect`: everything the URL inspector shows for one URL. */
export interface UrlInspection {
  crawlId: number;
  urlId: number;
  url: string;
  /** Whether the crawl runs now ("Re-fetch now" needs a running crawl). */
  crawlRunning: boolean;
  names: InspectorNames;
  sources: InspectorUrlSources;
  response: InspectorResponse;
  redirects: InspectorRedirects;
  robots: InspectorRobots;
  timeline: TimelineStep[];
  /** The first links in (oldest first); `total` says how many there are in all. */
  inlinks: LinkPage<InlinkRow>;
  /** The first links out (page order), refused ones with their rule; `total` and `refused` count all. */
  outlinks: LinkPage<OutlinkRow>;
  duplicates: InspectorDuplicates;
  /** What the crawl's custom extractors found on the page, by extractor name (issue 14 part 2); null when none ran on it. */
  extracted: Record<string, ExtractedValue> | null;
  /** How the page was rendered in Chromium (issue 14 part 3, `page_renders`); null when it was not rendered. */
  render: InspectorRender | null;
  /** Rules "Exclude URLs like this" can add; empty when none fits this URL. */
  exclusions: ExclusionOption[];
}

/** A rendered page's record, as stored in `page_renders`. */
export type InspectorRender = RenderRecord;

/** Bytes of a stored body the source view shows at most (the rest is cut, `shownBytes` says where). */
export const SOURCE_VIEW_MAX_BYTES = 2 * 1024 * 1024;

/** Answer of `urls.source`: the URL's stored body (issue 14 part 1), decoded for display. */
export type PageSource =
  | {
      stored: true;
      /** The Content-Type the answer was sent with; null when none. */
      contentType: string | null;
      /** The character encoding the text was decoded with (WHATWG name), or null for a body shown as binary. */
      charset: string | null;
      /** Bytes of the body as kept (before compression). */
      rawBytes: number;
      /** Bytes it takes in the store, compressed. */
      storedBytes: number;
      /** The body was cut (by the fetch's or the store's size cap). */
      truncated: boolean;
      /** `sha1:BASE32` of the kept bytes (the WARC payload digest). */
      payloadDigest: string;
      /** The body as text (first {@link SOURCE_VIEW_MAX_BYTES} bytes); '' for a binary body. */
      text: string;
      /** Bytes of the body `text` shows. */
      shownBytes: number;
      /** True when the body is not text (an image, a PDF …): only its size and digest are shown. */
      binary: boolean;
    }
  | {
      stored: false;
      /** Why there is no body, in words (bodies not kept by the crawl, a redirect, the crawl's cap reached, not fetched yet). */
      reason: string;
    };

/** Answer of `urls.refetch`. */
export interface RefetchAnswer {
  outcome: 'queued' | 'already-queued' | 'in-flight' | 'held';
  /** What happened, in words. */
  message: string;
}

/** Answer of `urls.exclude`. */
export interface ExcludeAnswer {
  rule: ExclusionRule;
  value: string;
  /** What was added to which setting, and when it applies, in words. */
  message: string;
  /** True when the running crawl was restarted to apply it. */
  restarted: boolean;
}

/** Links shown per list before "more". */
export const INSPECTOR_LINKS_PER_PAGE = 50;
