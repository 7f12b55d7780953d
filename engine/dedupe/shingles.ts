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

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * One lookup per one-byte code unit (U+0000-U+00FF): the unit lowercased (toLowerCase maps A-Z
 * and À-Þ but ×, each to one character within U+0000-U+00FF) when that is a letter or digit
 * (`\p{L}|\p{N}`), 0 for a separator. The one-byte path lowercases and classes its bytes by it;
 * the Unicode path, whose text is lowercased already, tells its ASCII word characters by it.
 */
const ONE_BYTE_CLASS = new Uint8Array(0x100);
for (let code = 0; code < 0x100; code += 1) {
  const lower = String.fromCharCode(code).toLowerCase();
  if (lower.length === 1 && lower.charCodeAt(0) < 0x100 && LETTER_OR_DIGIT.test(lower)) ONE_BYTE_CLASS[code] = lower.charCodeAt(0);
}
/** Non-ASCII UTF-16 code units by class, filled on first sight: 0 unknown, 1 letter or digit, 2 not. */
const UNIT_CLASS = new Uint8Array(0x10000);
/**
 * Astral code points (surrogate pairs) by class, filled on first sight: 0 unknown, 1 letter or
 * digit, 2 not. A fixed 1 MB table: a Map grew with every code point a page used (to ~40 MB).
 */
const ASTRAL_CLASS = new Uint8Array(0x100000);

function isWordUnit(code: number): boolean {
  let known = UNIT_CLASS[code]!;
  if (known === 0) {
    known = LETTER_OR_DIGIT.test(String.fromCharCode(code)) ? 1 : 2;
    UNIT_CLASS[code] = known;
  }
  return known === 1;
}

function isWordCodePoint(high: number, low: number): boolean {
  const codePoint = (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  const index = codePoint - 0x10000;
  let known = ASTRAL_CLASS[index]!;
  if (known === 0) {
    known = LETTER_OR_DIGIT.test(String.fromCharCode(high, low)) ? 1 : 2;
    ASTRAL_CLASS[index] = known;
  }
  return known === 1;
}

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
  return textSketch(text)?.normalized ?? '';
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

/** murmur3's 32-bit finalizer: a cheap, well-mixing permutation (a bijection) of 32-bit values. */
export function fmix32(value: number): number {
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
    for (let j = 0; j < SHINGLE_WORDS; j += 1) hash = fmix32(hash ^ wordHashes[i + j]!);
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
  const value = fmix32(shingle);
  // The sketch's length is MINHASH_SIZE, read off the array: no module binding in the sketch loops.
  const bin = value & (sketch.length - 1);
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
 * Normalizes a text and sketches its shingles in one pass over the lowercased text: each
 * character is classed (ASCII by table, others by `\p{L}|\p{N}` once per distinct character),
 * copied into the normalized text and hashed into its word in the same step, without a word list
 * or a shingle set (a bin's minimum does not change when a shingle repeats). Same results as
 * `textWords(text).join(' ')` and `minhash(shingleHashes(textWords(text)))` (property-tested);
 * this is the crawler's per-page path. A text of one-byte characters (U+0000-U+00FF: ASCII, and the
 * Latin-1 letters, no-break spaces and signs of most Western pages) takes a path that lowercases by
 * table and builds the normalized text in one byte per character (see oneByteSketch for its cost),
 * with the same words, hashes and sketch.
 * @returns null when the text has no words
 */
export function textSketch(text: string): TextSketch | null {
  return oneByteTextSketch(text) ?? unicodeTextSketch(text);
}

/**
 * The one-pass sketch as words end: the hashes of the last four words (SHINGLE_WORDS), oldest
 * first, each window of them offered to the sketch as a shingle (int32 arithmetic throughout).
 */
class ShingleWindow {
  private w0 = 0;
  private w1 = 0;
  private w2 = 0;
  private w3 = 0;
  private words = 0;
  private readonly sketch = emptySketch();

  /** A word ended; `hash` is its FNV-1a hash. */
  endWord(hash: number): void {
    this.w0 = this.w1;
    this.w1 = this.w2;
    this.w2 = this.w3;
    this.w3 = hash >>> 0;
    this.words += 1;
    if (this.words >= SHINGLE_WORDS) addShingle(this.sketch, fmix32(fmix32(fmix32(fmix32(SHINGLE_SEED ^ this.w0) ^ this.w1) ^ this.w2) ^ this.w3));
  }

  /** {@link textSketch}'s result for the text whose words ended here: fewer words than a shingle are one shingle (as shingleHashes does). */
  finish(normalized: string): TextSketch | null {
    if (this.words === 0) return null;
    if (this.words < SHINGLE_WORDS) addShingle(this.sketch, fnv1a(normalized));
    return { normalized, words: this.words, minhash: densify(this.sketch) };
  }
}

/**
 * The one-byte path's bytes: the text's code units, one byte each (its UTF-8 encoding when that is
 * one byte a character, else written as Latin-1), then (in place, from the front) its normalized
 * text; reused, grows to the longest text seen.
 */
let oneByteBytes = new Uint8Array(64 * 1024);
const utf8 = new TextEncoder();
/** Code units above U+00FF, one at a time (a surrogate pair is two units). */
const ABOVE_LATIN1 = /[\u0100-\uffff]/g;
/**
 * log2 of the text length a unit above U+00FF may come once in, on the one-byte path (1 in 32;
 * the Python docs have 1 in about 800).
 */
const LATIN1_SEPARATOR_SHARE = 5;

/**
 * `text` with each code unit above U+00FF as a space (same length), or null when one of them keeps
 * the text off the one-byte path: a letter or digit (ł, 日, Ⅳ; classed as the Unicode path classes
 * them, once per distinct unit) or a surrogate (𝒜, emoji and lone ones alike). Any other unit
 * above U+00FF (’ — “ ” – …) is a separator on the Unicode path too. The units are visited by a
 * regular expression, and the first that keeps the text off ends the visit (a Cyrillic or CJK page
 * is refused at its first letter); then one native replace. A set-subtraction class
 * (`[[\p{L}\p{N}]--[\u0000-\u00ff]]`, flag v) took 11.5 ns a character on the Python docs' text.
 */
function latin1Separators(text: string): string | null {
  const above = ABOVE_LATIN1;
  above.lastIndex = 0;
  // A text with more than one unit in 2^LATIN1_SEPARATOR_SHARE above U+00FF (a page of box drawing
  // or arrows) goes to the Unicode path, which takes it in one pass, not a match at a time: a
  // 20,000-character page a third box drawing took 592-694 µs visited whole, 181-331 so (the
  // Unicode path alone: 159-394; this machine's noise).
  let budget = text.length >> LATIN1_SEPARATOR_SHARE;
  for (let match = above.exec(text); match !== null; match = above.exec(text)) {
    const code = text.charCodeAt(match.index);
    if ((code & 0xf800) === 0xd800 || isWordUnit(code) || --budget < 0) {
      above.lastIndex = 0;
      return null;
    }
  }
  return text.replace(above, ' ');
}

/**
 * What the one-byte path leaves: the normalized text is `oneByteBytes[0, size)`, one byte a code
 * unit, valid until the next call.
 */
interface OneByteSketch {
  size: number;
  words: number;
  minhash: Uint32Array;
  /** The text had code units above 0x7f: the normalized bytes are Latin-1, not UTF-8. */
  latin1: boolean;
}

/**
 * {@link textSketch} of a text whose letters and digits are all at or below U+00FF, its
 * normalized text left in `oneByteBytes` (see {@link OneByteSketch}); undefined for any other text
 * (see latin1Separators). The text is encoded once (TextEncoder.encodeInto: an all-ASCII text is
 * one byte per code unit; any other is written again as Latin-1, its separators above U+00FF as
 * spaces) and the loop reads bytes, not `charCodeAt`.
 * Reading bytes, on the synthetic site's 40,000-character pages: 0.19–0.24 ms a page instead of
 * 0.25–0.58 ms (30 rounds of 50 pages, both orders). Texts with a no-break space, a ¶, an é, a
 * curly quote or a dash (508 of the Python docs' 530 pages; the others have a letter above
 * U+00FF) took the Unicode path until this one took them (toLowerCase, then a code unit at a time
 * into UTF-16): textSketchUtf8 of the synthetic pages with no-break spaces and ï written in,
 * 362-372 µs a page there, 223-238 µs here; on the Python docs' own text both paths take about
 * 12 ns a character (its irregular punctuation, not the path, sets that pace; the synthetic
 * ASCII pages: 156-165 µs, about 4 ns a character). The normalized text is written over the
 * bytes already read (it is never longer than what it came from), and the shingle window is kept
 * in locals, not in a ShingleWindow, as prefixes of its hash chain (same hashes and sketch;
 * property-tested against the word-list path). The worker's fingerprintText (this, SHA-256 and
 * the excerpt) of a 40,000-character synthetic page, medians of 8 rounds of 3,000 pages
 * alternating with and without the 40 KB normalized string (textSketchUtf8): 185 and 177 µs in a
 * run before the prefixes, 164 and 156 µs in a run after them.
 */
function oneByteSketch(text: string): OneByteSketch | null | undefined {
  const length = text.length;
  if (oneByteBytes.length < length) oneByteBytes = new Uint8Array(Math.max(length, 2 * oneByteBytes.length));
  const bytes = oneByteBytes;
  const { read, written } = utf8.encodeInto(text, bytes);
  const latin1 = read !== length || written !== length;
  if (latin1) {
    const separated = latin1Separators(text);
    if (separated === null) return undefined;
    Buffer.from(bytes.buffer, bytes.byteOffset, length).write(separated, 'latin1');
  }
  const sketch = emptySketch();
  // The loop's constants as int32 locals: a module binding (a `var` in the bundle) is a value of
  // unknown type to the optimizing compiler, and the word hash it starts makes the loop carry a
  // boxed number; `| 0` types it. 40,000-character synthetic pages, alternating in one process:
  // 181-187 -> 156-157 µs a page (written as literals, 149-150).
  const classOf = ONE_BYTE_CLASS;
  const prime = FNV_PRIME | 0;
  const offset = FNV_OFFSET | 0;
  const seed = SHINGLE_SEED | 0;
  const shingleWords = SHINGLE_WORDS | 0;
  let size = 0;
  let inWord = false;
  let words = 0;
  // The shingle hash's chain, fmix32(fmix32(fmix32(fmix32(SEED ^ w0) ^ w1) ^ w2) ^ w3), kept by prefix: `one`
  // is fmix32(SEED ^ last word), `two` the chain over the last two words, `three` over the last three.
  // A word's end extends each prefix by it, four mixes that do not wait on one another (the CPU
  // runs them side by side), where hashing each window afresh chained four in a row. Same hashes.
  let one = 0;
  let two = 0;
  let three = 0;
  let hash = offset;
  for (let i = 0; i < length; i += 1) {
    const code = classOf[bytes[i]!]!;
    if (code !== 0) {
      if (!inWord) {
        // A separator was read before this word, so `size < i`: the write lands on a byte already read.
        if (size > 0) bytes[size++] = 0x20;
        inWord = true;
      }
      bytes[size++] = code;
      hash = Math.imul(hash ^ code, prime);
      continue;
    }
    if (!inWord) continue;
    // A word ended: the last SHINGLE_WORDS words, oldest first, make a shingle (as ShingleWindow.endWord).
    inWord = false;
    const word = hash >>> 0;
    words += 1;
    if (words >= shingleWords) addShingle(sketch, fmix32(three ^ word));
    three = fmix32(two ^ word);
    two = fmix32(one ^ word);
    one = fmix32(seed ^ word);
    hash = offset;
  }
  // The text's end ends its last word.
  if (inWord) {
    words += 1;
    if (words >= shingleWords) addShingle(sketch, fmix32(three ^ (hash >>> 0)));
  }
  if (words === 0) return null;
  // FNV-1a of the normalized bytes: its characters' code units (as fnv1a of the string).
  if (words < SHINGLE_WORDS) addShingle(sketch, fnv1aBytes(bytes, size));
  return { size, words, minhash: densify(sketch), latin1 };
}

/** FNV-1a 32-bit hash of `bytes[0, size)` (equal to {@link fnv1a} of their Latin-1 string). */
function fnv1aBytes(bytes: Uint8Array, size: number): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < size; i += 1) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash >>> 0;
}

/** The first `size` bytes the one-byte path left in `oneByteBytes`, as a string (one character a byte). */
function latin1String(size: number): string {
  return Buffer.from(oneByteBytes.buffer, oneByteBytes.byteOffset, size).toString('latin1');
}

/** {@link textSketch} of a text with no code unit above 0xff; undefined for any other text. */
function oneByteTextSketch(text: string): TextSketch | null | undefined {
  const sketch = oneByteSketch(text);
  if (!sketch) return sketch;
  const normalized = latin1String(sketch.size);
  return { normalized, words: sketch.words, minhash: sketch.minhash };
}

/** {@link textSketch}'s sketch with its normalized text as UTF-8 bytes and a prefix of it as a string ({@link textSketchUtf8}). */
export interface Utf8TextSketch {
  /**
   * The normalized text ({@link TextSketch.normalized}) in UTF-8. For an all-ASCII text, a view of
   * a buffer the next call overwrites: read it (hash it) before sketching another text.
   */
  normalizedUtf8: Uint8Array;
  /** The normalized text's length in UTF-16 code units (`TextSketch.normalized.length`). */
  normalizedChars: number;
  /** The normalized text's first `prefixChars` UTF-16 code units (fewer when shorter). */
  prefix: string;
  words: number;
  minhash: Uint32Array;
}

/**
 * {@link textSketch} for a caller that hashes the normalized text and keeps only its start (the
 * crawl worker: SHA-256 content fingerprint and excerpt). An all-ASCII text (most pages) never
 * becomes a normalized string: its bytes are handed over as they are, and only the prefix is
 * decoded. On the synthetic site's 40,000-character pages that saves a 40 KB string a page and
 * its UTF-8 encoding again for the hash. Same words, sketch and normalized text as textSketch (tested).
 * @param prefixChars UTF-16 code units of the normalized text wanted as a string (0 for none)
 * @returns null when the text has no words
 */
export function textSketchUtf8(text: string, prefixChars: number): Utf8TextSketch | null {
  const oneByte = oneByteSketch(text);
  if (oneByte === null) return null;
  if (oneByte !== undefined) {
    // Latin-1 bytes above 0x7f are two bytes each in UTF-8.
    const normalizedUtf8 = oneByte.latin1 ? Buffer.from(latin1String(oneByte.size), 'utf8') : oneByteBytes.subarray(0, oneByte.size);
    const prefix = prefixChars > 0 ? latin1String(Math.min(prefixChars, oneByte.size)) : '';
    return { normalizedUtf8, normalizedChars: oneByte.size, prefix, words: oneByte.words, minhash: oneByte.minhash };
  }
  const sketch = unicodeTextSketch(text);
  if (sketch === null) return null;
  const { normalized } = sketch;
  return { normalizedUtf8: Buffer.from(normalized, 'utf8'), normalizedChars: normalized.length, prefix: prefixChars > 0 ? normalized.slice(0, prefixChars) : '', words: sketch.words, minhash: sketch.minhash };
}

/** {@link textSketch} of any text: lowercased by toLowerCase, classed per code unit or surrogate pair. */
function unicodeTextSketch(text: string): TextSketch | null {
  const lower = text.toLowerCase();
  const length = lower.length;
  // The normalized text, built as UTF-16 code units: never longer than the input.
  const out = new Uint16Array(length);
  let size = 0;
  let inWord = false;
  const window = new ShingleWindow();
  // As in oneByteSketch: int32 locals, so the loop's word hash stays an unboxed integer.
  const prime = FNV_PRIME | 0;
  const offset = FNV_OFFSET | 0;
  let hash = offset;
  for (let i = 0; i <= length; i += 1) {
    const code = i === length ? 0x20 : lower.charCodeAt(i);
    let low = -1;
    let word: boolean;
    if (code < 0x80) word = ONE_BYTE_CLASS[code] !== 0;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length && (lower.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      low = lower.charCodeAt(i + 1);
      word = isWordCodePoint(code, low);
    } else word = isWordUnit(code);
    if (word) {
      if (!inWord) {
        if (size > 0) out[size++] = 0x20;
        inWord = true;
      }
      out[size++] = code;
      hash = Math.imul(hash ^ code, prime);
      if (low !== -1) {
        out[size++] = low;
        hash = Math.imul(hash ^ low, prime);
        i += 1;
      }
      continue;
    }
    if (low !== -1) i += 1;
    if (!inWord) continue;
    inWord = false;
    window.endWord(hash);
    hash = offset;
  }
  return window.finish(Buffer.from(out.buffer, 0, size * 2).toString('utf16le'));
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
    for (let row = 0; row < LSH_ROWS; row += 1) hash = fmix32(hash ^ sketch[band * LSH_ROWS + row]!);
    buckets.push(hash | 0);
  }
  return buckets;
}
