import type { StateCreator } from 'zustand';
import type { ChangeKind, ComparisonSummary } from '../../../shared/types/comparison';
import type { ErrorInfo } from '../../../shared/types/result';
import { api } from '../ipc/client';
import type { Store } from './index';

/** What the Compare view compares: a crawl of the open database, with another one or with a crawl of another file. */
export interface CompareChoice {
  beforeCrawlId: number | null;
  afterCrawlId: number | null;
  /** Absolute path of another database file for the after side; '' compares within the open database. */
  afterFile: string;
}

/**
 * The Compare view's state (issue 14 part 7), kept in the store so it survives switching tabs: the
 * crawls chosen, the comparison main keeps (its changes are paged from main by `comparisonId`),
 * and the table's kind and URL filters.
 */
export interface CompareSlice {
  compareChoice: CompareChoice;
  comparison: ComparisonSummary | null;
  comparing: boolean;
  compareError: ErrorInfo | null;
  /** Only changes of this kind in the table; null: every kind. */
  compareKind: ChangeKind | null;
  /** Only changes whose URL contains this text. */
  compareText: string;
  setCompareChoice(choice: Partial<CompareChoice>): void;
  setCompareFilter(filter: { kind?: ChangeKind | null; text?: string }): void;
  /** Runs the chosen comparison in main; the table then pages its changes. */
  runComparison(): Promise<void>;
}

/** Creates the compare slice (zustand slices pattern). */
export const createCompareSlice: StateCreator<Store, [], [], CompareSlice> = (set, get) => ({
  compareChoice: { beforeCrawlId: null, afterCrawlId: null, afterFile: '' },
  comparison: null,
  comparing: false,
  compareError: null,
  compareKind: null,
  compareText: '',
  setCompareChoice(choice) {
    set((state) => ({ compareChoice: { ...state.compareChoice, ...choice } }));
  },
  setCompareFilter({ kind, text }) {
    set((state) => ({ compareKind: kind === undefined ? state.compareKind : kind, compareText: text ?? state.compareText }));
  },
  async runComparison() {
    const { beforeCrawlId, afterCrawlId, afterFile } = get().compareChoice;
    if (beforeCrawlId === null) return;
    const file = afterFile.trim();
    if (file === '' && afterCrawlId === null) return;
    set({ comparing: true, compareError: null });
    const result = await api['compare.run']({
      beforeCrawlId,
      ...(afterCrawlId === null ? {} : { afterCrawlId }),
      ...(file === '' ? {} : { afterFile: file }),
    });
    if (!result.ok) {
      set({ comparing: false, compareError: result.error });
      return;
    }
    set({ comparing: false, comparison: result.value, compareKind: null, compareText: '' });
  },
});
