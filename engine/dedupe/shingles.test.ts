import { describe, expect, it } from 'vitest';
import { bandBuckets, estimatedJaccard, LSH_BANDS, minhash, normalizeText, shingleHashes as shinglesOfWords, textSketch, textSketchUtf8, textWords } from './shingles';

const shingleHashes = (text: string) => shinglesOfWords(textWords(text));

const words = (n: number, offset = 0): string => Array.from({ length: n }, (_, i) => `w${i + offset}`).join(' ');

/** Exact Jaccard of two shingle sets. */
function jaccard(a: Set<number>, b: Set<number>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared += 1;
  return shared / (a.size + b.size - shared);
}

describe('content fingerprints (IIR 19.6)', () => {
  it('normalizes case, punctuation and whitespace', () => {
    expect(normalizeText('  Hello,\n WORLD!  Ünïcode—text ')).toBe('hello world ünïcode text');
  });

  it('makes 4-word shingles', () => {
    expect(shingleHashes('a b c d e').size).toBe(2);
    expect(shingleHashes('a b').size).toBe(1);
    expect(shingleHashes('').size).toBe(0);
  });

  it('identical texts have identical sketches and buckets', () => {
    const a = minhash(shingleHashes(normalizeText(words(300))));
    const b = minhash(shingleHashes(normalizeText(words(300))));
    expect(estimatedJaccard(a, b)).toBe(1);
    expect(bandBuckets(a)).toEqual(bandBuckets(b));
    expect(bandBuckets(a)).toHaveLength(LSH_BANDS);
  });

  it('estimates Jaccard within sampling error: near-duplicates high, unrelated texts low', () => {
    const base = shingleHashes(words(1000));
    const near = shingleHashes(`${words(1000)} ${words(20, 5000)}`); // 20 extra words: J ≈ 0.98
    const half = shingleHashes(`${words(500)} ${words(500, 9000)}`); // half shared: J ≈ 0.33
    const other = shingleHashes(words(1000, 20000));
    const sketch = minhash(base);
    expect(Math.abs(estimatedJaccard(sketch, minhash(near)) - jaccard(base, near))).toBeLessThan(0.12);
    expect(Math.abs(estimatedJaccard(sketch, minhash(half)) - jaccard(base, half))).toBeLessThan(0.15);
    expect(estimatedJaccard(sketch, minhash(other))).toBeLessThan(0.1);
  });

  it('near-duplicates share at least one LSH band; unrelated texts share none', () => {
    const a = bandBuckets(minhash(shingleHashes(words(1000))));
    const b = bandBuckets(minhash(shingleHashes(`${words(1000)} ${words(20, 5000)}`)));
    const c = bandBuckets(minhash(shingleHashes(words(1000, 20000))));
    expect(a.some((bucket, band) => bucket === b[band])).toBe(true);
    expect(a.some((bucket, band) => bucket === c[band])).toBe(false);
  });
});

describe('textWords', () => {
  it('splits ASCII and Unicode text the same way', () => {
    expect(textWords('Hello, WORLD 42!')).toEqual(['hello', 'world', '42']);
    expect(textWords('Grüße — naïve café 日本語')).toEqual(['grüße', 'naïve', 'café', '日本語']);
    expect(textWords('  ')).toEqual([]);
  });
});

describe('the one-pass text path (normalizeText, textSketch)', () => {
  /** `length` pieces of deterministic pseudo-random text: `piece` of each step of a 32-bit LCG started at `seed`. */
  function lcgText(seed: number, length: number, piece: (x: number) => string): string {
    let x = seed;
    let text = '';
    for (let i = 0; i < length; i += 1) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      text += piece(x);
    }
    return text;
  }

  /** Deterministic pseudo-random text mixing ASCII, Latin-1, punctuation, CJK, combining marks and astral characters. */
  function randomText(seed: number, length: number): string {
    const alphabet = ['a', 'B', 'z', '0', '9', ' ', ' ', '\n', ',', '.', '-', '_', "'", 'é', 'Ü', 'ß', '¶', '\u00a0', '—', '’', '日', '本', '\u0301', '😀', '𝒜', 'İ', 'K', 'ǅ', '٣', '\ud800', '\udc00', '\ud835'];
    return lcgText(seed, length, (x) => alphabet[x % alphabet.length]!);
  }

  it('normalizeText is textWords joined by single spaces, on ASCII and Unicode text', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const text = randomText(seed, 1 + (seed % 97));
      expect(normalizeText(text), JSON.stringify(text)).toBe(textWords(text).join(' '));
    }
    expect(normalizeText('Plain ASCII, only!')).toBe('plain ascii only');
  });

  it('textSketch gives the same normalized text, word count and sketch as the word-list path', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const text = seed % 3 === 0 ? words(seed * 3) : randomText(seed, seed * 5);
      const words_ = textWords(text);
      const sketch = textSketch(text);
      if (words_.length === 0) {
        expect(sketch).toBeNull();
        continue;
      }
      expect(sketch?.normalized).toBe(words_.join(' '));
      expect(sketch?.words).toBe(words_.length);
      expect(Array.from(sketch!.minhash)).toEqual(Array.from(minhash(shinglesOfWords(words_))));
    }
  });

  it('textSketch of all-ASCII text (its table-lowercasing path) matches the word-list path, upper case, digits, controls and all', () => {
    const ascii = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code));
    for (let seed = 1; seed <= 200; seed += 1) {
      // Letters and digits most of the time, so that words run over several characters.
      const text = lcgText(seed, seed * 7, (x) => (x % 3 === 0 ? ascii[x % 0x80]! : 'aZ09qQmM'[x % 8]!));
      const words_ = textWords(text);
      const sketch = textSketch(text);
      expect(sketch?.normalized ?? '', JSON.stringify(text)).toBe(words_.join(' '));
      if (words_.length > 0) expect(Array.from(sketch!.minhash)).toEqual(Array.from(minhash(shinglesOfWords(words_))));
    }
  });

  it('textSketch of texts with code units above 0x7f matches the word-list path: Latin-1 (the one-byte path), a lone surrogate (the Unicode path)', () => {
    // é and ÿ are one UTF-16 unit but two UTF-8 bytes; a lone surrogate takes the Unicode path.
    for (const text of ['Caf\u00e9 au lait noir sucr\u00e9', 'one two three \u00ff four five', 'alpha \ud800 beta gamma delta', 'x'.repeat(70_000) + ' \u00e9t\u00e9 one two three']) {
      const words_ = textWords(text);
      const sketch = textSketch(text)!;
      expect(sketch.normalized).toBe(words_.join(' '));
      expect(Array.from(sketch.minhash)).toEqual(Array.from(minhash(shinglesOfWords(words_))));
    }
  });

  it('the one-byte path takes every code unit up to 0xff: random Latin-1 texts match the word-list path, in textSketch and textSketchUtf8', () => {
    // Every code unit 0x00-0xff (controls, no-break space, ¶, ×, ß, ÿ, À-Þ that lowercase, ª º µ ² ¼ that are letters or digits), letters most of the time.
    const all = Array.from({ length: 0x100 }, (_, code) => String.fromCharCode(code));
    for (let seed = 1; seed <= 300; seed += 1) {
      const text = lcgText(seed, seed * 3, (x) => (x % 3 === 0 ? all[(x >>> 8) % 0x100]! : 'aZéÉßÿ9µ'[(x >>> 8) % 8]!));
      const words_ = textWords(text);
      const sketch = textSketch(text);
      const utf8 = textSketchUtf8(text, 7);
      if (words_.length === 0) {
        expect(sketch, JSON.stringify(text)).toBeNull();
        expect(utf8).toBeNull();
        continue;
      }
      expect(sketch!.normalized, JSON.stringify(text)).toBe(words_.join(' '));
      expect(Array.from(sketch!.minhash)).toEqual(Array.from(minhash(shinglesOfWords(words_))));
      expect(Buffer.from(utf8!.normalizedUtf8).toString('utf8')).toBe(sketch!.normalized);
      expect(utf8!.normalizedChars).toBe(sketch!.normalized.length);
      expect(utf8!.prefix).toBe(sketch!.normalized.slice(0, 7));
      expect(Array.from(utf8!.minhash)).toEqual(Array.from(sketch!.minhash));
    }
  });

  it('the one-byte path takes separators above U+00FF as spaces (curly quotes, dashes, box drawing, emoji): random texts match the word-list path', () => {
    // \u2261 (≡) and \u2665 (♥) have letters as their low bytes (a, e): a path that kept low bytes would read them as letters.
    const pieces = ['it', 'Éte', 'ß', '9', ' ', '\u00a0', '\u2019', '\u2014', '\u201c', '\u201d', '\u2026', '\u2500', '\u{1F600}', '\u2261', 'a\u2665b', 'x\u2019s', '\u00b6', ',', 'Ünï'];
    for (let seed = 1; seed <= 300; seed += 1) {
      const text = lcgText(seed, seed * 2, (x) => pieces[(x >>> 8) % pieces.length]!);
      const words_ = textWords(text);
      const sketch = textSketch(text);
      const utf8 = textSketchUtf8(text, 9);
      if (words_.length === 0) {
        expect(sketch, JSON.stringify(text)).toBeNull();
        continue;
      }
      expect(sketch!.normalized, JSON.stringify(text)).toBe(words_.join(' '));
      expect(Array.from(sketch!.minhash)).toEqual(Array.from(minhash(shinglesOfWords(words_))));
      expect(Buffer.from(utf8!.normalizedUtf8).toString('utf8')).toBe(sketch!.normalized);
      expect(utf8!.prefix).toBe(sketch!.normalized.slice(0, 9));
    }
  });

  it('textSketchUtf8 gives textSketch\'s normalized text as UTF-8, its length, prefix, words and sketch, on both paths', () => {
    const texts = [
      ...Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? words(i * 7 + 1) : randomText(i, i * 11))),
      'Two words',
      ' ,.; ',
      'Caf\u00e9 au lait noir sucr\u00e9 \u{1F600} encore une fois',
    ];
    for (const text of texts) {
      for (const prefixChars of [0, 5, 100_000]) {
        const expected = textSketch(text);
        const got = textSketchUtf8(text, prefixChars);
        if (expected === null) {
          expect(got, JSON.stringify(text)).toBeNull();
          continue;
        }
        expect(Buffer.from(got!.normalizedUtf8).toString('utf8'), JSON.stringify(text)).toBe(expected.normalized);
        expect(got!.normalizedChars).toBe(expected.normalized.length);
        expect(got!.prefix).toBe(expected.normalized.slice(0, prefixChars));
        expect(got!.words).toBe(expected.words);
        expect(Array.from(got!.minhash)).toEqual(Array.from(expected.minhash));
      }
    }
  });

  it('textSketch of a text shorter than one shingle hashes the whole text as one shingle', () => {
    expect(Array.from(textSketch('Two words')!.minhash)).toEqual(Array.from(minhash(shinglesOfWords(['two', 'words']))));
    expect(textSketch(' ,.; ')).toBeNull();
  });
});
