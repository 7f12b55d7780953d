/**
 * The content-seen test's shapes and rules that every crawl store shares (seed 003; IIR 19.6 and
 * 20.2): the verdict, the options, the sketch encoding and cache, and the candidate walk over LSH
 * band buckets with its verification by estimated Jaccard. The stores (store/sqlite/content-dedupe.ts,
 * store/postgres/content-dedupe.ts) read and write the rows; what a page is compared with, and how
 * the best match is chosen, is decided here once.
 */
import { estimatedJaccard } from './shingles';

/** How a page's content relates to earlier pages of the crawl. */
export type ContentVerdict =
  | { kind: 'unique' }
  | { kind: 'exact'; groupId: number; duplicateOf: number }
  | { kind: 'near'; groupId: number; duplicateOf: number; similarity: number };

export interface ContentDedupeOptions {
  /** Estimated Jaccard similarity at or above which two pages are near-duplicates. */
  threshold: number;
  /** Pages with fewer words are only compared exactly (tiny pages are trivially "similar"). @default 20 */
  minWordsForNear?: number;
  /** Candidates verified per page at most (a bucket of boilerplate pages can be large). @default 64 */
  maxCandidates?: number;
}

/** {@link ContentDedupeOptions.minWordsForNear}'s default. */
export const DEFAULT_MIN_WORDS_FOR_NEAR = 20;
/** {@link ContentDedupeOptions.maxCandidates}'s default. */
export const DEFAULT_MAX_CANDIDATES = 64;

/** A sketch as stored (`pages.minhash`: SQLite BLOB, PostgreSQL bytea): its uint32 values, little-endian, back to back. */
export function sketchToBlob(sketch: Uint32Array): Buffer {
  return Buffer.from(sketch.buffer, sketch.byteOffset, sketch.byteLength);
}

/** A stored sketch ({@link sketchToBlob}) read back; an empty sketch when none is stored (it matches nothing). */
export function sketchFromBlob(blob: Buffer | Uint8Array | null): Uint32Array {
  if (!blob) return new Uint32Array(0);
  return new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

/**
 * The near-duplicate candidates of a page, in the order they are verified: band by band, the
 * members of the page's bucket in that band (`membersOf(band, limit)`: at most `limit` URL ids of
 * the bucket other than the page, in the store's index order), each id once, until
 * `maxCandidates` distinct ids are met. A band asks for the room left, so a crowded bucket of
 * boilerplate pages cannot crowd out the later bands.
 */
export function walkCandidates(bands: number, membersOf: (band: number, limit: number) => readonly number[], maxCandidates: number): number[] {
  // At most maxCandidates (64) ids: a scan of the array tells a repeat sooner than a Set's hashing,
  // and allocates nothing but the array.
  const candidates: number[] = [];
  for (let band = 0; band < bands && candidates.length < maxCandidates; band += 1) {
    for (const candidate of membersOf(band, maxCandidates - candidates.length)) if (!candidates.includes(candidate)) candidates.push(candidate);
  }
  return candidates;
}

/**
 * The candidate most similar to `sketch` by estimated Jaccard, at or above `threshold` (the first
 * of equals in candidate order), or null when none reaches it. `sketchOf` gives a candidate's sketch.
 */
export function bestNearMatch(sketch: Uint32Array, candidates: readonly number[], sketchOf: (urlId: number) => Uint32Array, threshold: number): { urlId: number; similarity: number } | null {
  return bestMatchBy(candidates, (candidate) => estimatedJaccard(sketch, sketchOf(candidate)), threshold);
}

/**
 * {@link bestNearMatch} with the similarity given per candidate (`similarityOf`: the estimated
 * Jaccard of the page's sketch and the candidate's, in [0, 1]), for a store that compares sketches
 * where it holds them (SketchCache.equalValues) instead of handing each out.
 */
export function bestMatchBy(candidates: readonly number[], similarityOf: (urlId: number) => number, threshold: number): { urlId: number; similarity: number } | null {
  let best: { urlId: number; similarity: number } | null = null;
  for (const candidate of candidates) {
    const similarity = similarityOf(candidate);
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { urlId: candidate, similarity };
  }
  return best;
}
