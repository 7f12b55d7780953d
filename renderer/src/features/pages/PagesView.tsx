import { useMemo, useState } from 'react';
import { useDebounced } from '../../hooks/use-debounced';
import { useStore } from '../../store';
import { ExtractorPanel } from './ExtractorPanel';
import { extractorNames } from './extracted-columns';
import { loadVisibleColumns, saveVisibleColumns, TABLE_COLUMN_LABELS, TABLE_COLUMNS, toggleColumn, type TableColumn } from './page-columns';
import { PagesFilters } from './PagesFilters';
import { PagesTable } from './PagesTable';

/** The column chooser: a checkbox per column, remembered across launches. */
function ColumnChooser({ visible, onChange }: { visible: readonly TableColumn[]; onChange(columns: TableColumn[]): void }) {
  return (
    <details className="column-chooser">
      <summary>Columns</summary>
      <fieldset>
        <legend>Columns shown</legend>
        {TABLE_COLUMNS.map((column) => (
          <label key={column} className="inline-check">
            <input type="checkbox" checked={visible.includes(column)} disabled={column === 'url'} onChange={() => onChange(toggleColumn(visible, column))} /> {TABLE_COLUMN_LABELS[column]}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/**
 * The Pages view (issue 11 part 2, Screaming Frog's "Internal"): every fetched, failed and blocked
 * URL of the open crawl with its status, content and links, sorted and filtered in SQLite. Filter
 * and sort live in the store (pages-slice), so other views open it filtered (`showPages`).
 */
export function PagesView() {
  const crawlId = useStore((s) => s.crawlId);
  const live = useStore((s) => s.progress?.status === 'running');
  const filter = useStore((s) => s.pagesFilter);
  const sort = useStore((s) => s.pagesSort);
  const setFilter = useStore((s) => s.setPagesFilter);
  const setSort = useStore((s) => s.setPagesSort);
  const settings = useStore((s) => s.opened?.summary.settings);
  const extractedRevision = useStore((s) => s.extractedRevision);
  const extractors = useMemo(() => extractorNames(settings), [settings]);
  const queriedFilter = useDebounced(filter);
  const [columns, setColumns] = useState(loadVisibleColumns);
  const [regexError, setRegexError] = useState<string | null>(null);
  const chooseColumns = (next: TableColumn[]) => {
    setColumns(next);
    saveVisibleColumns(next);
  };
  return (
    <section className="panel pages" aria-label="Pages">
      <div className="toolbar">
        <h2>Pages</h2>
        <ColumnChooser visible={columns} onChange={chooseColumns} />
      </div>
      <PagesFilters filter={filter} onChange={setFilter} regexError={filter.urlRegex && filter.urlContains ? regexError : null} />
      <ExtractorPanel />
      <PagesTable crawlId={crawlId} live={live} filter={queriedFilter} sort={sort} columns={columns} extractors={extractors} extractedRevision={extractedRevision} onSort={setSort} onRegexError={setRegexError} />
    </section>
  );
}
