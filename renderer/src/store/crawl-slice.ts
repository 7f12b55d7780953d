import type { StateCreator } from 'zustand';
import type { OpenedCrawl } from '../../../shared/ipc/views';
import type { CrawlProgress, CrawlSettings, CrawlSummary } from '../../../shared/types/crawl';
import type { ErrorInfo } from '../../../shared/types/result';
import { api } from '../ipc/client';
import type { Store } from './index';

/** Samples of pages per second kept for the chart: a minute at 4 a second. */
const RATE_SAMPLES = 240;

/** The crawl open in the workbench: its id, summary, live counters and a short pages/s history. */
export interface CrawlSlice {
  crawlId: number | null;
  opened: OpenedCrawl | null;
  progress: CrawlProgress | null;
  rateHistory: number[];
  /** The last crawl action's error (start, pause, resume, stop), for the inline message. */
  crawlError: ErrorInfo | null;
  starting: boolean;
  startCrawl(seeds: string[], settings: Partial<CrawlSettings>): Promise<boolean>;
  pauseCrawl(): Promise<void>;
  resumeCrawl(crawlId?: number): Promise<boolean>;
  stopCrawl(): Promise<void>;
  /** Opens a crawl (read-only unless it runs or is resumed) and remembers it as the last open one. */
  openCrawl(crawlId: number): Promise<boolean>;
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
  crawlError: null,
  starting: false,
  async startCrawl(seeds, settings) {
    set({ starting: true, crawlError: null });
    const result = await api['crawl.start']({ seeds, settings });
    if (!result.ok) {
      set({ starting: false, crawlError: result.error });
      return false;
    }
    set({ starting: false, crawlId: result.value.crawlId, opened: null, progress: null, rateHistory: [] });
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
    set({ rateHistory: [] });
    return get().openCrawl(crawlId);
  },
  async stopCrawl() {
    const { crawlId } = get();
    if (crawlId === null) return;
    const result = await api['crawl.stop']({ crawlId });
    set({ crawlError: result.ok ? null : result.error });
  },
  async openCrawl(crawlId) {
    const [opened, progress] = await Promise.all([api['crawl.open']({ crawlId }), api['crawl.getProgress']({ crawlId })]);
    if (!opened.ok) {
      set({ crawlError: opened.error });
      return false;
    }
    const changed = get().crawlId !== crawlId;
    set({
      crawlId,
      opened: opened.value,
      // A progress event may have arrived meanwhile; keep the newer one.
      progress: progress.ok && (changed || get().progress === null || !opened.value.running) ? progress.value : get().progress,
      ...(changed ? { rateHistory: [] } : {}),
    });
    return true;
  },
  applyProgress(progress) {
    if (progress.crawlId !== get().crawlId) return;
    set((state) => ({
      progress,
      rateHistory: progress.status === 'running' ? [...state.rateHistory.slice(-(RATE_SAMPLES - 1)), progress.pagesPerSecond] : state.rateHistory,
      opened: state.opened && state.opened.running !== (progress.status === 'running') ? { ...state.opened, running: progress.status === 'running' } : state.opened,
    }));
  },
  applyFinish(summary) {
    if (summary.id !== get().crawlId) return;
    set((state) => ({ opened: state.opened ? { ...state.opened, summary, running: false } : state.opened }));
  },
  applyFailure(crawlId, error) {
    if (crawlId !== get().crawlId) return;
    set((state) => ({
      crawlError: error,
      progress: state.progress ? { ...state.progress, status: 'interrupted', inFlight: 0 } : state.progress,
      opened: state.opened ? { ...state.opened, running: false, summary: { ...state.opened.summary, status: 'interrupted' } } : state.opened,
    }));
  },
});
