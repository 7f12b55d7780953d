import type { IpcHandlers } from '../../shared/ipc/contract';
import type { HandlerContext } from './handlers';

/** The Pages table: one page of the crawl's fetched, failed and blocked URLs, filtered and sorted in SQLite. */
export function pagesHandlers(context: HandlerContext): Pick<IpcHandlers, 'pages.query'> {
  return {
    'pages.query': async ({ crawlId, ...query }) => context.store().pages.query(crawlId, query),
  };
}
