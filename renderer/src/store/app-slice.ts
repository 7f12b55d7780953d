import type { StateCreator } from 'zustand';
import type { AppInfo } from '../../../shared/ipc/contract';
import { api } from '../ipc/client';
import type { ConnectionStatus } from '../ipc/socket-client';
import type { Store } from './index';

/** The workbench's views, in tab order. "History" lists every crawl (its files keep the name crawls/). */
export const TABS = ['Crawl', 'Pages', 'Overview', 'Frontier', 'Duplicates', 'Compare', 'Settings', 'Checkpoints', 'History'] as const;
/** The name of a view (its tab's label). */
export type TabName = (typeof TABS)[number];

/** App-wide facts from main, which view is showing, and the state of the connection to main. */
export interface AppSlice {
  info: AppInfo | null;
  infoError: string | null;
  tab: TabName;
  /**
   * False until startup has decided what to show (app facts, the "Resume crawl?" offer and the
   * crawl to open are loaded): the workbench renders a neutral loading state until then, so no
   * idle form flashes before the offer.
   */
  ready: boolean;
  /** Browser mode's connection to the server (always `connected` in Electron). */
  connection: ConnectionStatus;
  loadInfo(): Promise<AppInfo | null>;
  setTab(tab: TabName): void;
  setReady(): void;
  setConnection(status: ConnectionStatus): void;
}

/** Creates the app slice (zustand slices pattern). */
export const createAppSlice: StateCreator<Store, [], [], AppSlice> = (set) => ({
  info: null,
  infoError: null,
  tab: 'Crawl',
  ready: false,
  connection: 'connected',
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
  setReady() {
    set({ ready: true });
  },
  setConnection(status) {
    set({ connection: status });
  },
});
