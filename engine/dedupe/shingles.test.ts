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
  /** Deterministic pseudo-random text mixing ASCII, Latin-1, punctuation, CJK, combining marks and astral characters. */
  function randomText(seed: number, length: number): string {
    const alphabet = ['a', 'B', 'z', '0', '9', ' ', ' ', '\n', ',', '.', '-', '_', "'", 'é', 'Ü', 'ß', '¶', '\u00a0', '—', '’', '日', '本', '\u0301', '😀', '𝒜', 'İ', 'K', 'ǅ', '٣', '\ud800', '\udc00', '\ud835'];
    let x = seed;
    let text = '';
    for (let i = 0; i < length; i += 1) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      text += alphabet[x % alphabet.length];
    }
    return text;
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
      let x = seed;
      let text = '';
      for (let i = 0; i < seed * 7; i += 1) {
        x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
        // Letters and digits most of the time, so that words run over several characters.
        text += x % 3 === 0 ? ascii[x % 0x80] : 'aZ09qQmM'[x % 8];
      }
      const words_ = textWords(text);
      const sketch = textSketch(text);
      expect(sketch?.normalized ?? '', JSON.stringify(text)).toBe(words_.join(' '));
      if (words_.length > 0) expect(Array.from(sketch!.minhash)).toEqual(Array.from(minhash(shinglesOfWords(words_))));
    }
  });

  it('textSketch leaves the ASCII path for any code unit above 0x7f, Latin-1 and lone surrogates included', () => {
    // One-byte strings in V8 (é, ÿ) and a lone surrogate are one UTF-16 unit but several UTF-8 bytes.
    for (const text of ['Caf\u00e9 au lait noir sucr\u00e9', 'one two three \u00ff four five', 'alpha \ud800 beta gamma delta', 'x'.repeat(70_000) + ' \u00e9t\u00e9 one two three']) {
      const words_ = textWords(text);
      const sketch = textSketch(text)!;
      expect(sketch.normalized).toBe(words_.join(' '));
      expect(Array.from(sketch.minhash)).toEqual(Array.from(minhash(shinglesOfWords(words_))));
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
