import { describe, expect, it } from 'vitest';
import { RESPONSE_TIME_EDGES_MS, type CrawlOverview } from '../../../../shared/types/overview';
import { contentTypeBars, depthBars, hostBars, indexabilityBars, niceTicks, rateColumns, refusalBars, responseTimeBars, responseTimeLabel, statusBars } from './overview-model';

const OVERVIEW: CrawlOverview = {
  crawlId: 1,
  pages: 10,
  queued: 2,
  statusClasses: { '2xx': 6, '3xx': 1, '4xx': 2, '5xx': 0, blocked: 1, failed: 0 },
  depths: [
    { depth: 0, pages: 1 },
    { depth: 2, pages: 8 },
  ],
  deeperPages: 1,
  responseTimes: RESPONSE_TIME_EDGES_MS.map((fromMs, index) => ({ fromMs, belowMs: RESPONSE_TIME_EDGES_MS[index + 1] ?? null, pages: index })),
  contentTypes: [
    { contentType: 'text/html', pages: 7 },
    { contentType: null, pages: 3 },
  ],
  indexability: [
    { indexability: 'indexable', pages: 4 },
    { indexability: null, pages: 6 },
  ],
  topHosts: [{ host: 'a.test', pages: 9 }],
  otherHosts: { hosts: 1, pages: 1 },
  refusedByRule: [{ rule: 'scope', links: 5 }],
  rate: {
    bucketMs: 2_000,
    buckets: [
      { fromMs: 10_000, pages: 4 },
      { fromMs: 12_000, pages: 0 },
    ],
  },
  queryMs: 3,
};

describe('niceTicks', () => {
  it.each([
    [7, [0, 2, 4, 6, 8]],
    [0, [0, 1]],
    [1, [0, 0.5, 1]],
    [230, [0, 100, 200, 300]],
    [4, [0, 1, 2, 3, 4]],
  ])('%d → %j', (max, ticks) => {
    expect(niceTicks(max)).toEqual(ticks);
  });

  it('steps by whole numbers on an axis of counts', () => {
    expect(niceTicks(2, 4, true)).toEqual([0, 1, 2]);
    expect(niceTicks(1, 4, true)).toEqual([0, 1]);
    expect(niceTicks(7, 4, true)).toEqual([0, 2, 4, 6, 8]);
  });
});

describe('responseTimeLabel', () => {
  it('labels each fixed bucket with its unit', () => {
    expect(RESPONSE_TIME_EDGES_MS.map((fromMs, index) => responseTimeLabel({ fromMs, belowMs: RESPONSE_TIME_EDGES_MS[index + 1] ?? null }))).toEqual([
      '0–50 ms',
      '50–100 ms',
      '100–250 ms',
      '250–500 ms',
      '500–1000 ms',
      '1–2 s',
      '2–5 s',
      '≥ 5 s',
    ]);
  });
});

describe('bars and where they lead', () => {
  it('status classes: all six in words, each opening Pages filtered to its class', () => {
    const bars = statusBars(OVERVIEW);
    expect(bars.map((bar) => [bar.label, bar.value])).toEqual([
      ['2xx success', 6],
      ['3xx redirect', 1],
      ['4xx client error', 2],
      ['5xx server error', 0],
      ['Blocked by robots.txt', 1],
      ['Failed, no answer', 0],
    ]);
    expect(bars[2]!.target).toEqual({ view: 'Pages', filter: { status: '4xx' } });
  });

  it('depth, response time, content type, indexability and host bars carry the filter of their bucket', () => {
    expect(depthBars(OVERVIEW).map((bar) => [bar.label, bar.target])).toEqual([
      ['0', { view: 'Pages', filter: { depth: 0 } }],
      ['2', { view: 'Pages', filter: { depth: 2 } }],
      ['20+', { view: 'Pages', filter: { depthAtLeast: 20 } }],
    ]);
    const times = responseTimeBars(OVERVIEW);
    expect(times[2]!.target).toEqual({ view: 'Pages', filter: { responseMsAtLeast: 100, responseMsBelow: 250 } });
    expect(times.at(-1)!.target).toEqual({ view: 'Pages', filter: { responseMsAtLeast: 5000 } });
    expect(contentTypeBars(OVERVIEW).map((bar) => [bar.label, bar.target])).toEqual([
      ['text/html', { view: 'Pages', filter: { contentType: 'text/html' } }],
      ['none', { view: 'Pages', filter: { withoutValue: 'contentType' } }],
    ]);
    expect(indexabilityBars(OVERVIEW).map((bar) => [bar.label, bar.target])).toEqual([
      ['Indexable', { view: 'Pages', filter: { indexability: 'indexable' } }],
      ['Not recorded', { view: 'Pages', filter: { withoutValue: 'indexability' } }],
    ]);
    expect(hostBars(OVERVIEW).map((bar) => [bar.label, bar.value, bar.target])).toEqual([
      ['a.test', 9, { view: 'Pages', filter: { host: 'a.test' } }],
      ['1 other host', 1, { view: 'Frontier' }],
    ]);
  });

  it('refused rules in words lead to the Frontier view', () => {
    expect(refusalBars(OVERVIEW)).toEqual([{ key: 'scope', label: 'outside the crawl scope', value: 5, target: { view: 'Frontier' } }]);
  });

  it('pages per second per bucket, with the time range each column opens', () => {
    expect(rateColumns(OVERVIEW).map((column) => [column.pagesPerSecond, column.offsetMs, column.target])).toEqual([
      [2, 0, { view: 'Pages', filter: { fetchedAtMsAtLeast: 10_000, fetchedAtMsBelow: 12_000 } }],
      [0, 2_000, { view: 'Pages', filter: { fetchedAtMsAtLeast: 12_000, fetchedAtMsBelow: 14_000 } }],
    ]);
  });
});
