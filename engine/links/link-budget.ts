/**
 * Memory bounds of the scheduler's per-link and per-host caches (issue 9, defect 3): every cache
 * keyed by a page-controlled string is bounded by estimated bytes, not only by entries, so pages
 * of 60 KB hrefs (or of links to endless hosts) cannot grow the main process. One source of truth
 * for those budgets.
 */
import { FingerprintCache } from '../dedupe/fingerprint-cache';
import { BoundedCache, estimateStringBytes } from '../dedupe/seen-cache';
import type { UrlIdentity } from './url-identity';

/**
 * Link targets (parts and identity per URL string) remembered at most. The byte budget is the
 * bound that holds on a large crawl: about 128,000 targets of the synthetic site's 32-character
 * URLs. A miss costs a normalization, a UUIDv5 key and new strings on the main thread: at 50,000
 * entries the 100,000-page synthetic crawl (105,000 URLs, every host's pages interleaved) missed
 * often enough that the main thread used 1.73 CPU-s per 1,000 pages, against 0.6 at 20,200 pages.
 */
export const LINK_TARGET_CACHE_ENTRIES = 200_000;
/**
 * Bytes the link-target cache holds at most, as {@link linkTargetBytes} estimates them: 408 for a
 * synthetic-site URL of 32 characters, which measured 408 (V8 heap after full GCs, 100,000
 * targets through LinkPipeline.pageLinks: `npm run bench -- links`). It was 64 MiB while a target
 * measured 512 bytes; sharing the scheme, host and origin strings (link-rules.ts linkParts,
 * url-identity.ts, LinkPipeline's origin cache) made it 389, and 48 MiB held about as many
 * targets (128,000; 64 MiB held 131,000 at 510). Keeping the link rules' verdict on each target
 * (two small integers) made it 408: about 123,000 targets.
 */
export const LINK_TARGET_CACHE_BYTES = 48 * 1024 * 1024;
/**
 * Raw link spellings remembered as already stored in `url_aliases`, at most, as 64-bit
 * fingerprints (engine/dedupe/fingerprint-cache.ts): a set of 7.4 MiB at most (393,216 entries of 9
 * bytes, 1,048,576 table cells of 4). A
 * forgotten spelling is sent again: an alias row built on the main thread, and on the writer a
 * lookup of its target's id and an INSERT OR IGNORE. At 100,000 entries and 16 MiB of strings
 * (about 50,000 to 100,000 held) the 100,000-page synthetic crawl's 110,000 spellings were
 * forgotten over and over: 8 s of the main thread's and 23 s of the writer's busy time in CPU
 * profiles. As a Map of the strings it held 400,000 entries in 32 MiB (estimated).
 */
export const ALIAS_CACHE_ENTRIES = 393_216;

/** Hosts whose capped robots Crawl-delay is remembered at most, and their bytes. */
export const CRAWL_DELAY_CACHE_ENTRIES = 100_000;
export const CRAWL_DELAY_CACHE_BYTES = 16 * 1024 * 1024;

/** A byte-bounded map of host → capped Crawl-delay in milliseconds (set right before each fetch). */
export function crawlDelayCache(): BoundedCache<number> {
  return new BoundedCache<number>({ maxEntries: CRAWL_DELAY_CACHE_ENTRIES, maxBytes: CRAWL_DELAY_CACHE_BYTES });
}

/**
 * Estimated bytes of a cached link target keyed by its URL: the key, the identity's URL and
 * normalized string where they differ from the key (LinkPipeline keeps one string for equal
 * ones: a URL already in normal form is the key three times over), its normalized key, and 224
 * for the rest (the target, its parts and identity objects and memo fields, the path string, the
 * cache's map entry and slot), calibrated on a 32-character URL in normal form (408 estimated,
 * 408 measured; see {@link LINK_TARGET_CACHE_BYTES}). Not counted: the scheme, host, origin and
 * registrable domain, strings shared by every URL of the host (link-rules.ts, url-identity.ts).
 */
export function linkTargetBytes(key: string, identity: UrlIdentity | null): number {
  const own = estimateStringBytes(key) + 224;
  if (identity === null) return own;
  const url = identity.url === key ? 0 : estimateStringBytes(identity.url);
  const normalized = identity.normalized === identity.url ? 0 : estimateStringBytes(identity.normalized);
  return own + url + normalized + estimateStringBytes(identity.normalizedKey);
}

/** A byte-bounded cache of link targets (see {@link LINK_TARGET_CACHE_BYTES}). */
export function linkTargetCache<T extends { identity: UrlIdentity | null }>(): BoundedCache<T> {
  return new BoundedCache<T>({ maxEntries: LINK_TARGET_CACHE_ENTRIES, maxBytes: LINK_TARGET_CACHE_BYTES, sizeOf: (key, target) => linkTargetBytes(key, target.identity) });
}

/**
 * Origins (`scheme://host[:port]`) whose one shared string the link pipeline remembers at most, and
 * their estimated bytes: a crawl meets few origins and many URLs of each.
 */
export const ORIGIN_CACHE_ENTRIES = 100_000;
export const ORIGIN_CACHE_BYTES = 8 * 1024 * 1024;

/** A byte-bounded map of an origin to the one string of it that cached link targets share. */
export function originCache(): BoundedCache<string> {
  return new BoundedCache<string>({ maxEntries: ORIGIN_CACHE_ENTRIES, maxBytes: ORIGIN_CACHE_BYTES, sizeOf: (origin) => estimateStringBytes(origin) + 64 });
}

/** A bounded set of raw spellings already stored as aliases (see {@link ALIAS_CACHE_ENTRIES}). */
export function aliasCache(): FingerprintCache {
  return new FingerprintCache({ maxEntries: ALIAS_CACHE_ENTRIES, values: false });
}
