import { describe, expect, it } from 'vitest';
import { BucketFilter } from './bucket-filter';

/** A deterministic stream of signed 32-bit values (xorshift32). */
function* randomInts(seed: number): Generator<number> {
  let x = seed | 0;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield x | 0;
  }
}

describe('BucketFilter', () => {
  it('never answers false for an added bucket, and rarely true for others (16 bands × 100,000 pages)', () => {
    const filter = new BucketFilter();
    const added = randomInts(7);
    const entries: [number, number][] = [];
    for (let page = 0; page < 100_000; page += 1) {
      for (let band = 0; band < 16; band += 1) {
        const bucket = added.next().value as number;
        filter.add(band, bucket);
        entries.push([band, bucket]);
      }
    }
    expect(entries.every(([band, bucket]) => filter.mightHold(band, bucket))).toBe(true);
    const absent = randomInts(99);
    let falsePositives = 0;
    for (let probe = 0; probe < 100_000; probe += 1) if (filter.mightHold(probe % 16, absent.next().value as number)) falsePositives += 1;
    // 1.6M bits of 2^26 set: about 2.4% expected.
    expect(falsePositives / 100_000).toBeGreaterThan(0.015);
    expect(falsePositives / 100_000).toBeLessThan(0.035);
  });

  it('tells bands apart: a bucket added in one band is not reported for another', () => {
    const filter = new BucketFilter();
    filter.add(3, 12345);
    expect(filter.mightHold(3, 12345)).toBe(true);
    expect([0, 1, 2, 4, 15].some((band) => filter.mightHold(band, 12345))).toBe(false);
  });
});
