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
  return textWords(text).join(' ');
}

/** FNV-1a 32-bit hash of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
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
    let hash = 0x2545f491;
    for (let j = 0; j < SHINGLE_WORDS; j += 1) hash = mix(hash ^ wordHashes[i + j]!);
    hashes.add(hash);
  }
  return hashes;
}

const EMPTY = 0xffffffff;
const BORROWED = 1 << 26;

/**
 * MinHash sketch of a shingle set by one-permutation hashing with rotation densification
 * (Li, Owen & Zhang 2012; Shrivastava & Li 2014): each shingle is hashed once, its hash picks one
 * of MINHASH_SIZE bins and the bin keeps its minimum; an empty bin borrows the next non-empty
 * bin's value (circularly), marked with the distance so it only matches an equal borrowing. The
 * share of equal bins in two sketches estimates the sets' Jaccard similarity, as MINHASH_SIZE
 * separate hash functions would, at about 1/MINHASH_SIZE of the cost.
 */
export function minhash(shingles: Set<number>): Uint32Array {
  const sketch = new Uint32Array(MINHASH_SIZE).fill(EMPTY);
  for (const shingle of shingles) {
    const value = mix(shingle);
    const bin = value & (MINHASH_SIZE - 1);
    const rest = value >>> 6;
    if (rest < sketch[bin]!) sketch[bin] = rest;
  }
  if (shingles.size === 0) return sketch;
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
