import type { StateCreator } from 'zustand';
import type { Store } from './index';

/** Inspected URLs kept for Back and Forward. */
const HISTORY_LIMIT = 100;

/**
 * Which URL the URL inspector shows (null: closed) and the URLs inspected before and after it,
 * like a browser's history: inspecting a URL from the inspector drops the forward entries.
 */
export interface InspectorSlice {
  inspectedUrlId: number | null;
  /** URL ids inspected in this session, oldest first (at most HISTORY_LIMIT). */
  inspectorHistory: number[];
  /** Position of `inspectedUrlId` in `inspectorHistory` (-1 when closed). */
  inspectorPosition: number;
  /** Opens the URL inspector on URL `urlId` of the open crawl. */
  inspectUrl(urlId: number): void;
  /** Shows the URL inspected before this one, if any. */
  inspectPrevious(): void;
  /** Shows the URL inspected after this one (after Back), if any. */
  inspectNext(): void;
  /** Closes the inspector and forgets its history. */
  closeInspector(): void;
}

/** The history after inspecting `urlId` at `position`: forward entries dropped, the same URL twice in a row kept once. */
export function pushInspected(history: readonly number[], position: number, urlId: number): { history: number[]; position: number } {
  const kept = history.slice(0, position + 1);
  if (kept.at(-1) !== urlId) kept.push(urlId);
  const trimmed = kept.slice(-HISTORY_LIMIT);
  return { history: trimmed, position: trimmed.length - 1 };
}

/** Creates the inspector slice (zustand slices pattern). */
export const createInspectorSlice: StateCreator<Store, [], [], InspectorSlice> = (set, get) => ({
  inspectedUrlId: null,
  inspectorHistory: [],
  inspectorPosition: -1,
  inspectUrl(urlId) {
    const { history, position } = pushInspected(get().inspectorHistory, get().inspectorPosition, urlId);
    set({ inspectedUrlId: urlId, inspectorHistory: history, inspectorPosition: position });
  },
  inspectPrevious() {
    const { inspectorHistory, inspectorPosition } = get();
    if (inspectorPosition <= 0) return;
    set({ inspectorPosition: inspectorPosition - 1, inspectedUrlId: inspectorHistory[inspectorPosition - 1]! });
  },
  inspectNext() {
    const { inspectorHistory, inspectorPosition } = get();
    if (inspectorPosition < 0 || inspectorPosition >= inspectorHistory.length - 1) return;
    set({ inspectorPosition: inspectorPosition + 1, inspectedUrlId: inspectorHistory[inspectorPosition + 1]! });
  },
  closeInspector() {
    set({ inspectedUrlId: null, inspectorHistory: [], inspectorPosition: -1 });
  },
});
