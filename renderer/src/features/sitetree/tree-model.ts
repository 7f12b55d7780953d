/**
 * The site tree's visible rows and keyboard behaviour (WAI-ARIA tree view pattern: arrows move,
 * Right expands or enters, Left collapses or goes to the parent, Home and End, Enter activates),
 * as pure functions over the loaded children and the expanded set.
 */
import type { SiteTreeNode } from '../../../../shared/types/overview';

/** The loaded children of one parent (key '' is the top level), in name order, and how many there are in all. */
export interface LoadedChildren {
  nodes: SiteTreeNode[];
  total: number;
}

/** What the tree holds: loaded children by parent key, and which keys are expanded. */
export interface TreeState {
  children: ReadonlyMap<string, LoadedChildren>;
  expanded: ReadonlySet<string>;
}

/** One visible row: a node, or the "show more" row closing a parent's partly loaded children. */
export interface VisibleRow {
  key: string;
  parentKey: string;
  node: SiteTreeNode | null;
  /** 1 for hosts. */
  level: number;
  /** 1-based position among its siblings, and the siblings' count (all of them, loaded or not). */
  position: number;
  setSize: number;
  /** Children not loaded yet (the "show more" row only). */
  remaining: number;
}

/** The key of the top level's parent. */
export const ROOT_KEY = '';

/** A node's key: its parent's key and its name (names are unique among siblings). */
export function nodeKey(parentKey: string, node: Pick<SiteTreeNode, 'name'>): string {
  return `${parentKey}\u0001${node.name}`;
}

/** True for a node that has children to expand (hosts and directories). */
export function isExpandable(node: SiteTreeNode | null): boolean {
  return node !== null && node.kind !== 'page';
}

/** The rows on screen, depth first: each expanded node's loaded children under it, then its "show more" row. */
export function visibleRows(state: TreeState): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (parentKey: string, level: number) => {
    const loaded = state.children.get(parentKey);
    if (!loaded) return;
    const setSize = loaded.total;
    loaded.nodes.forEach((node, index) => {
      const key = nodeKey(parentKey, node);
      rows.push({ key, parentKey, node, level, position: index + 1, setSize, remaining: 0 });
      if (state.expanded.has(key)) walk(key, level + 1);
    });
    if (loaded.nodes.length < loaded.total) {
      rows.push({ key: `${parentKey}\u0002more`, parentKey, node: null, level, position: loaded.nodes.length + 1, setSize, remaining: loaded.total - loaded.nodes.length });
    }
  };
  walk(ROOT_KEY, 1);
  return rows;
}

/** What a key press asks for: move focus, expand, collapse, activate (open in Pages) or load more; null: not a tree key. */
export type TreeAction =
  | { kind: 'focus'; key: string }
  | { kind: 'expand'; key: string }
  | { kind: 'collapse'; key: string }
  | { kind: 'activate'; key: string }
  | { kind: 'loadMore'; parentKey: string }
  | null;

/**
 * The action for a key pressed on the focused row (WAI-ARIA APG tree view keyboard interaction).
 * @param key KeyboardEvent.key
 */
export function keyAction(rows: readonly VisibleRow[], state: TreeState, focusedKey: string, key: string): TreeAction {
  const index = rows.findIndex((row) => row.key === focusedKey);
  if (index === -1) return rows.length > 0 ? { kind: 'focus', key: rows[0]!.key } : null;
  const row = rows[index]!;
  switch (key) {
    case 'ArrowDown':
      return index + 1 < rows.length ? { kind: 'focus', key: rows[index + 1]!.key } : null;
    case 'ArrowUp':
      return index > 0 ? { kind: 'focus', key: rows[index - 1]!.key } : null;
    case 'Home':
      return { kind: 'focus', key: rows[0]!.key };
    case 'End':
      return { kind: 'focus', key: rows.at(-1)!.key };
    case 'ArrowRight':
      if (!isExpandable(row.node)) return null;
      if (!state.expanded.has(row.key)) return { kind: 'expand', key: row.key };
      return rows[index + 1]?.parentKey === row.key ? { kind: 'focus', key: rows[index + 1]!.key } : null;
    case 'ArrowLeft':
      if (isExpandable(row.node) && state.expanded.has(row.key)) return { kind: 'collapse', key: row.key };
      return row.parentKey !== ROOT_KEY ? { kind: 'focus', key: row.parentKey } : null;
    case 'Enter':
    case ' ':
      return row.node === null ? { kind: 'loadMore', parentKey: row.parentKey } : { kind: 'activate', key: row.key };
    default:
      return null;
  }
}
