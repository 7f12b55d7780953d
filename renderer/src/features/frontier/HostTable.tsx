import { useCallback, useEffect, useMemo, useState } from 'react';
import type { HostRow } from '../../../../shared/ipc/views';
import { formatCount, formatCountdown } from '../../components/format';
import { VirtualTable, type Column } from '../../components/VirtualTable';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { api } from '../../ipc/client';

const COLUMNS: Column<HostRow>[] = [
  { key: 'host', header: 'Host', width: 'minmax(10rem, 2fr)', render: (row) => row.host, title: (row) => row.host },
  { key: 'domain', header: 'Registrable domain', width: 'minmax(8rem, 1.4fr)', render: (row) => row.registrableDomain ?? '—' },
  { key: 'queued', header: 'Queued', width: '5rem', align: 'end', render: (row) => row.queued },
  { key: 'inFlight', header: 'In flight', width: '5rem', align: 'end', render: (row) => row.inFlight },
  { key: 'done', header: 'Done', width: '5rem', align: 'end', render: (row) => row.done },
  { key: 'errors', header: 'Errors', width: '5rem', align: 'end', render: (row) => row.errors },
  { key: 'next', header: 'Next eligible', width: '7rem', render: (row) => (row.queued > 0 ? <Countdown atMs={row.nextEligibleAtMs} /> : '') },
  { key: 'waiting', header: 'Waiting reason', width: 'minmax(9rem, 1.4fr)', render: (row) => row.waitingReason ?? (row.queued > 0 && row.nextEligibleAtMs !== null ? 'ready' : '') },
];

const NO_TRAP_HOSTS: ReadonlySet<string> = new Set();

/** The columns with a "Trap" column: "trap suspected" on hosts with a suspected crawler trap (the evidence is in the trap panel). */
function columnsWithTraps(trapHosts: ReadonlySet<string>): Column<HostRow>[] {
  return [...COLUMNS, { key: 'trap', header: 'Trap', width: '8rem', render: (row) => (trapHosts.has(row.host) ? <span className="trap-badge">trap suspected</span> : '') }];
}

/** Tick of the countdown: tenths of a second are shown, so 100 ms. */
const COUNTDOWN_TICK_MS = 100;

/**
 * "in 1.2 s" until `atMs` (epoch ms), ticking on its own so the table does not re-render, then
 * "now": a host's past eligible time is never shown. Stops ticking once it reads "now".
 */
function Countdown({ atMs }: { atMs: number | null }) {
  const [nowMs, setNowMs] = useState(() => Date.now());
  const waiting = atMs !== null && atMs > nowMs;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNowMs(Date.now()), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, [waiting, atMs]);
  // A refreshed row may carry a later time than the one this countdown reached "now" with.
  useEffect(() => setNowMs(Date.now()), [atMs]);
  return <span data-testid="next-eligible">{formatCountdown(atMs, nowMs)}</span>;
}

/**
 * The host table: URLs per state from SQLite, next eligible time and waiting reason (in words)
 * from the running crawl's politeness state. Selecting a host filters the URL table to it.
 */
export function HostTable({
  crawlId,
  live,
  text,
  selectedHost,
  onSelectHost,
  trapHosts = NO_TRAP_HOSTS,
}: {
  crawlId: number | null;
  live: boolean;
  text: string;
  selectedHost: string;
  onSelectHost(host: string): void;
  /** Hosts with a suspected crawler trap. */
  trapHosts?: ReadonlySet<string>;
}) {
  const fetchPage = useCallback(
    (offset: number, limit: number) => api['frontier.queryHosts']({ crawlId: crawlId ?? 0, offset, limit, ...(text ? { text } : {}) }),
    [crawlId, text],
  );
  const rows = usePagedRows({ queryKey: crawlId === null ? null : `${crawlId} ${text}`, fetchPage, live, refreshMs: 1000 });
  const columns = useMemo(() => columnsWithTraps(trapHosts), [trapHosts]);
  return (
    <>
      <VirtualTable
        label="Frontier hosts"
        className="hosts-table"
        columns={columns}
        source={rows}
        rowKey={(row) => row.host}
        selectedKey={selectedHost || null}
        onSelect={(row) => onSelectHost(row.host === selectedHost ? '' : row.host)}
        emptyText={crawlId === null ? 'Open or start a crawl to see its hosts' : 'No hosts'}
      />
      <span className="row-count" data-testid="hosts-total">
        {formatCount(rows.total, 'host')}
      </span>
      {rows.error ? <p className="field-error">{rows.error}</p> : null}
    </>
  );
}
