import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { STATUS_CLASSES, type SiteTreeNode } from '../../../../shared/types/overview';
import type { ErrorInfo } from '../../../../shared/types/result';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { isExpandable, keyAction, nodeKey, ROOT_KEY, visibleRows, type LoadedChildren, type VisibleRow } from './tree-model';

/** Children asked for per request (main pages a big directory; MAX_SITE_TREE_CHILDREN caps it). */
export const SITE_TREE_PAGE = 200;

/** A node's name as shown: '' is the directory's own page. */
function displayName(node: SiteTreeNode): string {
  return node.name === '' ? `${node.pathPrefix} (this page)` : node.name;
}

/** A node's accessible name: its name, URL count and counts per status class that are not zero. */
function describeNode(node: SiteTreeNode): string {
  const parts = STATUS_CLASSES.filter((statusClass) => node.statusClasses[statusClass] > 0).map((statusClass) => `${node.statusClasses[statusClass]} ${statusClass}`);
  if (node.queued > 0) parts.push(`${node.queued} queued`);
  return `${displayName(node)}, ${node.urls} URL${node.urls === 1 ? '' : 's'}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

/** Opens the Pages table filtered to a node: its host, and its path prefix below the host. */
function showNodePages(node: SiteTreeNode): void {
  useStore.getState().showPages(node.kind === 'host' ? { host: node.host } : { host: node.host, pathPrefix: node.pathPrefix });
}

/**
 * The site tree (issue 11 part 5): hosts, then path segments, each with its URL count per status
 * class. An ARIA tree (role tree/treeitem, aria-expanded, aria-level, aria-setsize/posinset, one
 * tab stop, arrow keys as in the WAI-ARIA tree view pattern). Children are asked from main when a
 * node is first expanded, SITE_TREE_PAGE at a time ("show more"), so a big site is never sent
 * whole. Enter, or a click on a node's name, opens the Pages table filtered to it; selecting a
 * single page tells `onSelect` its URL id (the crawl tree beside it shows its ancestry).
 */
export function SiteTree({ crawlId, onSelect }: { crawlId: number; onSelect(urlId: number | null): void }) {
  const [children, setChildren] = useState<ReadonlyMap<string, LoadedChildren>>(new Map());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [focused, setFocused] = useState<string>('');
  const [error, setError] = useState<ErrorInfo | null>(null);
  const nodesByKey = useRef(new Map<string, SiteTreeNode>());
  const itemRefs = useRef(new Map<string, HTMLLIElement>());
  const focusOnRender = useRef(false);

  const load = useCallback(
    async (parentKey: string, parent: SiteTreeNode | null, offset: number, limit = SITE_TREE_PAGE) => {
      const request = parent === null ? { crawlId, offset, limit } : { crawlId, host: parent.host, ...(parent.kind === 'directory' ? { pathPrefix: parent.pathPrefix } : {}), offset, limit };
      const result = await api['siteTree.children'](request);
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setError(null);
      for (const node of result.value.nodes) nodesByKey.current.set(nodeKey(parentKey, node), node);
      setChildren((previous) => {
        const next = new Map(previous);
        const kept = offset === 0 ? [] : (previous.get(parentKey)?.nodes.slice(0, offset) ?? []);
        next.set(parentKey, { nodes: [...kept, ...result.value.nodes], total: result.value.total });
        return next;
      });
    },
    [crawlId],
  );

  useEffect(() => {
    setChildren(new Map());
    setExpanded(new Set());
    setFocused('');
    nodesByKey.current.clear();
    void load(ROOT_KEY, null, 0);
  }, [load]);

  const state = useMemo(() => ({ children, expanded }), [children, expanded]);
  const rows = useMemo(() => visibleRows(state), [state]);
  const focusedKey = rows.some((row) => row.key === focused) ? focused : (rows[0]?.key ?? '');

  useEffect(() => {
    if (!focusOnRender.current) return;
    focusOnRender.current = false;
    itemRefs.current.get(focusedKey)?.focus();
  }, [focusedKey, rows]);

  const select = (key: string) => {
    setFocused(key);
    focusOnRender.current = true;
    onSelect(nodesByKey.current.get(key)?.urlId ?? null);
  };
  const toggle = (key: string) => {
    const node = nodesByKey.current.get(key);
    if (!node || !isExpandable(node)) return;
    const next = new Set(expanded);
    if (next.has(key)) next.delete(key);
    else {
      next.add(key);
      if (!children.has(key)) void load(key, node, 0);
    }
    setExpanded(next);
  };
  const loadMore = (parentKey: string) => {
    const loaded = children.get(parentKey)?.nodes.length ?? 0;
    void load(parentKey, nodesByKey.current.get(parentKey) ?? null, loaded);
  };
  /** Reloads every loaded level with the counts as they are now (a live crawl keeps changing them). */
  const refresh = () => {
    for (const [parentKey, loaded] of children) {
      if (parentKey !== ROOT_KEY && !expanded.has(parentKey)) continue;
      void load(parentKey, nodesByKey.current.get(parentKey) ?? null, 0, Math.min(500, Math.max(SITE_TREE_PAGE, loaded.nodes.length)));
    }
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const action = keyAction(rows, state, focusedKey, event.key);
    if (action === null) return;
    event.preventDefault();
    switch (action.kind) {
      case 'focus':
        select(action.key);
        break;
      case 'expand':
      case 'collapse':
        toggle(action.key);
        break;
      case 'activate': {
        const node = nodesByKey.current.get(action.key);
        if (node) showNodePages(node);
        break;
      }
      case 'loadMore':
        loadMore(action.parentKey);
        break;
      default: {
        const unknown: never = action;
        throw new Error(`Unknown tree action ${JSON.stringify(unknown)}`);
      }
    }
  };

  const renderRow = (row: VisibleRow) => {
    const node = row.node;
    const common = {
      ref: (element: HTMLLIElement | null) => {
        if (element) itemRefs.current.set(row.key, element);
        else itemRefs.current.delete(row.key);
      },
      role: 'treeitem',
      'aria-level': row.level,
      'aria-setsize': row.setSize,
      'aria-posinset': row.position,
      'aria-selected': row.key === focusedKey,
      tabIndex: row.key === focusedKey ? 0 : -1,
      className: `tree-row${row.key === focusedKey ? ' focused' : ''}`,
    } as const;
    const indent = { paddingLeft: `${(row.level - 1) * 18}px` };
    if (node === null) {
      return (
        <li
          key={row.key}
          {...common}
          aria-label={`Show ${Math.min(row.remaining, SITE_TREE_PAGE)} more of ${row.remaining} not shown`}
          onClick={() => {
            select(row.key);
            loadMore(row.parentKey);
          }}
        >
          <span className="tree-node" style={indent}>
            <span className="twisty" aria-hidden="true" />
            <span className="tree-more">Show more ({row.remaining.toLocaleString()} not shown)</span>
          </span>
        </li>
      );
    }
    const expandable = isExpandable(node);
    const open = expanded.has(row.key);
    return (
      <li key={row.key} {...common} aria-expanded={expandable ? open : undefined} aria-label={describeNode(node)} onClick={() => select(row.key)}>
        <span className="tree-node" style={indent}>
          <span
            className="twisty"
            aria-hidden="true"
            onClick={(event) => {
              event.stopPropagation();
              select(row.key);
              toggle(row.key);
            }}
          >
            {expandable ? (open ? '▾' : '▸') : ''}
          </span>
          <span
            className="tree-name"
            title={`Show ${node.kind === 'host' ? node.host : node.host + node.pathPrefix} in Pages`}
            onClick={(event) => {
              event.stopPropagation();
              showNodePages(node);
            }}
          >
            {displayName(node)}
          </span>
        </span>
        <span className="tree-count num">{node.urls.toLocaleString()}</span>
        {STATUS_CLASSES.map((statusClass) => (
          <span key={statusClass} className={`tree-count num class-${statusClass}`}>
            {node.statusClasses[statusClass] > 0 ? node.statusClasses[statusClass].toLocaleString() : ''}
          </span>
        ))}
        <span className="tree-count num">{node.queued > 0 ? node.queued.toLocaleString() : ''}</span>
      </li>
    );
  };

  return (
    <div className="site-tree">
      <div className="toolbar">
        <button type="button" onClick={refresh}>
          Refresh counts
        </button>
        <span className="hint">Arrow keys move and expand; Enter or a click on a name opens the Pages table filtered to it.</span>
      </div>
      {error ? (
        <p role="alert" className="field-error">
          The site tree could not be loaded: {error.message} ({error.code})
        </p>
      ) : null}
      <div className="tree-head" aria-hidden="true">
        <span>Host / path</span>
        <span className="num">URLs</span>
        {STATUS_CLASSES.map((statusClass) => (
          <span key={statusClass} className="num">
            {statusClass}
          </span>
        ))}
        <span className="num">queued</span>
      </div>
      {rows.length === 0 ? (
        <p className="muted">No URL yet.</p>
      ) : (
        <ul role="tree" aria-label="Site tree" className="tree" onKeyDown={onKeyDown}>
          {rows.map(renderRow)}
        </ul>
      )}
    </div>
  );
}
