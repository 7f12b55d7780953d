import { useCallback } from 'react';
import type { UrlTableRow } from '../../../../shared/ipc/views';
import type { UrlState } from '../../../../shared/types/crawl';
import { URL_NAME_LABELS } from '../../../../shared/types/url-names';
import { formatCount } from '../../components/format';
import { VirtualTable, type Column } from '../../components/VirtualTable';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { api } from '../../ipc/client';
import { useStore } from '../../store';

/** A failed URL's error code and message, as one line ("DNS_FAILURE: no such host"). */
const errorText = (row: UrlTableRow): string => [row.errorCode, row.errorReason].filter(Boolean).join(': ') || 'failed, no reason recorded';

const COLUMNS: Column<UrlTableRow>[] = [
  { key: 'url', header: 'URL', width: 'minmax(12rem, 2.4fr)', render: (row) => row.url, title: (row) => row.url },
  { key: 'host', header: 'Host', width: 'minmax(7rem, 1fr)', render: (row) => row.host },
  { key: 'state', header: 'State', width: '5.5rem', render: (row) => <span className={`state state-${row.state}`}>{row.state.replace('_', ' ')}</span> },
  {
    key: 'error',
    header: 'Error',
    width: 'minmax(8rem, 1.4fr)',
    render: (row) => (row.state === 'error' ? <span className="error-cell">{errorText(row)}</span> : ''),
    title: (row) => (row.state === 'error' ? errorText(row) : undefined),
  },
  { key: 'depth', header: 'Depth', width: '3.5rem', align: 'end', render: (row) => row.depth },
  { key: 'normalized', header: URL_NAME_LABELS.normalized, width: 'minmax(10rem, 1.6fr)', render: (row) => row.normalized, title: (row) => row.normalized },
  { key: 'key', header: URL_NAME_LABELS.normalizedKey, width: 'minmax(8rem, 1fr)', render: (row) => <span className="key">{row.normalizedKey}</span>, title: (row) => row.normalizedKey },
  { key: 'from', header: 'Discovered from', width: 'minmax(10rem, 1.6fr)', render: (row) => row.discoveredFrom ?? 'seed', title: (row) => row.discoveredFrom ?? undefined },
];

/** The URL table: every URL of the crawl with its state, paged from SQLite by visible range; a row (click or Enter) opens the URL inspector. */
export function UrlTable({ crawlId, live, state, host, text }: { crawlId: number | null; live: boolean; state: UrlState | ''; host: string; text: string }) {
  const fetchPage = useCallback(
    (offset: number, limit: number, withTotal: boolean) =>
      api['frontier.queryUrls']({ crawlId: crawlId ?? 0, offset, limit, withTotal, ...(state ? { state } : {}), ...(host ? { host } : {}), ...(text ? { text } : {}) }),
    [crawlId, state, host, text],
  );
  const inspectUrl = useStore((s) => s.inspectUrl);
  const inspectedUrlId = useStore((s) => s.inspectedUrlId);
  const rows = usePagedRows({ queryKey: crawlId === null ? null : JSON.stringify([crawlId, state, host, text]), fetchPage, live, refreshMs: 1000 });
  return (
    <>
      <span className="row-count" data-testid="frontier-total">
        {formatCount(rows.total, 'URL')}
      </span>
      <VirtualTable
        label="Frontier URLs"
        className="urls-table"
        columns={COLUMNS}
        source={rows}
        rowKey={(row) => row.id}
        onSelect={(row) => inspectUrl(row.id)}
        selectedKey={inspectedUrlId}
        emptyText={crawlId === null ? 'Open or start a crawl to see its frontier' : 'No URLs match'}
      />
      {rows.error ? <p className="field-error">{rows.error}</p> : null}
    </>
  );
}
