import { describe, expect, it } from 'vitest';
import type { SiteTreeNode } from '../../../../shared/types/overview';
import { keyAction, nodeKey, ROOT_KEY, visibleRows, type LoadedChildren, type TreeState } from './tree-model';

const node = (name: string, kind: SiteTreeNode['kind'], host = 'a.test'): SiteTreeNode => ({
  name,
  kind,
  host,
  pathPrefix: '/',
  urls: 1,
  queued: 0,
  statusClasses: { '2xx': 1, '3xx': 0, '4xx': 0, '5xx': 0, blocked: 0, failed: 0 },
  urlId: null,
});

const HOST = nodeKey(ROOT_KEY, { name: 'a.test' });
const DOCS = nodeKey(HOST, { name: 'docs/' });

function state(expanded: string[]): TreeState {
  const children = new Map<string, LoadedChildren>([
    [ROOT_KEY, { nodes: [node('a.test', 'host'), node('b.test', 'host', 'b.test')], total: 2 }],
    [HOST, { nodes: [node('', 'page'), node('docs/', 'directory')], total: 5 }],
    [DOCS, { nodes: [node('intro.html', 'page')], total: 1 }],
  ]);
  return { children, expanded: new Set(expanded) };
}

describe('visibleRows', () => {
  it('shows expanded nodes’ loaded children beneath them, with level, position, set size and a "more" row', () => {
    const rows = visibleRows(state([HOST, DOCS]));
    expect(rows.map((row) => [row.node?.name ?? 'more', row.level, row.position, row.setSize, row.remaining])).toEqual([
      ['a.test', 1, 1, 2, 0],
      ['', 2, 1, 5, 0],
      ['docs/', 2, 2, 5, 0],
      ['intro.html', 3, 1, 1, 0],
      ['more', 2, 3, 5, 3],
      ['b.test', 1, 2, 2, 0],
    ]);
  });

  it('hides the children of a collapsed node even when loaded', () => {
    expect(visibleRows(state([DOCS])).map((row) => row.node?.name)).toEqual(['a.test', 'b.test']);
  });
});

describe('keyAction', () => {
  it('moves with Up, Down, Home and End', () => {
    const tree = state([HOST]);
    const rows = visibleRows(tree);
    expect(keyAction(rows, tree, HOST, 'ArrowDown')).toEqual({ kind: 'focus', key: nodeKey(HOST, { name: '' }) });
    expect(keyAction(rows, tree, HOST, 'ArrowUp')).toBeNull();
    expect(keyAction(rows, tree, DOCS, 'End')).toEqual({ kind: 'focus', key: nodeKey(ROOT_KEY, { name: 'b.test' }) });
    expect(keyAction(rows, tree, DOCS, 'Home')).toEqual({ kind: 'focus', key: HOST });
  });

  it('Right expands a collapsed node, then enters it; on a page it does nothing', () => {
    const collapsed = state([HOST]);
    expect(keyAction(visibleRows(collapsed), collapsed, DOCS, 'ArrowRight')).toEqual({ kind: 'expand', key: DOCS });
    const open = state([HOST, DOCS]);
    expect(keyAction(visibleRows(open), open, DOCS, 'ArrowRight')).toEqual({ kind: 'focus', key: nodeKey(DOCS, { name: 'intro.html' }) });
    expect(keyAction(visibleRows(open), open, nodeKey(DOCS, { name: 'intro.html' }), 'ArrowRight')).toBeNull();
  });

  it('Left collapses an expanded node, else goes to the parent', () => {
    const open = state([HOST, DOCS]);
    const rows = visibleRows(open);
    expect(keyAction(rows, open, DOCS, 'ArrowLeft')).toEqual({ kind: 'collapse', key: DOCS });
    expect(keyAction(rows, open, nodeKey(DOCS, { name: 'intro.html' }), 'ArrowLeft')).toEqual({ kind: 'focus', key: DOCS });
    expect(keyAction(rows, state([]), HOST, 'ArrowLeft')).toBeNull();
  });

  it('Enter opens a node in Pages, or loads more on the "more" row', () => {
    const open = state([HOST]);
    const rows = visibleRows(open);
    expect(keyAction(rows, open, DOCS, 'Enter')).toEqual({ kind: 'activate', key: DOCS });
    expect(keyAction(rows, open, `${HOST}\u0002more`, 'Enter')).toEqual({ kind: 'loadMore', parentKey: HOST });
    expect(keyAction(rows, open, DOCS, 'x')).toBeNull();
  });
});
