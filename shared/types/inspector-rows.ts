/**
 * Rows the URL inspector's queries return (links in and out, spellings, redirect hops). They live
 * in shared/types so the engine's SQLite store never imports the IPC contract;
 * shared/ipc/inspector-view.ts builds the inspector's answer from them. Plain JSON.
 */
import type { RowPage } from './crawl';

/** One raw spelling of a URL (url_aliases) and the page it was first met on (null: a seed). */
export interface SpellingRow {
  /** The spelling, without any `#fragment`. */
  rawUrl: string;
  firstSeenFromId: number | null;
  firstSeenFromUrl: string | null;
  /** Spellings met that are this one plus a `#fragment` (counted, not stored apart: issue 15); absent when none are known. */
  fragmentSpellings?: number;
}

/** A link into a URL from a page of the crawl. */
export interface InlinkRow {
  fromUrlId: number;
  fromUrl: string;
  /** The href as the page wrote it (resolved; the target's URL when the store kept no other text). */
  rawUrl: string;
  /** Link kind as stored (a, redirect, canonical …). */
  kind: string;
  /** The link's text (trimmed, capped); null when it has none or it was not recorded. */
  anchorText: string | null;
  /** The element it came from (a, area, link, iframe, img …); null when not recorded. */
  element: string | null;
  /** Space-separated rel tokens (nofollow, sponsored, ugc …); null when none or not recorded. */
  rel: string | null;
}

/** A link out of a URL's page: to a URL of the crawl, or refused by a link rule. */
export interface OutlinkRow {
  rawUrl: string;
  /** Null when a link rule refused it (it never entered the frontier). */
  toUrlId: number | null;
  toUrl: string | null;
  toState: string | null;
  toStatus: number | null;
  kind: string;
  /** The link rule that refused it (shared/types/link-rules.ts names); null when followed. */
  refusedBy: string | null;
  anchorText: string | null;
  element: string | null;
  rel: string | null;
}

/** A page of links with the counts the inspector summarises. */
export interface LinkPage<Row> extends RowPage<Row> {
  /** Of `total`, links refused by a link rule (outlinks only; 0 for inlinks). */
  refused: number;
}

/**
 * One hop of a redirect chain as stored: a URL with its own result. A 3xx hop has `status`
 * 301/302/303/307/308 and its `location` (RFC 9110 §15.4); the last hop is where the chain ended:
 * a page, a URL not fetched (`status` null), or a target a link rule refused (`urlId` null).
 */
export interface RedirectHopRow {
  /** Null for a target the link rules refused (it never entered the frontier). */
  urlId: number | null;
  url: string;
  /** The URL's frontier state; null for a refused target. */
  state: string | null;
  /** HTTP status of its fetch; null when it was not fetched. */
  status: number | null;
  /** The Location of a redirect answer, resolved, no fragment; null for any other hop. */
  location: string | null;
  /** Duration of its fetch, ms; null when it was not fetched. */
  fetchMs: number | null;
  /** Error code of a URL in state error (e.g. REDIRECT_LOOP, ROBOTS_DISALLOWED); else null. */
  errorCode: string | null;
  /** The link rule that refused this target; null for a URL of the crawl. */
  refusedBy: string | null;
}
