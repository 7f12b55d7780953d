import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE_COLUMNS, loadVisibleColumns, parseVisibleColumns, saveVisibleColumns, toggleColumn } from './page-columns';

describe('Pages column chooser', () => {
  it('reads back a stored choice in table order, with URL always shown and unknown ids dropped', () => {
    expect(parseVisibleColumns('["inlinks","status","nope",3]')).toEqual(['url', 'status', 'inlinks']);
    expect(parseVisibleColumns(null)).toEqual(DEFAULT_TABLE_COLUMNS);
    expect(parseVisibleColumns('{oops')).toEqual(DEFAULT_TABLE_COLUMNS);
    expect(parseVisibleColumns('{"status":true}')).toEqual(DEFAULT_TABLE_COLUMNS);
  });

  it('toggles a column and never hides the URL', () => {
    expect(toggleColumn(['url', 'status'], 'h1')).toEqual(['url', 'status', 'h1']);
    expect(toggleColumn(['url', 'status', 'h1'], 'status')).toEqual(['url', 'h1']);
    expect(toggleColumn(['url'], 'url')).toEqual(['url']);
  });

  it('remembers the choice across loads, and survives a storage that throws', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) };
    saveVisibleColumns(['url', 'canonical', 'error'], storage);
    expect(loadVisibleColumns(storage)).toEqual(['url', 'canonical', 'error']);
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(() => saveVisibleColumns(['url'], broken)).not.toThrow();
    expect(loadVisibleColumns(broken)).toEqual(DEFAULT_TABLE_COLUMNS);
  });
});
