import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { createInspectorSlice, pushInspected, type InspectorSlice } from './inspector-slice';

/** A store holding only the inspector slice (the slice reads and writes nothing else). */
function inspectorStore() {
  return create<InspectorSlice>()((...args) => createInspectorSlice(...(args as unknown as Parameters<typeof createInspectorSlice>)));
}

describe('inspector history', () => {
  it('goes back and forward through inspected URLs, and a new URL after Back drops the forward ones', () => {
    const store = inspectorStore();
    const { inspectUrl, inspectPrevious, inspectNext } = store.getState();
    inspectUrl(1);
    inspectUrl(2);
    inspectUrl(3);
    inspectPrevious();
    expect(store.getState().inspectedUrlId).toBe(2);
    inspectPrevious();
    inspectPrevious();
    expect(store.getState().inspectedUrlId).toBe(1);
    inspectNext();
    expect(store.getState().inspectedUrlId).toBe(2);
    inspectUrl(7);
    expect(store.getState().inspectorHistory).toEqual([1, 2, 7]);
    inspectNext();
    expect(store.getState().inspectedUrlId).toBe(7);
  });

  it('keeps one entry when the same URL is opened twice in a row, and close forgets everything', () => {
    const store = inspectorStore();
    store.getState().inspectUrl(4);
    store.getState().inspectUrl(4);
    expect(store.getState().inspectorHistory).toEqual([4]);
    store.getState().closeInspector();
    expect(store.getState()).toMatchObject({ inspectedUrlId: null, inspectorHistory: [], inspectorPosition: -1 });
    store.getState().inspectPrevious();
    expect(store.getState().inspectedUrlId).toBeNull();
  });

  it('keeps the newest 100 entries', () => {
    let state = { history: [] as number[], position: -1 };
    for (let id = 1; id <= 150; id += 1) state = pushInspected(state.history, state.position, id);
    expect(state.history).toHaveLength(100);
    expect(state.history[0]).toBe(51);
    expect(state.position).toBe(99);
  });
});
