import { describe, expect, it } from 'vitest';
import { bandBuckets, estimatedJaccard, LSH_BANDS, minhash, normalizeText, shingleHashes as shinglesOfWords, textWords } from './shingles';

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
