import { useMemo, useState } from 'react';
import { useDebounced } from '../../hooks/use-debounced';
import type { UrlState } from '../../../../shared/types/crawl';
import { useStore } from '../../store';
import { HostTable } from './HostTable';
import { TrapPanel, useTraps } from './TrapPanel';
import { UrlTable } from './UrlTable';

/** The Frontier view: hosts and their politeness state above the URL table with its filters. */
export function FrontierView() {
  const crawlId = useStore((s) => s.crawlId);
  const live = useStore((s) => s.progress?.status === 'running');
  const [state, setState] = useState<UrlState | ''>('');
  const [host, setHost] = useState('');
  const [text, setText] = useState('');
  const deferredHost = useDebounced(host.trim().toLowerCase());
  const deferredText = useDebounced(text);
  const traps = useTraps(crawlId, live);
  const trapHosts = useMemo(() => new Set(traps.traps.filter((trap) => trap.state === 'suspected').map((trap) => trap.host)), [traps.traps]);
  return (
    <section className="panel frontier" aria-label="Frontier">
      <h2>Hosts</h2>
      <HostTable crawlId={crawlId} live={live} text="" selectedHost={deferredHost} onSelectHost={setHost} trapHosts={trapHosts} />
      {crawlId !== null ? <TrapPanel crawlId={crawlId} traps={traps.traps} error={traps.error} onChanged={traps.reload} onSelectHost={setHost} /> : null}
      <div className="toolbar">
        <h2>URLs</h2>
        <label htmlFor="state-filter">State</label>
        <select id="state-filter" value={state} onChange={(event) => setState(event.target.value as UrlState | '')}>
          <option value="">all</option>
          <option value="pending">pending</option>
          <option value="in_flight">in flight</option>
          <option value="done">done</option>
          <option value="error">error</option>
          <option value="blocked">blocked by robots.txt</option>
          <option value="held">held (trap suspected)</option>
        </select>
        <label htmlFor="host-filter">Host</label>
        <input id="host-filter" value={host} onChange={(event) => setHost(event.target.value)} placeholder="exact host" />
        <label htmlFor="text-filter">URL contains</label>
        <input id="text-filter" type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="text" />
      </div>
      <UrlTable crawlId={crawlId} live={live} state={state} host={deferredHost} text={deferredText} />
    </section>
  );
}
