import { describe, expect, it } from 'vitest';
import { adaptiveDelayMs, politenessDelayMs, type PolitenessDelays } from './politeness';

const HERITRIX: PolitenessDelays = { minDelayMs: 100, maxDelayMs: 2_000, delayFactor: 5 };

describe('politenessDelayMs', () => {
  it.each([
    ['minDelayMs when k × fetch time is smaller', HERITRIX, 10, 0, 100],
    ['k × fetch time when it is the largest term', HERITRIX, 50, 0, 250],
    ['the server asked for more (Crawl-delay, Retry-After)', HERITRIX, 10, 700, 700],
    ['capped at maxDelayMs (k × fetch time)', HERITRIX, 10_000, 0, 2_000],
    ['capped at maxDelayMs (extra delay)', HERITRIX, 1, 99_999, 2_000],
    ['no delay at all when every knob is 0', { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 }, 500, 300, 0],
    ['fractional k (.5)', { minDelayMs: 0, maxDelayMs: 30_000, delayFactor: 0.5 }, 300, 0, 150],
    ['maxDelayMs wins over minDelayMs when lower', { minDelayMs: 5_000, maxDelayMs: 1_000, delayFactor: 0 }, 0, 0, 1_000],
  ])('%s', (_case, policy, lastFetchMs, extraDelayMs, expected) => {
    expect(politenessDelayMs(policy, lastFetchMs, extraDelayMs)).toBe(expected);
  });

  it('takes no extra delay by default', () => {
    expect(politenessDelayMs(HERITRIX, 50)).toBe(politenessDelayMs(HERITRIX, 50, 0));
  });

  it('adaptiveDelayMs is the uncapped max(min, k × fetch time)', () => {
    expect(adaptiveDelayMs(HERITRIX, 10)).toBe(100);
    expect(adaptiveDelayMs(HERITRIX, 10_000)).toBe(50_000);
  });
});
