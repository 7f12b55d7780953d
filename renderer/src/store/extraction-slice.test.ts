import { describe, expect, it, vi } from 'vitest';
import { create } from 'zustand';
import type { ExtractionProgress } from '../../../shared/ipc/views';
import type { Result } from '../../../shared/types/result';

const answers: { rerun: Promise<Result<ExtractionProgress>> | null } = { rerun: null };
vi.mock('../ipc/client', () => ({
  api: {
    'extract.rerun': async () => answers.rerun,
  },
}));
const { createExtractionSlice } = await import('./extraction-slice');

const progress = (fields: Partial<ExtractionProgress>): ExtractionProgress => ({
  rerunId: 1,
  crawlId: 1,
  extractors: ['price'],
  done: 0,
  total: 4,
  pages: 0,
  skipped: 0,
  state: 'running',
  ms: 0,
  error: null,
  ...fields,
});

function store() {
  const openCrawl = vi.fn(async () => true);
  // The slice reads only crawlId and openCrawl from the rest of the store.
  const s = create<ReturnType<typeof createExtractionSlice> & { crawlId: number | null; openCrawl: typeof openCrawl }>()((...args) => ({
    crawlId: 1,
    openCrawl,
    ...createExtractionSlice(...(args as Parameters<typeof createExtractionSlice>)),
  }));
  return { s, openCrawl };
}

describe('extraction slice', () => {
  it('keeps the furthest report when the last event comes before the answer, then reads the crawl again', async () => {
    const { s, openCrawl } = store();
    let release!: (result: Result<ExtractionProgress>) => void;
    answers.rerun = new Promise((resolve) => (release = resolve));
    const started = s.getState().startExtraction(['price=css:.price']);
    s.getState().applyExtractionProgress(progress({ done: 4, pages: 4, state: 'done' }));
    release({ ok: true, value: progress({}) });
    expect(await started).toBe(true);
    expect(s.getState().extraction).toMatchObject({ state: 'done', done: 4 });
    // A late running report of the same re-run does not undo its end.
    s.getState().applyExtractionProgress(progress({ done: 2 }));
    expect(s.getState()).toMatchObject({ extraction: { state: 'done' }, extractedRevision: 1 });
    expect(openCrawl).toHaveBeenCalledWith(1);
  });

  it('shows a refusal (INVALID_EXTRACTOR naming the line) and no progress', async () => {
    const { s } = store();
    answers.rerun = Promise.resolve({ ok: false, error: { code: 'INVALID_EXTRACTOR', message: 'Line 2: "x": expected NAME' } });
    expect(await s.getState().startExtraction(['price=css:.price', 'x'])).toBe(false);
    expect(s.getState()).toMatchObject({ extraction: null, extractionError: { code: 'INVALID_EXTRACTOR' }, extractedRevision: 0 });
  });
});
