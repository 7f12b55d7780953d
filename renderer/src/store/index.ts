import { create } from 'zustand';
import { api, onDidChangeConnection } from '../ipc/client';
import { createAppSlice, type AppSlice } from './app-slice';
import { createCompareSlice, type CompareSlice } from './compare-slice';
import { createCrawlSlice, type CrawlSlice } from './crawl-slice';
import { createExportSlice, type ExportSlice } from './export-slice';
import { createExtractionSlice, type ExtractionSlice } from './extraction-slice';
import { createInspectorSlice, type InspectorSlice } from './inspector-slice';
import { createPagesSlice, type PagesSlice } from './pages-slice';
import { createRecoverySlice, type RecoverySlice } from './recovery-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';

/** The whole store: every slice's state and actions. */
export type Store = AppSlice & CrawlSlice & RecoverySlice & SettingsSlice & ExportSlice & PagesSlice & InspectorSlice & CompareSlice & ExtractionSlice;
export { TABS, type TabName } from './app-slice';

/** The one store, made of typed slices (zustand's slices pattern). */
export const useStore = create<Store>()((...args) => ({
  ...createAppSlice(...args),
  ...createCrawlSlice(...args),
  ...createRecoverySlice(...args),
  ...createSettingsSlice(...args),
  ...createExportSlice(...args),
  ...createPagesSlice(...args),
  ...createInspectorSlice(...args),
  ...createCompareSlice(...args),
  ...createExtractionSlice(...args),
}));

/** Wires push events into the store once. @returns the unsubscribe function */
export function connectStoreToEvents(): () => void {
  const offs = [
    api.on('crawl.onDidProgress', (progress) => useStore.getState().applyProgress(progress)),
    api.on('crawl.onDidFinish', (summary) => useStore.getState().applyFinish(summary)),
    api.on('crawl.onDidFail', ({ crawlId, error }) => useStore.getState().applyFailure(crawlId, error)),
    api.on('export.onDidProgress', (progress) => useStore.getState().applyExportProgress(progress)),
    api.on('extract.onDidProgress', (progress) => useStore.getState().applyExtractionProgress(progress)),
    onDidChangeConnection((state) => {
      useStore.getState().setConnection(state.status);
      // Events sent while the page was away are lost, and the server may be a new process: read everything again.
      if (state.reconnected) void refresh();
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/**
 * Startup: app facts, saved settings, the crash-recovery offer, the crawls running, and the crawl
 * open last time. The offer wins: its crawl is the one to look at. Sets `ready` at the end (also
 * when a step failed), so the workbench's first paint already shows the offer and the open crawl.
 */
export async function bootstrap(): Promise<void> {
  try {
    const state = useStore.getState();
    const [info, offer] = await Promise.all([state.loadInfo(), state.loadRecovery(), state.loadSettings(), state.loadLiveCrawls()]);
    const crawlId = offer?.crawlId ?? info?.lastOpenCrawlId ?? null;
    if (crawlId !== null && useStore.getState().crawlId === null) await useStore.getState().openCrawl(crawlId);
  } finally {
    useStore.getState().setReady();
  }
}

/**
 * After a reconnect: reads again what push events would have changed (the server may have been
 * restarted: its crawls stopped or interrupted, a recovery offer made).
 */
export async function refresh(): Promise<void> {
  const state = useStore.getState();
  await Promise.all([state.loadInfo(), state.loadRecovery(), state.loadLiveCrawls()]);
  const { crawlId } = useStore.getState();
  if (crawlId !== null) await useStore.getState().openCrawl(crawlId);
}
