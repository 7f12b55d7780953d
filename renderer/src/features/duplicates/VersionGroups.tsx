import { useCallback, useEffect, useState } from 'react';
import type { VersionTemplateDetail, VersionTemplateRow } from '../../../../shared/ipc/views';
import { formatCount } from '../../components/format';
import { VirtualTable, type Column } from '../../components/VirtualTable';
import { useDebounced } from '../../hooks/use-debounced';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { api } from '../../ipc/client';
import { useStore } from '../../store';

const COLUMNS: Column<VersionTemplateRow>[] = [
  { key: 'template', header: 'Version URL template', width: 'minmax(12rem, 1fr)', render: (row) => row.template, title: (row) => row.template },
  { key: 'versions', header: 'Versions', width: 'minmax(8rem, 16rem)', render: (row) => row.versions.join(', '), title: (row) => `${row.versions.length} versions: ${row.versions.join(', ')}` },
];

/** The selected template's member URLs by version, each with how its fetch went; a row opens the URL inspector. */
function TemplateMembers({ crawlId, templateId }: { crawlId: number; templateId: number }) {
  const inspectUrl = useStore((s) => s.inspectUrl);
  const [detail, setDetail] = useState<VersionTemplateDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void api['duplicates.getVersionTemplate']({ crawlId, templateId }).then((result) => {
      if (!current) return;
      setDetail(result.ok ? result.value : null);
      setError(result.ok ? null : result.error.message);
    });
    return () => {
      current = false;
    };
  }, [crawlId, templateId]);
  if (error) return <p className="error">{error}</p>;
  if (!detail) return <p className="muted">Loading…</p>;
  return (
    <table className="members" aria-label="Version template members">
      <thead>
        <tr>
          <th scope="col">Version</th>
          <th scope="col">URL</th>
          <th scope="col">State</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {detail.members.map((member) => (
          <tr
            key={member.urlId}
            tabIndex={0}
            className="selectable"
            title="Open in the URL inspector (Enter)"
            onClick={() => inspectUrl(member.urlId)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                inspectUrl(member.urlId);
              }
            }}
          >
            <td>{member.version}</td>
            <td>{member.url}</td>
            <td>{member.state}</td>
            <td>{member.httpStatus ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The Versions grouping (seed 001's version URL templates): one page across software versions
 * (`docs.python.org/%s/library/datetime.html` with 3.11, 3.12, …), most versions first, from the
 * crawl's stored templates; selecting one lists its URLs by version.
 */
export function VersionGroups({ crawlId, live }: { crawlId: number | null; live: boolean }) {
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const filter = useDebounced(text);
  const fetchPage = useCallback(
    (offset: number, limit: number) => api['duplicates.queryVersionTemplates']({ crawlId: crawlId ?? 0, offset, limit, ...(filter ? { text: filter } : {}) }),
    [crawlId, filter],
  );
  const rows = usePagedRows({ queryKey: crawlId === null ? null : `${crawlId} ${filter}`, fetchPage, live, refreshMs: 2000 });
  useEffect(() => setSelected(null), [crawlId]);
  return (
    <div className="group-list version-groups">
      <div className="toolbar">
        <h3>Versions</h3>
        <span className="row-count" data-testid="version-templates-total">
          {formatCount(rows.total, 'template')}
        </span>
        <label htmlFor="version-template-filter">Contains</label>
        <input id="version-template-filter" type="search" value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <VirtualTable
        label="Version templates"
        columns={COLUMNS}
        source={rows}
        rowKey={(row) => row.templateId}
        selectedKey={selected}
        onSelect={(row) => setSelected(row.templateId)}
        emptyText={crawlId === null ? 'Open or start a crawl' : 'No page met under two versions'}
      />
      {crawlId !== null && selected !== null ? <TemplateMembers crawlId={crawlId} templateId={selected} /> : null}
    </div>
  );
}
