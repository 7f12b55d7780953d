import type { StateCreator } from 'zustand';
import type { OpenedCrawl } from '../../../shared/ipc/views';
import type { CrawlProgress, CrawlSettings, CrawlSummary } from '../../../shared/types/crawl';
import type { RequestRuleSecrets } from '../../../shared/types/request-rules';
import type { ErrorInfo } from '../../../shared/types/result';
import { addGrowthSample, growthSample, type GrowthSample } from '../features/crawl/frontier-growth';
import { api } from '../ipc/client';
import type { Store } from './index';

/** Samples of pages per second kept for the chart: the stored history (240 at most) plus live samples. */
const RATE_SAMPLES = 480;

/** True for the statuses of a crawl that still holds its run in the app: running, or paused (resumable, stoppable). */
const isLive = (status: CrawlProgress['status']) => status === 'running' || status === 'paused';

/** A start waiting for the user's answer: another crawl is running. */
export interface PendingStart {
  /** Crawls running now (ids), named in the question. */
  runningCrawlIds: number[];
  answer(start: boolean): void;
}

/** The crawl open in the workbench (its id, summary, live counters and pages/s history), and the crawls running in the app. */
export interface CrawlSlice {
  crawlId: number | null;
  opened: OpenedCrawl | null;
  progress: CrawlProgress | null;
  /** Pages per second of the open crawl, oldest first: its stored history, then live samples. */
  rateHistory: number[];
  /** Done vs discovered of the open crawl over recent progress reports (features/crawl/frontier-growth.ts). */
  growth: GrowthSample[];
  /** Latest progress of every crawl running or paused in the app, by id, open or not (the running-crawl indicator). */
  liveCrawls: Record<number, CrawlProgress>;
  /** Set while "Start another crawl?" waits for an answer. */
  pendingStart: PendingStart | null;
  /** The last crawl action's error (start, pause, resume, stop), for the inline message. */
  crawlError: ErrorInfo | null;
  starting: boolean;
  /**
   * Starts a crawl and opens it. While another crawl runs, asks first ("Start another crawl?",
   * through `pendingStart`): false when the user declines. `requestRules` (with their secrets) go
   * to main with the start only; nothing of them is kept in the store.
   */
  startCrawl(seeds: string[], settings: Partial<CrawlSettings>, requestRules?: RequestRuleSecrets[]): Promise<boolean>;
  pauseCrawl(): Promise<void>;
  resumeCrawl(crawlId?: number): Promise<boolean>;
  /** Stops the open crawl, running or paused. */
  stopCrawl(): Promise<void>;
  /** Opens a crawl (read-only unless it runs or is resumed) and remembers it as the last open one. */
  openCrawl(crawlId: number): Promise<boolean>;
  /** Loads the crawls running in the app (at startup and after a reconnect); replaces `liveCrawls`. */
  loadLiveCrawls(): Promise<void>;
  applyProgress(progress: CrawlProgress): void;
  applyFinish(summary: CrawlSummary): void;
  /** A run of the open crawl failed: show why; it is interrupted and can be resumed. */
  applyFailure(crawlId: number, error: ErrorInfo): void;
}

/** Creates the crawl slice: crawl actions go to main; progress events come back through applyProgress. */
export const createCrawlSlice: StateCreator<Store, [], [], CrawlSlice> = (set, get) => ({
  crawlId: null,
  opened: null,
  progress: null,
  rateHistory: [],
  growth: [],
  liveCrawls: {},
  pendingStart: null,
  crawlError: null,
  starting: false,
  async startCrawl(seeds, settings, requestRules) {
    const runningCrawlIds = Object.values(get().liveCrawls)
      .filter((progress) => progress.status === 'running')
      .map((progress) => progress.crawlId);
    if (runningCrawlIds.length > 0) {
      const confirmed = await new Promise<boolean>((resolve) => set({ pendingStart: { runningCrawlIds, answer: resolve } }));
      set({ pendingStart: null });
      if (!confirmed) return false;
    }
    set({ starting: true, crawlError: null });
    const result = await api['crawl.start']({ seeds, settings, ...(requestRules && requestRules.length > 0 ? { requestRules } : {}) });
    if (!result.ok) {
      set({ starting: false, crawlError: result.error });
      return false;
    }
    set({ starting: false, crawlId: result.value.crawlId, opened: null, progress: null, rateHistory: [], growth: [] });
    await get().openCrawl(result.value.crawlId);
    return true;
  },
  async pauseCrawl() {
    const { crawlId } = get();
    if (crawlId === null) return;
    const result = await api['crawl.pause']({ crawlId });
    set({ crawlError: result.ok ? null : result.error });
  },
  async resumeCrawl(crawlId = get().crawlId ?? undefined) {
    if (crawlId === undefined) return false;
    set({ crawlError: null });
    const result = await api['crawl.resume']({ crawlId });
    if (!result.ok) {
      set({ crawlError: result.error });
      return false;
    }
    return get().openCrawl(crawlId);
  },
  async stopCrawl() {
    const { crawlId } = get();
    if (crawlId === null) return;
    const result = await api['crawl.stop']({ crawlId });
    set({ crawlError: result.ok ? null : result.error });
    // A paused crawl is stopped at once, with no progress event: read its state again.
    if (result.ok && get().progress?.status === 'paused') await get().openCrawl(crawlId);
  },
  async openCrawl(crawlId) {
    const [opened, progress] = await Promise.all([api['crawl.open']({ crawlId }), api['crawl.getProgress']({ crawlId })]);
    if (!opened.ok) {
      set({ crawlError: opened.error });
      return false;
    }
    const changed = get().crawlId !== crawlId;
    // A progress event may have arrived meanwhile; keep the newer one.
    const next = progress.ok && (changed || get().progress === null || !opened.value.running) ? progress.value : get().progress;
    set((state) => ({
      crawlId,
      opened: opened.value,
      progress: next,
      // The stored history is the whole crawl's; live samples append to it.
      rateHistory: opened.value.rateHistory,
      growth: changed || !next ? (next ? [growthSample(next)] : []) : state.growth,
      liveCrawls: next ? withLive(state.liveCrawls, next) : state.liveCrawls,
    }));
    return true;
  },
  async loadLiveCrawls() {
    const list = await api['crawl.list']({});
    if (!list.ok) return;
    // Paused crawls join from this session's progress events only: one paused in an earlier
    // session is listed in History, not in the header forever.
    const live = list.value.filter((crawl) => crawl.status === 'running');
    const answers = await Promise.all(live.map((crawl) => api['crawl.getProgress']({ crawlId: crawl.id })));
    const liveCrawls: Record<number, CrawlProgress> = {};
    for (const answer of answers) if (answer.ok && isLive(answer.value.status)) liveCrawls[answer.value.crawlId] = answer.value;
    set({ liveCrawls });
  },
  applyProgress(progress) {
    set((state) => ({ liveCrawls: withLive(state.liveCrawls, progress) }));
    if (progress.crawlId !== get().crawlId) return;
    set((state) => ({
      progress,
      rateHistory: progress.status === 'running' ? [...state.rateHistory.slice(-(RATE_SAMPLES - 1)), progress.pagesPerSecond] : state.rateHistory,
      growth: addGrowthSample(state.growth, growthSample(progress)),
      opened: state.opened && state.opened.running !== (progress.status === 'running') ? { ...state.opened, running: progress.status === 'running' } : state.opened,
    }));
  },
  applyFinish(summary) {
    set((state) => ({ liveCrawls: withoutLive(state.liveCrawls, summary.id, summary.status) }));
    if (summary.id !== get().crawlId) return;
    set((state) => ({ opened: state.opened ? { ...state.opened, summary, running: false } : state.opened }));
    // Read the stored view again: a seed that failed, the whole crawl's pages/s.
    void get().openCrawl(summary.id);
  },
  applyFailure(crawlId, error) {
    set((state) => ({ liveCrawls: withoutLive(state.liveCrawls, crawlId, 'interrupted') }));
    if (crawlId !== get().crawlId) return;
    set((state) => ({
      crawlError: error,
      progress: state.progress ? { ...state.progress, status: 'interrupted', inFlight: 0 } : state.progress,
      opened: state.opened ? { ...state.opened, running: false, summary: { ...state.opened.summary, status: 'interrupted' } } : state.opened,
    }));
  },
});

/** `live` with `progress` recorded when its crawl is running or paused, dropped otherwise. */
function withLive(live: Record<number, CrawlProgress>, progress: CrawlProgress): Record<number, CrawlProgress> {
  if (isLive(progress.status)) return { ...live, [progress.crawlId]: progress };
  return withoutLive(live, progress.crawlId, progress.status);
}

/** `live` without crawl `crawlId` unless `status` keeps it live. */
function withoutLive(live: Record<number, CrawlProgress>, crawlId: number, status: CrawlProgress['status']): Record<number, CrawlProgress> {
  if (isLive(status) || !(crawlId in live)) return live;
  const { [crawlId]: _ended, ...rest } = live;
  return rest;
}
