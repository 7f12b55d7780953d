import { describe, expect, it } from 'vitest';
import { CounterSequenceDetector } from './counter-sequence';
import { DEFAULT_TRAP_THRESHOLDS } from './thresholds';
import { urlShape, urlTemplate } from './url-shape';

const node = (url: string) => {
  const shape = urlShape(url)!;
  return { url, shape, template: urlTemplate(shape) };
};

describe('counter and calendar sequences', () => {
  it('fires when next-month links go on past the chain threshold, holding the template', () => {
    const detector = new CounterSequenceDetector(DEFAULT_TRAP_THRESHOLDS);
    let year = 2026;
    let month = 11;
    let parent = node(`http://cal.test/calendar/${year}/${month}`);
    let fired = null;
    let links = 0;
    while (fired === null && links < 100) {
      month += 1;
      if (month > 12) [year, month] = [year + 1, 1];
      const child = node(`http://cal.test/calendar/${year}/${month}`);
      fired = detector.observeLink(parent, child);
      parent = child;
      links += 1;
    }
    expect(links).toBe(DEFAULT_TRAP_THRESHOLDS.counterChain);
    expect(fired!.template).toBe('/calendar/{n}/{n}');
    expect(new RegExp(fired!.pattern).test('http://cal.test/calendar/1999/1')).toBe(true);
    expect(new RegExp(fired!.pattern).test('http://cal.test/calendar/')).toBe(false);
  });

  it('does not fire on a paginated list that ends, nor on blog paths of one post each', () => {
    const detector = new CounterSequenceDetector(DEFAULT_TRAP_THRESHOLDS);
    for (let page = 1; page < 25; page += 1) expect(detector.observeLink(node(`http://shop.test/list?page=${page}`), node(`http://shop.test/list?page=${page + 1}`))).toBeNull();
    for (let day = 1; day < 28; day += 1) expect(detector.observeLink(node(`http://blog.test/2024/05/${day}/post-${day}`), node(`http://blog.test/2024/05/${day + 1}/post-${day + 1}`))).toBeNull();
  });

  it('does not fire on pages of one template that link to each other at random (a big product catalogue)', () => {
    const detector = new CounterSequenceDetector(DEFAULT_TRAP_THRESHOLDS);
    const pages = 20_000;
    // Breadth-first, as the crawler discovers them: each page links to its next page and to 5 pseudo-random others.
    const queue = [0];
    const seen = new Set([0]);
    for (let head = 0; head < queue.length; head += 1) {
      const from = queue[head]!;
      for (const to of [from + 1, ...[1, 2, 3, 4, 5].map((k) => (from * 7919 + k * 104_729) % pages)]) {
        if (to >= pages) continue;
        expect(detector.observeLink(node(`http://shop.test/item/${from}`), node(`http://shop.test/item/${to}`))).toBeNull();
        if (!seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
      }
    }
    expect(seen.size).toBeGreaterThan(pages / 2);
  });

  it('ignores links between different templates or to the same numbers', () => {
    const detector = new CounterSequenceDetector({ counterChain: 1 });
    expect(detector.observeLink(node('http://a.test/x/1'), node('http://a.test/y/2'))).toBeNull();
    expect(detector.observeLink(node('http://a.test/x/1'), node('http://a.test/x/1'))).toBeNull();
    expect(detector.observeLink(node('http://a.test/x/1'), node('http://a.test/x/2'))).not.toBeNull();
  });
});
