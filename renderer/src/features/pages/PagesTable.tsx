import { useCallback, useMemo, useState } from 'react';
import type { PageColumn, PageListRow, PagesFilter, PagesSort } from '../../../../shared/types/pages';
import { INDEXABILITY_LABELS } from '../../../../shared/types/pages';
import { VirtualTable, type Column } from '../../components/VirtualTable';
import { formatTime } from '../../components/format';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { extractedColumnKey, extractedText } from './extracted-columns';
import { TABLE_COLUMN_LABELS, type TableColumn } from './page-columns';

/** A size in bytes in words: 512 B, 12.3 kB, 4.1 MB. */
function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The Status cell: the HTTP status, or why there is none. */
function statusText(row: PageListRow): string {
  if (row.status !== null) return String(row.status);
  return row.state === 'blocked' ? 'Blocked by robots' : 'Failed';
}

/** The Error cell: code and message of a failed row, the robots.txt refusal of a blocked one. */
function errorText(row: PageListRow): string {
  if (row.state === 'blocked') return row.errorMessage ?? 'robots.txt disallows this URL';
  if (row.errorCode === null) return '';
  return row.errorMessage ? `${row.errorCode}: ${row.errorMessage}` : row.errorCode;
}

const text = (value: string | null) => value ?? '';

/** Errors about the URL filter's regular expression: shown next to its field, not under the table. */
const REGEX_ERRORS = new Set(['INVALID_URL_REGEX', 'URL_REGEX_TOO_SLOW', 'REGEX_UNAVAILABLE']);

/** How each column looks (width, cell). */
const CELLS: Record<TableColumn, Omit<Column<PageListRow>, 'key' | 'header'>> = {
  url: { width: 'minmax(14rem, 2.6fr)', render: (row) => row.url, title: (row) => row.url },
  status: {
    width: '5.5rem',
    align: 'end',
    render: (row) => <span className={row.state === 'done' ? undefined : 'state-error'}>{statusText(row)}</span>,
    title: (row) => (row.errorCode ? errorText(row) : undefined),
  },
  contentType: { width: 'minmax(7rem, 0.9fr)', render: (row) => text(row.contentType), title: (row) => row.contentType ?? undefined },
  title: { width: 'minmax(8rem, 1.6fr)', render: (row) => text(row.title), title: (row) => row.title ?? undefined },
  metaDescription: { width: 'minmax(8rem, 1.6fr)', render: (row) => text(row.metaDescription), title: (row) => row.metaDescription ?? undefined },
  h1: { width: 'minmax(7rem, 1.2fr)', render: (row) => text(row.h1), title: (row) => row.h1 ?? undefined },
  canonical: { width: 'minmax(8rem, 1.4fr)', render: (row) => text(row.canonical), title: (row) => row.canonical ?? undefined },
  indexability: { width: '7.5rem', render: (row) => (row.indexability ? INDEXABILITY_LABELS[row.indexability] : '') },
  sizeBytes: { width: '5.5rem', align: 'end', render: (row) => (row.sizeBytes === null ? '' : formatBytes(row.sizeBytes)), title: (row) => (row.sizeBytes === null ? undefined : `${row.sizeBytes} bytes`) },
  responseMs: { width: '7.5rem', align: 'end', render: (row) => (row.responseMs === null ? '' : `${row.responseMs} ms`) },
  depth: { width: '3.5rem', align: 'end', render: (row) => row.depth },
  inlinks: { width: '4.5rem', align: 'end', render: (row) => row.inlinks },
  outlinks: { width: '4.5rem', align: 'end', render: (row) => row.outlinks },
  fetchedAtMs: { width: '9.5rem', render: (row) => (row.fetchedAtMs === null ? '' : formatTime(row.fetchedAtMs)) },
  error: { width: 'minmax(8rem, 1.6fr)', render: (row) => <span className="state-error">{errorText(row)}</span>, title: (row) => errorText(row) || undefined },
};

/** Props of {@link PagesTable}. */
export interface PagesTableProps {
  crawlId: number | null;
  live: boolean;
  filter: PagesFilter;
  sort: PagesSort;
  columns: readonly TableColumn[];
  /** The crawl's extractor names: one extracted column each, after `columns` (not sortable). */
  extractors?: readonly string[];
  /** Moves when the extracted values changed (a re-run of the extractors ended): the rows are read again. */
  extractedRevision?: number;
  onSort(sort: PagesSort): void;
  /** The URL filter's regex was refused (message), or accepted again (null). */
  onRegexError(message: string | null): void;
}

/**
 * The Pages table: the crawl's fetched, failed and blocked URLs, sorted and filtered in SQLite and
 * paged by visible range. A header sorts by its column (again: the other way); a row (click or
 * Enter) opens the URL inspector on its URL.
 */
export function PagesTable({ crawlId, live, filter, sort, columns, extractors = [], extractedRevision = 0, onSort, onRegexError }: PagesTableProps) {
  const inspectedUrlId = useStore((s) => s.inspectedUrlId);
  const [regexRefused, setRegexRefused] = useState(false);
  const fetchPage = useCallback(
    async (offset: number, limit: number, withTotal: boolean) => {
      const result = await api['pages.query']({ crawlId: crawlId ?? 0, offset, limit, withTotal, filter, sort });
      const refused = !result.ok && REGEX_ERRORS.has(result.error.code);
      setRegexRefused(refused);
      onRegexError(refused ? result.error.message : null);
      return result;
    },
    [crawlId, filter, sort, onRegexError],
  );
  const rows = usePagedRows({ queryKey: crawlId === null ? null : JSON.stringify([crawlId, filter, sort, extractedRevision]), fetchPage, live, refreshMs: 1000 });
  const tableColumns = useMemo(
    () => [
      ...columns.map((key): Column<PageListRow> => ({ key, header: TABLE_COLUMN_LABELS[key], sortable: key !== 'error', ...CELLS[key] })),
      ...extractors.map(
        (name): Column<PageListRow> => ({
          key: extractedColumnKey(name),
          header: name,
          width: 'minmax(6rem, 1fr)',
          render: (row) => extractedText(row.extracted?.[name]),
          title: (row) => extractedText(row.extracted?.[name]) || undefined,
        }),
      ),
    ],
    [columns, extractors],
  );
  const onHeader = useCallback(
    (key: string) => {
      const column = key as PageColumn;
      // A new column starts with what users look for first: text A→Z, numbers largest first.
      const firstDirection = column === 'url' || column === 'contentType' || column === 'title' || column === 'metaDescription' || column === 'h1' || column === 'canonical' || column === 'indexability' ? 'asc' : 'desc';
      onSort(sort.column === column ? { column, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { column, direction: firstDirection });
    },
    [sort, onSort],
  );
  const inspect = useCallback((row: PageListRow) => useStore.getState().inspectUrl(row.urlId), []);
  const tableSort = useMemo(() => ({ key: sort.column, direction: sort.direction }), [sort]);
  return (
    <>
      <span className="row-count" data-testid="pages-total">
        {rows.total} {rows.total === 1 ? 'page' : 'pages'}
      </span>
      <VirtualTable
        label="Pages"
        className="urls-table pages-table"
        columns={tableColumns}
        source={rows}
        rowKey={(row) => row.urlId}
        onSelect={inspect}
        selectedKey={inspectedUrlId}
        sort={tableSort}
        onSort={onHeader}
        emptyText={crawlId === null ? 'Open or start a crawl to see its pages' : 'No pages match'}
      />
      {rows.error && !regexRefused ? <p className="field-error">{rows.error}</p> : null}
    </>
  );
}
