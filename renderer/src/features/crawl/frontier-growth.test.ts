import { describe, expect, it } from 'vitest';
import type { CrawlProgress } from '../../../../shared/types/crawl';
import { addGrowthSample, frontierGrowth, growthSample, GROWTH_SAMPLES, type GrowthSample } from './frontier-growth';

const progress = (elapsedMs: number, fetched: number, errors: number, queued: number): CrawlProgress => ({
  crawlId: 1,
  status: 'running',
  fetched,
  errors,
  queued,
  inFlight: 2,
  pagesPerSecond: 0,
  elapsedMs,
  refusedByRule: {},
  duplicates: 0,
});

describe('frontier growth (done vs discovered, no percentage)', () => {
  it('on a crawler trap the frontier grows: each page done discovers more than one new URL', () => {
    let samples: GrowthSample[] = [];
    // An endless calendar: every month fetched links to two not yet seen.
    for (let second = 0; second <= 30; second += 1) samples = addGrowthSample(samples, growthSample(progress(second * 1000, second * 10, 0, 20 + second * 10)));
    const growth = frontierGrowth(samples)!;
    expect(growth.trend).toBe('growing');
    expect(growth).toMatchObject({ done: 300, discovered: 622, doneInWindow: 100, discoveredInWindow: 200, windowMs: 10_000 });
  });

  it('a finite site converges: the queue shortens as pages are done', () => {
    let samples: GrowthSample[] = [];
    for (let second = 0; second <= 20; second += 1) samples = addGrowthSample(samples, growthSample(progress(second * 1000, second * 10, second, Math.max(0, 200 - second * 11))));
    expect(frontierGrowth(samples)!.trend).toBe('converging');
  });

  it('says idle when nothing moved, and nothing before the first report', () => {
    expect(frontierGrowth([])).toBeNull();
    const samples = [growthSample(progress(0, 5, 1, 0)), growthSample(progress(5000, 5, 1, 0))];
    expect(frontierGrowth(samples)).toMatchObject({ trend: 'idle', done: 6, discovered: 8 });
  });

  it('keeps a bounded series and restarts it when crawl time goes back (another crawl)', () => {
    let samples: GrowthSample[] = [];
    for (let i = 0; i < GROWTH_SAMPLES * 2; i += 1) samples = addGrowthSample(samples, growthSample(progress(i * 250, i, 0, i)));
    expect(samples).toHaveLength(GROWTH_SAMPLES);
    expect(addGrowthSample(samples, growthSample(progress(0, 0, 0, 1)))).toHaveLength(1);
  });
});
