/**
 * The normalized key (seed 001): the normalized "URL" is a perceptual hash, not a locator, so it
 * is handled as an opaque version 5 UUID under Crawlbench's own namespace, with the string kept
 * beside it for debugging.
 */
import { parseUuid, uuidV5 } from './sha1';

/**
 * Crawlbench's UUID namespace for normalized keys. Generated once (random, version 4) on
 * 2026-11-21. NEVER change it: every stored key (URL-seen test, duplicate groups, exports) is
 * derived from it, and a new namespace would make every old key unmatchable.
 */
export const NORMALIZED_KEY_NAMESPACE = '2016d1e3-9968-4735-8dc0-90274ae5f527';

const NAMESPACE_BYTES = parseUuid(NORMALIZED_KEY_NAMESPACE);

/**
 * The normalized key of a normalized URL string: UUIDv5(NORMALIZED_KEY_NAMESPACE, UTF-8 string).
 * Same string → same key, on any machine, forever.
 * @example normalizedKey('http://example.com/document') → 'fa103210-7417-5691-af80-774fb1f134e0' (= uuid's v5('http://example.com/document', NORMALIZED_KEY_NAMESPACE))
 */
export function normalizedKey(normalized: string): string {
  return uuidV5(normalized, NAMESPACE_BYTES);
}
