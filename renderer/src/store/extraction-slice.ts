import type { StateCreator } from 'zustand';
import type { ExtractionProgress } from '../../../shared/ipc/views';
import type { ErrorInfo } from '../../../shared/types/result';
import { api } from '../ipc/client';
import type { Store } from './index';

/**
 * The Pages view's re-run of extractors (issue 14 part 2): the latest re-run started from this
 * window and its progress (pushed by main as extract.onDidProgress), and the refusal of the last start.
 */
export interface ExtractionSlice {
  /** The latest re-run's progress; null before the first, and while a new one is being started. */
  extraction: ExtractionProgress | null;
  /** Why the last start was refused (INVALID_EXTRACTOR naming the line, CRAWL_RUNNING, NO_STORED_BODIES, …). */
  extractionError: ErrorInfo | null;
  /** Counts finished re-runs: the Pages table reads its extracted columns again when it moves. */
  extractedRevision: number;
  /** Starts a re-run of `lines` over the open crawl's stored bodies. @returns false when main refused it */
  startExtraction(lines: string[]): Promise<boolean>;
  applyExtractionProgress(progress: ExtractionProgress): void;
}

/** Creates the extraction slice (zustand slices pattern). */
export const createExtractionSlice: StateCreator<Store, [], [], ExtractionSlice> = (set, get) => ({
  extraction: null,
  extractionError: null,
  extractedRevision: 0,
  async startExtraction(lines) {
    const { crawlId } = get();
    if (crawlId === null) return false;
    set({ extraction: null, extractionError: null });
    const result = await api['extract.rerun']({ crawlId, lines });
    if (!result.ok) {
      set({ extractionError: result.error });
      return false;
    }
    // The last event may come before this answer: keep whichever is further along.
    const current = get().extraction;
    if (!current || current.rerunId !== result.value.rerunId) set({ extraction: result.value });
    return true;
  },
  applyExtractionProgress(progress) {
    const current = get().extraction;
    if (current && (current.rerunId > progress.rerunId || (current.rerunId === progress.rerunId && current.state !== 'running'))) return;
    set({ extraction: progress });
    if (progress.state === 'running') return;
    set((state) => ({ extractedRevision: state.extractedRevision + 1 }));
    // The crawl's settings now name the new extractors (the Pages table's columns): read it again.
    if (progress.crawlId === get().crawlId) void get().openCrawl(progress.crawlId);
  },
});
