/**
 * Memory bounds of the scheduler's per-link and per-host caches (issue 9, defect 3): every cache
 * keyed by a page-controlled string is bounded by estimated bytes, not only by entries, so pages
 * of 60 KB hrefs (or of links to endless hosts) cannot grow the main process. One source of truth
 * for those budgets.
 */
import { BoundedCache, estimateStringBytes, SeenCache } from '../dedupe/seen-cache';
import type { UrlIdentity } from './url-identity';

/** Link targets (parts and identity per URL string) remembered at most. */
export const LINK_TARGET_CACHE_ENTRIES = 50_000;
/** Bytes the link-target cache holds at most (about 200 bytes + 6 × the URL an entry). */
export const LINK_TARGET_CACHE_BYTES = 64 * 1024 * 1024;
/** Raw link spellings remembered as already stored in `url_aliases`, at most. */
export const ALIAS_CACHE_ENTRIES = 100_000;
/** Bytes the alias cache holds at most. */
export const ALIAS_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * URLs whose store id and source bits the scheduler remembers (normalized key → seenEntry), at
 * most, and their bytes: a link to one of them names its id and offers no candidate.
 */
export const KNOWN_URL_CACHE_ENTRIES = 200_000;
export const KNOWN_URL_CACHE_BYTES = 32 * 1024 * 1024;

/** A byte-bounded map of normalized key → seenEntry (see {@link KNOWN_URL_CACHE_BYTES}). */
export function knownUrlCache(): SeenCache {
  return new SeenCache({ maxEntries: KNOWN_URL_CACHE_ENTRIES, maxBytes: KNOWN_URL_CACHE_BYTES });
}

/** Hosts whose capped robots Crawl-delay is remembered at most, and their bytes. */
export const CRAWL_DELAY_CACHE_ENTRIES = 100_000;
export const CRAWL_DELAY_CACHE_BYTES = 16 * 1024 * 1024;

/** A byte-bounded map of host → capped Crawl-delay in milliseconds (set right before each fetch). */
export function crawlDelayCache(): BoundedCache<number> {
  return new BoundedCache<number>({ maxEntries: CRAWL_DELAY_CACHE_ENTRIES, maxBytes: CRAWL_DELAY_CACHE_BYTES });
}

/**
 * Estimated bytes of a cached link target keyed by its URL: the key, the identity's URL,
 * normalized string and key, its host and domain, the parts (slices of the URL), object headers.
 */
export function linkTargetBytes(key: string, identity: UrlIdentity | null): number {
  const own = estimateStringBytes(key) + 200;
  if (identity === null) return own;
  return own + estimateStringBytes(identity.url) + estimateStringBytes(identity.normalized) + estimateStringBytes(identity.normalizedKey) + 2 * estimateStringBytes(identity.host);
}

/** A byte-bounded cache of link targets (see {@link LINK_TARGET_CACHE_BYTES}). */
export function linkTargetCache<T extends { identity: UrlIdentity | null }>(): BoundedCache<T> {
  return new BoundedCache<T>({ maxEntries: LINK_TARGET_CACHE_ENTRIES, maxBytes: LINK_TARGET_CACHE_BYTES, sizeOf: (key, target) => linkTargetBytes(key, target.identity) });
}

/** A byte-bounded set of raw spellings already stored as aliases (see {@link ALIAS_CACHE_BYTES}). */
export function aliasCache(): BoundedCache<true> {
  return new BoundedCache<true>({ maxEntries: ALIAS_CACHE_ENTRIES, maxBytes: ALIAS_CACHE_BYTES });
}
