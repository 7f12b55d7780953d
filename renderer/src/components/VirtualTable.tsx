import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, type ReactNode } from 'react';

/** One column: header text, CSS grid width, and how a row's cell looks. */
export interface Column<Row> {
  key: string;
  header: string;
  /** A CSS grid track size, e.g. `2fr` or `6rem`. */
  width: string;
  render(row: Row): ReactNode;
  /** Tooltip of the cell (full text of truncated values). */
  title?(row: Row): string | undefined;
  align?: 'end';
  /** The header is a button that asks the table's `onSort` for this column's order. */
  sortable?: boolean;
}

/** The order a table shows: which column, which way (`aria-sort` on its header). */
export interface TableSort {
  key: string;
  direction: 'asc' | 'desc';
}

/** What the table reads rows from (usePagedRows satisfies it). */
export interface RowSource<Row> {
  total: number;
  row(index: number): Row | undefined;
  setRange(first: number, last: number): void;
}

/** Props of {@link VirtualTable}. */
export interface VirtualTableProps<Row> {
  /** Accessible name of the table. */
  label: string;
  columns: Column<Row>[];
  source: RowSource<Row>;
  /** A stable key from the data (React keys and selection). */
  rowKey(row: Row): string | number;
  onSelect?(row: Row): void;
  selectedKey?: string | number | null;
  rowHeight?: number;
  emptyText?: string;
  className?: string;
  /** The current order (its header gets `aria-sort`); sorting itself is the source's job. */
  sort?: TableSort | null;
  /** A sortable column's header was activated. */
  onSort?(key: string): void;
}

/**
 * A table whose body is virtualised (TanStack Virtual: only visible rows are in the DOM) and whose
 * rows come from a paged source, fetched by visible range. Keys come from the data, so a row
 * keeps its DOM node while the table scrolls or refreshes.
 */
export function VirtualTable<Row>({ label, columns, source, rowKey, onSelect, selectedKey = null, rowHeight = 28, emptyText = 'Nothing to show', className, sort = null, onSort }: VirtualTableProps<Row>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: source.total, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const { setRange } = source;
  useEffect(() => setRange(first, Math.max(first, last)), [first, last, setRange]);
  const template = columns.map((column) => column.width).join(' ');

  return (
    <div role="table" aria-label={label} aria-rowcount={source.total + 1} className={`table ${className ?? ''}`}>
      <div role="rowgroup">
        <div role="row" aria-rowindex={1} className="table-row table-head" style={{ gridTemplateColumns: template }}>
          {columns.map((column) => {
            const sortable = column.sortable === true && onSort !== undefined;
            const sorted = sort !== null && sort.key === column.key ? sort.direction : null;
            return (
              <span
                role="columnheader"
                key={column.key}
                className={column.align === 'end' ? 'num' : undefined}
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : sortable ? 'none' : undefined}
              >
                {sortable ? (
                  <button type="button" className="sort-button" onClick={() => onSort(column.key)}>
                    {column.header}
                    <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
                  </button>
                ) : (
                  column.header
                )}
              </span>
            );
          })}
        </div>
      </div>
      <div ref={scrollRef} className="table-body" role="rowgroup" tabIndex={0} aria-label={`${label} rows`}>
        {source.total === 0 ? <p className="table-empty">{emptyText}</p> : null}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = source.row(item.index);
            const key = row === undefined ? `loading-${item.index}` : rowKey(row);
            const selected = row !== undefined && selectedKey !== null && key === selectedKey;
            return <VirtualRow key={key} row={row} index={item.index} start={item.start} height={rowHeight} template={template} columns={columns} selected={selected} onSelect={onSelect} />;
          })}
        </div>
      </div>
    </div>
  );
}

/** Props of one body row: its data (undefined while its page loads) and where it sits. */
interface VirtualRowProps<Row> {
  row: Row | undefined;
  index: number;
  start: number;
  height: number;
  template: string;
  columns: Column<Row>[];
  selected: boolean;
  onSelect: ((row: Row) => void) | undefined;
}

/**
 * One body row, memoised: while the table scrolls, rows already on screen keep their data and
 * offset, so only the rows entering the view render (pass stable `columns` and `onSelect`).
 */
const VirtualRow = memo(function VirtualRow<Row>({ row, index, start, height, template, columns, selected, onSelect }: VirtualRowProps<Row>) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={onSelect ? selected : undefined}
      tabIndex={onSelect && row ? 0 : undefined}
      className={`table-row${selected ? ' selected' : ''}${onSelect ? ' selectable' : ''}`}
      style={{ height, transform: `translateY(${start}px)`, gridTemplateColumns: template }}
      onClick={row && onSelect ? () => onSelect(row) : undefined}
      onKeyDown={
        row && onSelect
          ? (event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                onSelect(row);
              }
            }
          : undefined
      }
    >
      {columns.map((column) => (
        <span role="cell" key={column.key} className={column.align === 'end' ? 'num' : undefined} title={row ? column.title?.(row) : undefined}>
          {row ? column.render(row) : column === columns[0] ? '…' : ''}
        </span>
      ))}
    </div>
  );
}) as <Row>(props: VirtualRowProps<Row>) => ReactNode;
