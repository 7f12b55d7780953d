import { useCallback, useState } from 'react';
import type { UrlGroupRow } from '../../../../shared/ipc/views';
import { URL_NAME_LABELS } from '../../../../shared/types/url-names';
import { formatCount } from '../../components/format';
import { VirtualTable, type Column } from '../../components/VirtualTable';
import { useDebounced } from '../../hooks/use-debounced';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { api } from '../../ipc/client';

const COLUMNS: Column<UrlGroupRow>[] = [
  { key: 'normalized', header: URL_NAME_LABELS.normalized, width: 'minmax(12rem, 1fr)', render: (row) => row.normalized, title: (row) => row.normalized },
  { key: 'members', header: 'Raw URLs', width: '6rem', align: 'end', render: (row) => row.members },
  { key: 'key', header: URL_NAME_LABELS.normalizedKey, width: '6rem', render: (row) => <span className="key">{row.normalizedKey}</span>, title: (row) => `${URL_NAME_LABELS.normalizedKey} ${row.normalizedKey}` },
];

/** Duplicate-URL groups: one normalized key each, with two or more raw spellings. */
export function UrlGroupList({ crawlId, live, selected, onSelect }: { crawlId: number | null; live: boolean; selected: number | null; onSelect(urlId: number): void }) {
  const [text, setText] = useState('');
  const filter = useDebounced(text);
  const fetchPage = useCallback(
    (offset: number, limit: number) => api['duplicates.queryUrlGroups']({ crawlId: crawlId ?? 0, offset, limit, ...(filter ? { text: filter } : {}) }),
    [crawlId, filter],
  );
  const rows = usePagedRows({ queryKey: crawlId === null ? null : `${crawlId} ${filter}`, fetchPage, live, refreshMs: 2000 });
  return (
    <div className="group-list">
      <div className="toolbar">
        <h3>URL groups</h3>
        <span className="row-count" data-testid="url-groups-total">
          {formatCount(rows.total, 'group')}
        </span>
        <label htmlFor="url-group-filter">Contains</label>
        <input id="url-group-filter" type="search" value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <VirtualTable
        label="URL groups"
        columns={COLUMNS}
        source={rows}
        rowKey={(row) => row.urlId}
        selectedKey={selected}
        onSelect={(row) => onSelect(row.urlId)}
        emptyText={crawlId === null ? 'Open or start a crawl' : 'No URL met under two spellings'}
      />
    </div>
  );
}
