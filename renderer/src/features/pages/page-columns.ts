/**
 * The Pages table's visible columns: the contract's columns (all sortable, shared/types/pages.ts)
 * plus `error`, the error code and message of a failed row (shown, not sorted). The user's choice
 * is remembered in localStorage and read back defensively (unknown or missing entries ignored).
 */
import { DEFAULT_PAGE_COLUMNS, PAGE_COLUMN_LABELS, PAGE_COLUMNS, type PageColumn } from '../../../../shared/types/pages';

/** A column the table can show. */
export type TableColumn = PageColumn | 'error';

/** Every column the chooser offers, in table order. */
export const TABLE_COLUMNS: readonly TableColumn[] = [...PAGE_COLUMNS, 'error'];

/** Headings in words. */
export const TABLE_COLUMN_LABELS: Record<TableColumn, string> = { ...PAGE_COLUMN_LABELS, error: 'Error' };

/** Shown until the user chooses: the contract's defaults and the error. */
export const DEFAULT_TABLE_COLUMNS: readonly TableColumn[] = [...DEFAULT_PAGE_COLUMNS, 'error'];

/** localStorage key of the chosen columns (a JSON array of column ids). */
export const COLUMNS_STORAGE_KEY = 'crawlbench.pages.columns';

/**
 * The visible columns from a stored value: known ids only, in table order, URL always included;
 * the defaults when nothing (valid) is stored.
 * @example parseVisibleColumns('["status","nope"]') → ['url', 'status']
 */
export function parseVisibleColumns(stored: string | null): TableColumn[] {
  if (stored === null) return [...DEFAULT_TABLE_COLUMNS];
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return [...DEFAULT_TABLE_COLUMNS];
  }
  if (!Array.isArray(value)) return [...DEFAULT_TABLE_COLUMNS];
  const chosen = new Set<unknown>(value);
  return TABLE_COLUMNS.filter((column) => column === 'url' || chosen.has(column));
}

/** Shows `column` when hidden and hides it when shown (URL stays). @returns the new visible list in table order */
export function toggleColumn(visible: readonly TableColumn[], column: TableColumn): TableColumn[] {
  if (column === 'url') return [...visible];
  const next = new Set(visible);
  if (next.has(column)) next.delete(column);
  else next.add(column);
  return TABLE_COLUMNS.filter((candidate) => next.has(candidate));
}

/** The remembered columns (defaults where storage is unavailable). */
export function loadVisibleColumns(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): TableColumn[] {
  try {
    return parseVisibleColumns(storage?.getItem(COLUMNS_STORAGE_KEY) ?? null);
  } catch {
    return [...DEFAULT_TABLE_COLUMNS];
  }
}

/** Remembers the visible columns; a storage that refuses (private mode, quota) is ignored. */
export function saveVisibleColumns(columns: readonly TableColumn[], storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(columns));
  } catch {
    // Not remembered: the choice still applies until the page reloads.
  }
}
