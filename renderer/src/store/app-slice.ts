import type { StateCreator } from 'zustand';
import type { AppInfo } from '../../../shared/ipc/contract';
import { api } from '../ipc/client';
import type { Store } from './index';

/** The workbench's views, in tab order. */
export const TABS = ['Crawl', 'Pages', 'Overview', 'Frontier', 'Duplicates', 'Settings', 'Checkpoints', 'Crawls'] as const;
/** The name of a view (its tab's label). */
export type TabName = (typeof TABS)[number];

/** App-wide facts from main, and which view is showing. */
export interface AppSlice {
  info: AppInfo | null;
  infoError: string | null;
  tab: TabName;
  loadInfo(): Promise<AppInfo | null>;
  setTab(tab: TabName): void;
}

/** Creates the app slice (zustand slices pattern). */
export const createAppSlice: StateCreator<Store, [], [], AppSlice> = (set) => ({
  info: null,
  infoError: null,
  tab: 'Crawl',
  async loadInfo() {
    const result = await api['app.getInfo']({});
    if (!result.ok) {
      set({ infoError: result.error.message });
      return null;
    }
    set({ info: result.value, infoError: null });
    return result.value;
  },
  setTab(tab) {
    set({ tab });
  },
});
