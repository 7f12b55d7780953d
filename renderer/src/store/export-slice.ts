import type { StateCreator } from 'zustand';
import type { ExportFormat, ExportKind, ExportProgress } from '../../../shared/ipc/views';
import { api } from '../ipc/client';
import type { Store } from './index';

/** The export started from this window and its progress. */
export interface ExportSlice {
  currentExport: ExportProgress | null;
  exportError: string | null;
  startExport(request: { kind: ExportKind; format: ExportFormat; file: string }): Promise<void>;
  applyExportProgress(progress: ExportProgress): void;
}

/** Creates the export slice. */
export const createExportSlice: StateCreator<Store, [], [], ExportSlice> = (set, get) => ({
  currentExport: null,
  exportError: null,
  async startExport(request) {
    const { crawlId } = get();
    if (crawlId === null) return;
    set({ exportError: null });
    const result = await api['export.start']({ crawlId, ...request });
    if (!result.ok) {
      set({ exportError: result.error.message });
      return;
    }
    // The final event may come before this answer: keep whichever is further along.
    const current = get().currentExport;
    if (!current || current.exportId !== result.value.exportId) set({ currentExport: result.value });
  },
  applyExportProgress(progress) {
    const current = get().currentExport;
    if (current && current.exportId > progress.exportId) return;
    set({ currentExport: progress });
  },
});
