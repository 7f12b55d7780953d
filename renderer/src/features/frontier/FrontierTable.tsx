import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FrontierRow, UrlState } from '../../../../shared/types/crawl';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { PageCache } from './page-cache';

const PAGE_SIZE = 100;
const ROW_HEIGHT = 28;
const REFRESH_MS = 1000;

/**
 * The frontier table: URL, host, state, depth. Virtualised (only visible rows are in the DOM) and
 * paged from SQLite by visible range; refreshed at most once a second while a crawl runs.
 */
export function FrontierTable() {
  const crawlId = useStore((s) => s.crawlId);
  const progress = useStore((s) => s.progress);
  const [stateFilter, setStateFilter] = useState<UrlState | ''>('');
  const [total, setTotal] = useState(0);
  const [, setVersion] = useState(0);
  const cache = useMemo(() => new PageCache<FrontierRow>(PAGE_SIZE), []);
  const scrollRef = useRef<HTMLDivElement>(null);
  const lastRefresh = useRef(0);

  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? PAGE_SIZE - 1;

  const load = useCallback(
    (pages: number[]) => {
      if (crawlId === null) return;
      for (const page of pages) {
        cache.markLoading(page);
        void api['frontier.queryUrls']({ crawlId, offset: page * PAGE_SIZE, limit: PAGE_SIZE, ...(stateFilter ? { state: stateFilter } : {}) }).then((result) => {
          if (!result.ok) {
            cache.store(page, []);
            return;
          }
          cache.store(page, result.value.rows);
          setTotal(result.value.total);
          setVersion((v) => v + 1);
        });
      }
    },
    [crawlId, stateFilter, cache],
  );

  useEffect(() => {
    cache.clear();
    setTotal(0);
    load([0]);
  }, [crawlId, stateFilter, cache, load]);

  useEffect(() => {
    const now = Date.now();
    if (now - lastRefresh.current < REFRESH_MS) return;
    lastRefresh.current = now;
    cache.clear();
    load(cache.missing(first, Math.max(first, last)));
    // Refresh on each progress event (at most 4/s, throttled to 1/s here).
  }, [progress]);

  useEffect(() => {
    const missing = cache.missing(first, Math.max(first, last));
    if (missing.length > 0) load(missing);
  });

  return (
    <section className="panel frontier" aria-label="Frontier">
      <div className="toolbar">
        <h2>Frontier</h2>
        <label htmlFor="state-filter">State</label>
        <select id="state-filter" value={stateFilter} onChange={(e) => setStateFilter(e.target.value as UrlState | '')}>
          <option value="">all</option>
          <option value="pending">pending</option>
          <option value="in_flight">in flight</option>
          <option value="done">done</option>
          <option value="error">error</option>
        </select>
        <span className="row-count" data-testid="frontier-total">
          {total} URLs
        </span>
      </div>
      <div role="table" aria-label="Frontier URLs" aria-rowcount={total + 1} className="table">
        <div role="rowgroup">
          <div role="row" className="table-row table-head" aria-rowindex={1}>
            <span role="columnheader">URL</span>
            <span role="columnheader">Host</span>
            <span role="columnheader">State</span>
            <span role="columnheader">Depth</span>
          </div>
        </div>
        <div ref={scrollRef} className="table-body" role="rowgroup">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = cache.row(item.index);
              return (
                <div
                  key={row ? row.id : `loading-${item.index}`}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className={`table-row state-${row?.state ?? 'loading'}`}
                  style={{ position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, width: '100%' }}
                >
                  <span role="cell" className="url" title={row?.errorReason ?? row?.url}>
                    {row?.url ?? '…'}
                  </span>
                  <span role="cell">{row?.host ?? ''}</span>
                  <span role="cell">{row?.state.replace('_', ' ') ?? ''}</span>
                  <span role="cell">{row?.depth ?? ''}</span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}
