import type { StateCreator } from 'zustand';
import type { PagesFilter, PagesSort } from '../../../shared/types/pages';
import type { Store } from './index';

/** The Pages table's filter and sort, shared so other views (Overview, site tree, Crawl counters) can open it filtered. */
export interface PagesSlice {
  pagesFilter: PagesFilter;
  pagesSort: PagesSort;
  setPagesFilter(filter: PagesFilter): void;
  setPagesSort(sort: PagesSort): void;
  /** Replaces the Pages filter with `filter` and shows the Pages tab (a click-through from a chart bar or counter). */
  showPages(filter: PagesFilter): void;
}

/** Creates the pages slice (zustand slices pattern). */
export const createPagesSlice: StateCreator<Store, [], [], PagesSlice> = (set) => ({
  pagesFilter: {},
  pagesSort: { column: 'url', direction: 'asc' },
  setPagesFilter(filter) {
    set({ pagesFilter: filter });
  },
  setPagesSort(sort) {
    set({ pagesSort: sort });
  },
  showPages(filter) {
    set({ pagesFilter: filter, tab: 'Pages' });
  },
});
