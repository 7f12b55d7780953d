import { create, type StateCreator } from 'zustand';
import type { AppInfo } from '../../../shared/ipc/contract';
import type { CrawlProgress, CrawlSettings, CrawlSummary } from '../../../shared/types/crawl';
import { api } from '../ipc/client';

/** App-wide facts from main. */
export interface AppSlice {
  info: AppInfo | null;
  loadInfo(): Promise<void>;
}

/** The crawl the user is watching: its id, live counters and a short pages/s history. */
export interface CrawlSlice {
  crawlId: number | null;
  progress: CrawlProgress | null;
  /** pages/s samples, one per progress event, at most 240 (a minute at 4/s). */
  rateHistory: number[];
  lastSummary: CrawlSummary | null;
  startError: string | null;
  starting: boolean;
  startCrawl(seeds: string[], settings: Partial<CrawlSettings>): Promise<boolean>;
  stopCrawl(): Promise<void>;
  applyProgress(progress: CrawlProgress): void;
  applyFinish(summary: CrawlSummary): void;
}

export type Store = AppSlice & CrawlSlice;

const createAppSlice: StateCreator<Store, [], [], AppSlice> = (set) => ({
  info: null,
  async loadInfo() {
    const result = await api['app.getInfo']({});
    if (result.ok) set({ info: result.value });
  },
});

const createCrawlSlice: StateCreator<Store, [], [], CrawlSlice> = (set, get) => ({
  crawlId: null,
  progress: null,
  rateHistory: [],
  lastSummary: null,
  startError: null,
  starting: false,
  async startCrawl(seeds, settings) {
    set({ starting: true, startError: null });
    const result = await api['crawl.start']({ seeds, settings });
    if (!result.ok) {
      set({ starting: false, startError: result.error.message });
      return false;
    }
    set({ starting: false, crawlId: result.value.crawlId, progress: null, rateHistory: [], lastSummary: null });
    return true;
  },
  async stopCrawl() {
    const { crawlId } = get();
    if (crawlId !== null) await api['crawl.stop']({ crawlId });
  },
  applyProgress(progress) {
    if (progress.crawlId !== get().crawlId) return;
    set((state) => ({ progress, rateHistory: [...state.rateHistory.slice(-239), progress.pagesPerSecond] }));
  },
  applyFinish(summary) {
    if (summary.id !== get().crawlId) return;
    set({ lastSummary: summary });
  },
});

/** The one store, made of typed slices (zustand's slices pattern). */
export const useStore = create<Store>()((...args) => ({ ...createAppSlice(...args), ...createCrawlSlice(...args) }));

/** Wires push events into the store once. @returns the unsubscribe function */
export function connectStoreToEvents(): () => void {
  const offProgress = api.on('crawl.onDidProgress', (progress) => useStore.getState().applyProgress(progress));
  const offFinish = api.on('crawl.onDidFinish', (summary) => useStore.getState().applyFinish(summary));
  return () => {
    offProgress();
    offFinish();
  };
}
