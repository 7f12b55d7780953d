import { describe, expect, it } from 'vitest';
import { overviewNarrowing, withoutEmpty } from './PagesFilters';

describe('Pages filter toolbar', () => {
  it('drops empty fields so equal filters make one query, and keeps fields it does not edit', () => {
    expect(withoutEmpty({ status: 'all', urlContains: '', host: '', urlRegex: false, depth: Number.NaN, responseMsAtLeast: 100, withoutValue: 'contentType' })).toEqual({
      responseMsAtLeast: 100,
      withoutValue: 'contentType',
    });
    expect(withoutEmpty({ status: '4xx', urlRegex: true, depth: 0 })).toEqual({ status: '4xx', urlRegex: true, depth: 0 });
  });

  it("says in words how the Overview narrowed the table", () => {
    expect(overviewNarrowing({ status: '2xx' })).toBeNull();
    expect(overviewNarrowing({ responseMsAtLeast: 100, responseMsBelow: 250, depthAtLeast: 3 })).toBe('response time ≥ 100 ms, response time < 250 ms, depth ≥ 3');
  });
});
