import { useEffect, useState } from 'react';
import type { CrawlOverview } from '../../../../shared/types/overview';
import type { ErrorInfo } from '../../../../shared/types/result';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { createThrottledRefresh } from './refresh';

/** Least milliseconds between two live refreshes of the Overview. */
export const MIN_REFRESH_GAP_MS = 1_000;
/** A refresh waits at least this many times as long as main took to compute the last one. */
export const REFRESH_GAP_PER_QUERY_MS = 10;

/**
 * The open crawl's Overview, loaded when the crawl changes and refreshed on its progress events
 * (throttled: one request at a time, spaced by max(MIN_REFRESH_GAP_MS, REFRESH_GAP_PER_QUERY_MS ×
 * the last queryMs), so a big crawl's charts cost it at most about a tenth of main's time).
 * Progress events bypass React: the store subscription only triggers the refresh.
 */
export function useOverview(crawlId: number | null): { overview: CrawlOverview | null; error: ErrorInfo | null } {
  const [overview, setOverview] = useState<CrawlOverview | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  useEffect(() => {
    setOverview(null);
    setError(null);
    if (crawlId === null) return undefined;
    let queryMs = 0;
    let disposed = false;
    const refresh = createThrottledRefresh(
      async () => {
        const result = await api['overview.get']({ crawlId });
        if (disposed) return;
        if (result.ok) {
          queryMs = result.value.queryMs;
          setOverview(result.value);
          setError(null);
        } else {
          setError(result.error);
        }
      },
      () => Math.max(MIN_REFRESH_GAP_MS, REFRESH_GAP_PER_QUERY_MS * queryMs),
    );
    refresh.trigger();
    const unsubscribe = useStore.subscribe((state, previous) => {
      if (state.progress !== previous.progress && state.progress?.crawlId === crawlId) refresh.trigger();
    });
    return () => {
      disposed = true;
      refresh.dispose();
      unsubscribe();
    };
  }, [crawlId]);
  return { overview, error };
}
