import { useCallback, useState } from 'react';
import type { ContentGroupKind, ContentGroupRow } from '../../../../shared/ipc/views';
import { formatCount } from '../../components/format';
import { VirtualTable, type Column } from '../../components/VirtualTable';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { api } from '../../ipc/client';

const COLUMNS: Column<ContentGroupRow>[] = [
  { key: 'kind', header: 'Kind', width: '4.5rem', render: (row) => row.kind },
  { key: 'first', header: 'First page', width: 'minmax(10rem, 1fr)', render: (row) => row.firstUrl, title: (row) => row.fingerprint ?? row.firstUrl },
  { key: 'members', header: 'Pages', width: '4rem', align: 'end', render: (row) => row.members },
  { key: 'similarity', header: 'Similarity', width: '6rem', align: 'end', render: (row) => row.minSimilarity.toFixed(2) },
];

/** Content groups: pages with identical visible text (exact) or near-duplicate shingle sets (near). */
export function ContentGroupList({ crawlId, live, selected, onSelect }: { crawlId: number | null; live: boolean; selected: number | null; onSelect(groupId: number): void }) {
  const [kind, setKind] = useState<ContentGroupKind | ''>('');
  const fetchPage = useCallback(
    (offset: number, limit: number) => api['duplicates.queryContentGroups']({ crawlId: crawlId ?? 0, offset, limit, ...(kind ? { kind } : {}) }),
    [crawlId, kind],
  );
  const rows = usePagedRows({ queryKey: crawlId === null ? null : `${crawlId} ${kind}`, fetchPage, live, refreshMs: 2000 });
  return (
    <div className="group-list">
      <div className="toolbar">
        <h3>Content groups</h3>
        <span className="row-count" data-testid="content-groups-total">
          {formatCount(rows.total, 'group')}
        </span>
        <label htmlFor="content-kind">Kind</label>
        <select id="content-kind" value={kind} onChange={(event) => setKind(event.target.value as ContentGroupKind | '')}>
          <option value="">all</option>
          <option value="exact">exact</option>
          <option value="near">near</option>
        </select>
      </div>
      <VirtualTable
        label="Content groups"
        columns={COLUMNS}
        source={rows}
        rowKey={(row) => row.id}
        selectedKey={selected}
        onSelect={(row) => onSelect(row.id)}
        emptyText={crawlId === null ? 'Open or start a crawl' : 'No duplicate content found'}
      />
    </div>
  );
}
