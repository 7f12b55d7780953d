import type { CrawlProgress } from '../../../../shared/types/crawl';

/** One point of the frontier's growth: URLs done (fetched or failed) and discovered, at a crawl time. */
export interface GrowthSample {
  /** The crawl's elapsed time when sampled, ms. */
  elapsedMs: number;
  /** URLs fetched or failed. */
  done: number;
  /** Every URL the crawl has met: done, failed, queued and in flight. */
  discovered: number;
}

/** The window the trend is measured over, ms of crawl time. */
export const GROWTH_WINDOW_MS = 10_000;
/** Samples kept: more than the window needs at 4 progress reports a second. */
export const GROWTH_SAMPLES = 80;

/**
 * Where the frontier is heading over the last GROWTH_WINDOW_MS: `growing` when more URLs were
 * discovered than done (the queue lengthens, as on a crawler trap), `converging` when more were
 * done (the queue shortens), `steady` when both moved equally, `idle` when neither moved.
 */
export type GrowthTrend = 'growing' | 'converging' | 'steady' | 'idle';

/** The frontier's growth over the recent window. */
export interface FrontierGrowth {
  done: number;
  discovered: number;
  trend: GrowthTrend;
  /** URLs done and discovered within the window (0 with fewer than two samples). */
  doneInWindow: number;
  discoveredInWindow: number;
  /** Crawl time the window actually spans, ms (shorter at the start of a run). */
  windowMs: number;
}

/** The sample of a progress report: done = fetched + errors; discovered adds queued and in flight. */
export function growthSample(progress: CrawlProgress): GrowthSample {
  const done = progress.fetched + progress.errors;
  return { elapsedMs: progress.elapsedMs, done, discovered: done + progress.queued + progress.inFlight };
}

/**
 * Adds a sample, dropping the oldest beyond GROWTH_SAMPLES and any sample from later in crawl time
 * (a new run of another crawl restarts the series).
 */
export function addGrowthSample(samples: readonly GrowthSample[], sample: GrowthSample): GrowthSample[] {
  const last = samples.at(-1);
  const kept = last && last.elapsedMs > sample.elapsedMs ? [] : samples.slice(-(GROWTH_SAMPLES - 1));
  return [...kept, sample];
}

/**
 * Done vs discovered with the trend over the last GROWTH_WINDOW_MS of samples: no percentage,
 * because the end of a crawl is unknown until the frontier is empty.
 * @example frontierGrowth([{ elapsedMs: 0, done: 10, discovered: 50 }, { elapsedMs: 10_000, done: 30, discovered: 90 }])
 *   → { done: 30, discovered: 90, trend: 'growing', doneInWindow: 20, discoveredInWindow: 40, windowMs: 10_000 }
 */
export function frontierGrowth(samples: readonly GrowthSample[]): FrontierGrowth | null {
  const last = samples.at(-1);
  if (!last) return null;
  const first = samples.find((sample) => sample.elapsedMs >= last.elapsedMs - GROWTH_WINDOW_MS) ?? last;
  const doneInWindow = last.done - first.done;
  const discoveredInWindow = last.discovered - first.discovered;
  const trend: GrowthTrend =
    doneInWindow === 0 && discoveredInWindow === 0 ? 'idle' : discoveredInWindow > doneInWindow ? 'growing' : discoveredInWindow < doneInWindow ? 'converging' : 'steady';
  return { done: last.done, discovered: last.discovered, trend, doneInWindow, discoveredInWindow, windowMs: last.elapsedMs - first.elapsedMs };
}
