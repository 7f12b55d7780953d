import { beforeEach, describe, expect, it, vi } from 'vitest';
import { create } from 'zustand';
import type { ExportProgress } from '../../../shared/ipc/views';
import type { Result } from '../../../shared/types/result';

const answers: { start: Promise<Result<ExportProgress>> | null; shown: Result<{ shown: true }> | null } = { start: null, shown: null };
const calls: { channel: string; payload: unknown }[] = [];
vi.mock('../ipc/client', () => ({
  api: {
    'export.start': async (payload: unknown) => {
      calls.push({ channel: 'export.start', payload });
      return answers.start;
    },
    'export.showInFolder': async (payload: unknown) => {
      calls.push({ channel: 'export.showInFolder', payload });
      return answers.shown;
    },
  },
}));
const { createExportSlice } = await import('./export-slice');

const done: ExportProgress = { exportId: 1, crawlId: 1, kind: 'pages', format: 'csv', file: '/tmp/a.csv', rowsWritten: 3, totalRows: 3, state: 'done', error: null };

function store() {
  // The slice reads only crawlId from the rest of the store.
  return create<ReturnType<typeof createExportSlice> & { crawlId: number | null }>()((...args) => ({ crawlId: 1, ...createExportSlice(...(args as Parameters<typeof createExportSlice>)) }));
}

beforeEach(() => {
  calls.length = 0;
});

describe('export slice', () => {
  it('a new export clears the last one\'s "Wrote N rows" at once, and a refused one leaves only its error', async () => {
    const s = store();
    s.getState().applyExportProgress(done);
    let release!: (result: Result<ExportProgress>) => void;
    answers.start = new Promise((resolve) => (release = resolve));
    const started = s.getState().startExport({ kind: 'pages', format: 'csv', file: '/tmp/taken.csv' });
    expect(s.getState().currentExport).toBeNull();
    release({ ok: false, error: { code: 'EXPORT_EXISTS', message: '/tmp/taken.csv already exists: choose another name' } });
    await started;
    expect(s.getState()).toMatchObject({ currentExport: null, exportError: '/tmp/taken.csv already exists: choose another name' });
  });

  it('Show in folder asks main for the finished export by id, and shows main\'s refusal', async () => {
    const s = store();
    await s.getState().showExportInFolder();
    expect(calls).toEqual([]); // nothing finished yet
    s.getState().applyExportProgress(done);
    answers.shown = { ok: false, error: { code: 'NOT_SUPPORTED', message: 'Only the desktop app can open a folder; the file is at the path shown.' } };
    await s.getState().showExportInFolder();
    expect(calls).toEqual([{ channel: 'export.showInFolder', payload: { exportId: 1 } }]);
    expect(s.getState().exportError).toBe('Only the desktop app can open a folder; the file is at the path shown.');
  });
});
