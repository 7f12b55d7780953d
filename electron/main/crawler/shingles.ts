/**
 * Content fingerprints for the content-seen test (IIR 19.6, 20.2): words, word shingles and a
 * MinHash sketch. Pure functions; the SHA-256 fingerprint is computed by the worker with node:crypto.
 */

/** Values in a MinHash sketch. 64 gives a Jaccard estimate with standard error ≈ 0.04 at J = 0.9. */
export const MINHASH_SIZE = 64;
/** LSH bands × rows = MINHASH_SIZE; candidate threshold ≈ (1/16)^(1/4) ≈ 0.5. */
export const LSH_BANDS = 16;
export const LSH_ROWS = MINHASH_SIZE / LSH_BANDS;
/** Words per shingle (IIR 19.6 uses 4). */
export const SHINGLE_WORDS = 4;

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Splits text into normalized words: lowercase runs of Unicode letters and digits.
 * @example textWords('  Hello,\n WORLD! ') // ['hello', 'world']
 */
export function textWords(text: string): string[] {
  const lower = text.toLowerCase();
  // Most pages are ASCII: a plain character class is several times faster than Unicode properties.
  const words = !NON_ASCII.test(lower) ? lower.split(/[^a-z0-9]+/) : lower.split(/[^\p{L}\p{N}]+/u);
  if (words[0] === '') words.shift();
  if (words.length > 0 && words[words.length - 1] === '') words.pop();
  return words;
}

/**
 * Normalized text: the words joined by single spaces (what the exact fingerprint hashes).
 * @example normalizeText('  Hello,\n WORLD!  Ünïcode—text ') // 'hello world ünïcode text'
 */
export function normalizeText(text: string): string {
  // Same result as textWords(text).join(' '), without the word array. Almost every page has some
  // non-ASCII character (a pilcrow, a curly quote), and a Unicode-property regex over the whole
  // text costs about 4x a plain one: ASCII separators go first, then only the non-ASCII runs meet
  // the Unicode classes, then the spaces both left are folded.
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower.replace(/[^a-z0-9]+/g, ' ').trim();
  return lower
    .replace(/[^a-z0-9\u0080-\uffff]+/g, ' ')
    .replace(/[\u0080-\uffff]+/g, (run) => run.replace(/[^\p{L}\p{N}]+/gu, ' '))
    .replace(/ {2,}/g, ' ')
    .trim();
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** Start value of a shingle's hash (mixed with each of its word hashes in turn). */
const SHINGLE_SEED = 0x2545f491;

/** FNV-1a 32-bit hash of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

/** murmur3's 32-bit finalizer: a cheap, well-mixing permutation of 32-bit values. */
function mix(value: number): number {
  let x = value;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * Hashes of the distinct `SHINGLE_WORDS`-word shingles of a word list (a list shorter than one
 * shingle is one shingle). Each word is hashed once; a shingle's hash mixes its words' hashes.
 * @example shingleHashes(['a', 'b', 'c', 'd', 'e']).size // 2 ('a b c d', 'b c d e')
 */
export function shingleHashes(words: readonly string[]): Set<number> {
  const hashes = new Set<number>();
  if (words.length === 0) return hashes;
  if (words.length < SHINGLE_WORDS) {
    hashes.add(fnv1a(words.join(' ')));
    return hashes;
  }
  const wordHashes = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i += 1) wordHashes[i] = fnv1a(words[i]!);
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i += 1) {
    let hash = SHINGLE_SEED;
    for (let j = 0; j < SHINGLE_WORDS; j += 1) hash = mix(hash ^ wordHashes[i + j]!);
    hashes.add(hash);
  }
  return hashes;
}

const EMPTY = 0xffffffff;
const BORROWED = 1 << 26;

/** An empty sketch: every bin waiting for its minimum. */
function emptySketch(): Uint32Array {
  return new Uint32Array(MINHASH_SIZE).fill(EMPTY);
}

/** Offers one shingle hash to a sketch: it picks a bin, which keeps its minimum. */
function addShingle(sketch: Uint32Array, shingle: number): void {
  const value = mix(shingle);
  const bin = value & (MINHASH_SIZE - 1);
  const rest = value >>> 6;
  if (rest < sketch[bin]!) sketch[bin] = rest;
}

/** Fills empty bins by rotation (each borrows the next non-empty bin's value, marked with the distance). */
function densify(sketch: Uint32Array): Uint32Array {
  const filled = Uint32Array.from(sketch);
  for (let bin = 0; bin < MINHASH_SIZE; bin += 1) {
    if (sketch[bin] !== EMPTY) continue;
    for (let step = 1; step < MINHASH_SIZE; step += 1) {
      const source = sketch[(bin + step) % MINHASH_SIZE]!;
      if (source !== EMPTY) {
        filled[bin] = BORROWED + step * (1 << 20) + (source >>> 6);
        break;
      }
    }
  }
  return filled;
}

/**
 * MinHash sketch of a shingle set by one-permutation hashing with rotation densification
 * (Li, Owen & Zhang 2012; Shrivastava & Li 2014): each shingle is hashed once, its hash picks one
 * of MINHASH_SIZE bins and the bin keeps its minimum; an empty bin borrows the next non-empty
 * bin's value (circularly), marked with the distance so it only matches an equal borrowing. The
 * share of equal bins in two sketches estimates the sets' Jaccard similarity, as MINHASH_SIZE
 * separate hash functions would, at about 1/MINHASH_SIZE of the cost.
 */
export function minhash(shingles: Set<number>): Uint32Array {
  const sketch = emptySketch();
  if (shingles.size === 0) return sketch;
  for (const shingle of shingles) addShingle(sketch, shingle);
  return densify(sketch);
}

/** A text's normalized form, word count and MinHash sketch (see {@link textSketch}). */
export interface TextSketch {
  /** The words joined by single spaces: {@link normalizeText}. */
  normalized: string;
  words: number;
  /** Equal to `minhash(shingleHashes(textWords(text)))`. */
  minhash: Uint32Array;
}

/**
 * Normalizes a text and sketches its shingles in one pass over the normalized string, without a
 * word list or a shingle set (a bin's minimum does not change when a shingle repeats). Same
 * results as {@link normalizeText} and `minhash(shingleHashes(textWords(text)))`, at a fraction of
 * the allocation; this is the crawler's per-page path.
 * @returns null when the text has no words
 */
export function textSketch(text: string): TextSketch | null {
  const normalized = normalizeText(text);
  if (normalized === '') return null;
  const sketch = emptySketch();
  // The hashes of the last four words (SHINGLE_WORDS), oldest first; int32 arithmetic throughout.
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let w3 = 0;
  let words = 0;
  let hash = FNV_OFFSET;
  const length = normalized.length;
  for (let i = 0; i <= length; i += 1) {
    const code = i === length ? 0x20 : normalized.charCodeAt(i);
    if (code !== 0x20) {
      hash = Math.imul(hash ^ code, FNV_PRIME);
      continue;
    }
    w0 = w1;
    w1 = w2;
    w2 = w3;
    w3 = hash >>> 0;
    words += 1;
    hash = FNV_OFFSET;
    if (words >= SHINGLE_WORDS) addShingle(sketch, mix(mix(mix(mix(SHINGLE_SEED ^ w0) ^ w1) ^ w2) ^ w3));
  }
  // Fewer words than a shingle: the whole text is one shingle (as shingleHashes does).
  if (words < SHINGLE_WORDS) addShingle(sketch, fnv1a(normalized));
  return { normalized, words, minhash: densify(sketch) };
}

/** Estimated Jaccard similarity of the sets two sketches come from, in [0, 1]. */
export function estimatedJaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== MINHASH_SIZE || b.length !== MINHASH_SIZE) return 0;
  let equal = 0;
  for (let i = 0; i < MINHASH_SIZE; i += 1) if (a[i] === b[i]) equal += 1;
  return equal / MINHASH_SIZE;
}

/** The LSH bucket of each band of a sketch (a signed 32-bit integer per band, for SQLite). */
export function bandBuckets(sketch: ArrayLike<number>): number[] {
  const buckets: number[] = [];
  for (let band = 0; band < LSH_BANDS; band += 1) {
    let hash = band;
    for (let row = 0; row < LSH_ROWS; row += 1) hash = mix(hash ^ sketch[band * LSH_ROWS + row]!);
    buckets.push(hash | 0);
  }
  return buckets;
}
