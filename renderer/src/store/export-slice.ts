import type { StateCreator } from 'zustand';
import type { ExportFormat, ExportKind, ExportProgress } from '../../../shared/ipc/views';
import { api } from '../ipc/client';
import type { Store } from './index';

/** The export started from this window and its progress. */
export interface ExportSlice {
  /** The latest export's progress; null while a new one is being started, or after it was refused. */
  currentExport: ExportProgress | null;
  exportError: string | null;
  /**
   * Starts an export of the open crawl. The previous export's outcome ("Wrote N rows") is cleared
   * at once, so it never stands beside a new export's progress or error.
   */
  startExport(request: { kind: ExportKind; format: ExportFormat; file: string }): Promise<void>;
  applyExportProgress(progress: ExportProgress): void;
  /** Electron: shows the finished export's file in the system file manager. */
  showExportInFolder(): Promise<void>;
}

/** Creates the export slice. */
export const createExportSlice: StateCreator<Store, [], [], ExportSlice> = (set, get) => ({
  currentExport: null,
  exportError: null,
  async startExport(request) {
    const { crawlId } = get();
    if (crawlId === null) return;
    set({ exportError: null, currentExport: null });
    const result = await api['export.start']({ crawlId, ...request });
    if (!result.ok) {
      set({ exportError: result.error.message, currentExport: null });
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
  async showExportInFolder() {
    const current = get().currentExport;
    if (!current || current.state !== 'done') return;
    const result = await api['export.showInFolder']({ exportId: current.exportId });
    if (!result.ok) set({ exportError: result.error.message });
  },
});
