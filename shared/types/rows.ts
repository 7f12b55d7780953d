/**
 * Rows the store's view queries return (Frontier, Duplicates and Checkpoints views). They live in
 * shared/types so the engine's SQLite store never imports the IPC contract; shared/ipc/views.ts
 * re-exports them. Plain JSON; units live in names (`…AtMs` epoch milliseconds).
 */
import type { FrontierRow } from './crawl';

/** Why a host is not fetched from right now, in the words the Frontier view shows. */
export type HostWaitingReason = 'politeness delay' | 'robots Crawl-delay' | 'Retry-After backoff' | 'robots.txt pending' | 'robots.txt unavailable, retrying' | 'connection limit';

/** One row of the Frontier view's URL table: a frontier row plus where it was discovered. */
export interface UrlTableRow extends FrontierRow {
  /** The normalized URL string (the normalized key is its UUIDv5). */
  normalized: string;
  /** URL of the page the link was found on; null for seeds. */
  discoveredFrom: string | null;
}

/** One row of the Frontier view's host table. Live fields are null when the crawl is not running. */
export interface HostRow {
  host: string;
  registrableDomain: string | null;
  /** URLs pending for this host. */
  queued: number;
  inFlight: number;
  done: number;
  errors: number;
  /** Epoch ms the host may next be fetched from (live crawls only). */
  nextEligibleAtMs: number | null;
  waitingReason: HostWaitingReason | null;
}

/** A duplicate-URL group in the list: one normalized key with two or more raw spellings. */
export interface UrlGroupRow {
  /** The URL row (frontier id) all members map to. */
  urlId: number;
  normalizedKey: string;
  normalized: string;
  /** Distinct raw URLs met (rows of url_aliases). */
  members: number;
}

/** Kind of a content-duplicate group: identical visible text, or near-duplicate shingle sets. */
export type ContentGroupKind = 'exact' | 'near';

/** A content-duplicate group in the list. */
export interface ContentGroupRow {
  id: number;
  kind: ContentGroupKind;
  /** SHA-256 of the visible text (exact groups). */
  fingerprint: string | null;
  /** The first page seen with this content. */
  firstUrl: string;
  members: number;
  /** Lowest similarity of a member to the first page (1 for exact groups). */
  minSimilarity: number;
}

/** One page of a content group. */
export interface ContentGroupMember {
  urlId: number;
  url: string;
  title: string | null;
  /** Estimated Jaccard similarity of its shingle set to the group's first page (1 = identical). */
  similarity: number;
  /** Visible text length in characters. */
  textChars: number | null;
}

/** One checkpoint as the Checkpoints view lists it. */
export interface CheckpointRow {
  crawlId: number;
  name: string;
  createdAtMs: number;
  pagesDone: number;
  /** URLs pending or in flight when the snapshot was taken. */
  frontierSize: number;
  /** First 16 hex chars of SHA-256 of the crawl's settings JSON. */
  settingsHash: string;
}
