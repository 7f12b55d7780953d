/**
 * What the Overview's charts show and where each bar leads: pure functions from the engine's
 * aggregates (shared/types/overview.ts) to labelled bars, axis ticks and click-through targets.
 */
import type { Indexability, PagesFilter } from '../../../../shared/types/pages';
import { linkRuleLabel } from '../../../../shared/types/link-rules';
import {
  OVERVIEW_MAX_DEPTH_BARS,
  STATUS_CLASSES,
  STATUS_CLASS_LABELS,
  type CrawlOverview,
  type ResponseTimeBucket,
} from '../../../../shared/types/overview';

/** Where a bar or counter leads: the Pages table with a filter, or the Frontier view (refused links, all hosts, queued URLs). */
export type OverviewTarget = { view: 'Pages'; filter: PagesFilter } | { view: 'Frontier' };

/** One bar of a chart: its category label, value and click-through. */
export interface Bar {
  key: string;
  label: string;
  value: number;
  target: OverviewTarget;
}

/** Indexability verdicts in words. */
export const INDEXABILITY_LABELS: Record<Indexability, string> = {
  indexable: 'Indexable',
  noindex: 'Noindex',
  canonicalised: 'Canonicalised',
  blocked: 'Blocked by robots.txt',
  'non-200': 'Not a 200 answer',
};

/**
 * Axis ticks from 0 to a round number at or above `max`, at a step of 1, 2 or 5 × 10^k, about
 * `count` of them after 0; with `whole`, steps are whole numbers (an axis of counts).
 * @example niceTicks(7) → [0, 2, 4, 6, 8]; niceTicks(0) → [0, 1]; niceTicks(230) → [0, 100, 200, 300]; niceTicks(2, 4, true) → [0, 1, 2]
 */
export function niceTicks(max: number, count = 4, whole = false): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const nice = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  const step = whole ? Math.max(1, nice) : nice;
  const ticks: number[] = [];
  for (let tick = 0; ticks.at(-1) === undefined || ticks.at(-1)! < max; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}

/**
 * A response-time bucket's label in milliseconds or seconds.
 * @example responseTimeLabel({ fromMs: 100, belowMs: 250, pages: 0 }) → '100–250 ms'; ({ fromMs: 5000, belowMs: null }) → '≥ 5 s'
 */
export function responseTimeLabel(bucket: Pick<ResponseTimeBucket, 'fromMs' | 'belowMs'>): string {
  const format = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);
  if (bucket.belowMs === null) return `≥ ${format(bucket.fromMs)}`;
  if (bucket.belowMs <= 1000) return `${bucket.fromMs}–${bucket.belowMs} ms`;
  if (bucket.fromMs >= 1000) return `${bucket.fromMs / 1000}–${bucket.belowMs / 1000} s`;
  return `${format(bucket.fromMs)}–${format(bucket.belowMs)}`;
}

const pages = (filter: PagesFilter): OverviewTarget => ({ view: 'Pages', filter });
const FRONTIER: OverviewTarget = { view: 'Frontier' };

/** Status-class bars, always all six (a zero is news too). */
export function statusBars(overview: CrawlOverview): Bar[] {
  return STATUS_CLASSES.map((statusClass) => ({ key: statusClass, label: STATUS_CLASS_LABELS[statusClass], value: overview.statusClasses[statusClass], target: pages({ status: statusClass }) }));
}

/** Depth bars, one per depth with pages, and "deeper" for depths from OVERVIEW_MAX_DEPTH_BARS. */
export function depthBars(overview: CrawlOverview): Bar[] {
  const bars: Bar[] = overview.depths.map(({ depth, pages: value }) => ({ key: String(depth), label: String(depth), value, target: pages({ depth }) }));
  if (overview.deeperPages > 0) bars.push({ key: 'deeper', label: `${OVERVIEW_MAX_DEPTH_BARS}+`, value: overview.deeperPages, target: pages({ depthAtLeast: OVERVIEW_MAX_DEPTH_BARS }) });
  return bars;
}

/** Response-time bars on the fixed edges (shared/types/overview.ts RESPONSE_TIME_EDGES_MS). */
export function responseTimeBars(overview: CrawlOverview): Bar[] {
  return overview.responseTimes.map((bucket) => ({
    key: String(bucket.fromMs),
    label: responseTimeLabel(bucket),
    value: bucket.pages,
    target: pages(bucket.belowMs === null ? { responseMsAtLeast: bucket.fromMs } : { responseMsAtLeast: bucket.fromMs, responseMsBelow: bucket.belowMs }),
  }));
}

/** Media-type bars; pages without one (failed, blocked, no header) are "none". */
export function contentTypeBars(overview: CrawlOverview): Bar[] {
  return overview.contentTypes.map(({ contentType, pages: value }) => ({
    key: contentType ?? '\u0000none',
    label: contentType ?? 'none',
    value,
    target: pages(contentType === null ? { withoutValue: 'contentType' } : { contentType }),
  }));
}

/** Indexability bars in INDEXABILITY order, then "not recorded". */
export function indexabilityBars(overview: CrawlOverview): Bar[] {
  return overview.indexability.map(({ indexability, pages: value }) => ({
    key: indexability ?? '\u0000unrecorded',
    label: indexability === null ? 'Not recorded' : INDEXABILITY_LABELS[indexability],
    value,
    target: pages(indexability === null ? { withoutValue: 'indexability' } : { indexability }),
  }));
}

/** Host bars: the top hosts, then "others" (leading to the Frontier's host table, which lists every host). */
export function hostBars(overview: CrawlOverview): Bar[] {
  const bars: Bar[] = overview.topHosts.map(({ host, pages: value }) => ({ key: host, label: host, value, target: pages({ host }) }));
  if (overview.otherHosts.hosts > 0) {
    bars.push({ key: '\u0000others', label: `${overview.otherHosts.hosts} other host${overview.otherHosts.hosts === 1 ? '' : 's'}`, value: overview.otherHosts.pages, target: FRONTIER });
  }
  return bars;
}

/** Refused-link bars, rule names in words; refused links never enter the frontier, so each leads to the Frontier view. */
export function refusalBars(overview: CrawlOverview): Bar[] {
  return overview.refusedByRule.map(({ rule, links }) => ({ key: rule, label: linkRuleLabel(rule), value: links, target: FRONTIER }));
}

/** One column of the pages-per-second chart: its bucket's rate and the time range it opens in Pages. */
export interface RateColumn extends Bar {
  /** Pages per second over the bucket. */
  pagesPerSecond: number;
  /** Milliseconds from the crawl's first fetch to the bucket's start (the time axis). */
  offsetMs: number;
}

/** Pages-per-second columns over the whole crawl, from the stored fetch times. */
export function rateColumns(overview: CrawlOverview): RateColumn[] {
  const { bucketMs, buckets } = overview.rate;
  const startMs = buckets[0]?.fromMs ?? 0;
  return buckets.map((bucket) => ({
    key: String(bucket.fromMs),
    label: String(bucket.fromMs),
    value: bucket.pages,
    pagesPerSecond: bucket.pages / (bucketMs / 1000),
    offsetMs: bucket.fromMs - startMs,
    target: pages({ fetchedAtMsAtLeast: bucket.fromMs, fetchedAtMsBelow: bucket.fromMs + bucketMs }),
  }));
}
