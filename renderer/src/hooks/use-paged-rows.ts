import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { RowPage } from '../../../shared/types/crawl';
import type { Result } from '../../../shared/types/result';
import { PageCache } from './page-cache';

/** Fetches one page; `withTotal: false` lets the server skip its COUNT(*) (total then -1). */
export type PageFetcher<Row> = (offset: number, limit: number, withTotal: boolean) => Promise<Result<RowPage<Row>>>;

/** Options of {@link usePagedRows}. */
export interface PagedRowsOptions<Row> {
  /** Identifies the query: a new key drops every page and starts again from the top. null: no query. */
  queryKey: string | null;
  fetchPage: PageFetcher<Row>;
  pageSize?: number;
  /** Reload the visible pages (and the total) this often while true, e.g. while the crawl runs. */
  live?: boolean;
  refreshMs?: number;
}

/** What {@link usePagedRows} returns: the total, rows by index, and the visible-range hook. */
export interface PagedRows<Row> {
  total: number;
  error: string | null;
  row(index: number): Row | undefined;
  /** Tell the hook which rows are visible; missing pages are fetched. */
  setRange(first: number, last: number): void;
  /** Reload visible pages and the total now. */
  refresh(): void;
}

/**
 * Rows of a server-side table paged by visible range (STYLE.md: the renderer never holds a
 * whole table): at most 20 pages are cached, answers of a superseded query are dropped, and a
 * live table reloads only its visible pages at most once per `refreshMs`.
 */
export function usePagedRows<Row>({ queryKey, fetchPage, pageSize = 100, live = false, refreshMs = 1000 }: PagedRowsOptions<Row>): PagedRows<Row> {
  const cache = useRef(new PageCache<Row>(pageSize)).current;
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const fetcher = useRef(fetchPage);
  fetcher.current = fetchPage;
  const generation = useRef(0);
  const range = useRef<[number, number]>([0, pageSize - 1]);
  const totalKnown = useRef(false);

  const load = useCallback(
    (pages: number[], withTotal: boolean) => {
      const mine = generation.current;
      pages.forEach((page, index) => {
        cache.markLoading(page);
        const countThis = withTotal && index === 0;
        void fetcher.current(page * pageSize, pageSize, countThis).then((result) => {
          if (mine !== generation.current) return;
          if (!result.ok) {
            cache.cancel(page);
            setError(result.error.message);
            return;
          }
          setError(null);
          cache.store(page, result.value.rows);
          if (result.value.total >= 0) {
            totalKnown.current = true;
            setTotal(result.value.total);
          }
          bump();
        });
      });
    },
    [cache, pageSize],
  );

  useEffect(() => {
    generation.current += 1;
    cache.clear();
    totalKnown.current = false;
    setTotal(0);
    setError(null);
    if (queryKey !== null) load([Math.floor(range.current[0] / pageSize)], true);
  }, [queryKey, cache, load, pageSize]);

  const refresh = useCallback(() => {
    if (queryKey === null) return;
    cache.invalidate();
    const pages = cache.missing(range.current[0], range.current[1]);
    load(pages.length > 0 ? pages : [Math.floor(range.current[0] / pageSize)], true);
  }, [queryKey, cache, load, pageSize]);

  useEffect(() => {
    if (!live || queryKey === null) return;
    const timer = setInterval(refresh, refreshMs);
    return () => clearInterval(timer);
  }, [live, queryKey, refresh, refreshMs]);

  const setRange = useCallback(
    (first: number, last: number) => {
      range.current = [first, last];
      if (queryKey === null) return;
      const missing = cache.missing(first, last);
      if (missing.length > 0) load(missing, !totalKnown.current);
    },
    [queryKey, cache, load],
  );

  return { total, error, row: (index) => cache.row(index), setRange, refresh };
}
