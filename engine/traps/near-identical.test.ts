import { describe, expect, it } from 'vitest';
import { textSketch } from '../dedupe/shingles';
import { NearIdenticalDetector } from './near-identical';
import { DEFAULT_TRAP_THRESHOLDS } from './thresholds';
import { urlShape, urlTemplate } from './url-shape';

const grid = (month: number) =>
  `Events calendar Home About Contact Month ${month} Mo Tu We Th Fr Sa Su ${Array.from({ length: 30 }, (_, d) => d + 1).join(' ')} No events this month Subscribe to the calendar Footer links privacy terms`;

function observe(detector: NearIdenticalDetector, url: string, text: string) {
  const shape = urlShape(url)!;
  return detector.observePage(url, shape, urlTemplate(shape), textSketch(text)!.minhash);
}

describe('near-identical pages under one template', () => {
  it('fires on empty calendar months once five pages are near-identical to an earlier one', () => {
    const detector = new NearIdenticalDetector(DEFAULT_TRAP_THRESHOLDS);
    const results = [1, 2, 3, 4, 5, 6].map((month) => observe(detector, `http://cal.test/calendar/2031/${month}`, grid(month)));
    expect(results.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(results[5]).toMatchObject({ detector: 'near-identical', template: '/calendar/{n}/{n}' });
  });

  it('does not fire on pages of one template whose text differs (a paginated list, release notes)', () => {
    const detector = new NearIdenticalDetector(DEFAULT_TRAP_THRESHOLDS);
    for (let page = 1; page <= 40; page += 1) {
      const items = Array.from({ length: 10 }, (_, i) => `item ${page * 10 + i} widget model ${(page * 37 + i * 11) % 97} costs ${page + i} euros`).join(' ');
      expect(observe(detector, `http://shop.test/list?page=${page}`, `Shop list page ${items}`)).toBeNull();
    }
  });

  it('ignores pages without a variable part in their URL', () => {
    const detector = new NearIdenticalDetector({ nearIdenticalPages: 1, nearIdenticalSimilarity: 0.5 });
    expect(observe(detector, 'http://a.test/about', grid(1))).toBeNull();
    expect(observe(detector, 'http://a.test/about', grid(1))).toBeNull();
  });
});
