import type { StateCreator } from 'zustand';
import type { Store } from './index';

/** Which URL the URL inspector shows (null: closed). Any table row opens it with `inspectUrl`. */
export interface InspectorSlice {
  inspectedUrlId: number | null;
  /** Opens the URL inspector on URL `urlId` of the open crawl. */
  inspectUrl(urlId: number): void;
  closeInspector(): void;
}

/** Creates the inspector slice (zustand slices pattern). */
export const createInspectorSlice: StateCreator<Store, [], [], InspectorSlice> = (set) => ({
  inspectedUrlId: null,
  inspectUrl(urlId) {
    set({ inspectedUrlId: urlId });
  },
  closeInspector() {
    set({ inspectedUrlId: null });
  },
});
