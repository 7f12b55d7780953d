import type { IpcHandlers } from '../../shared/ipc/contract';
import type { HandlerContext } from './handlers';

/** The Frontier view: URL table and host table, paged from SQLite. */
export function frontierHandlers(context: HandlerContext): Pick<IpcHandlers, 'frontier.queryUrls' | 'frontier.queryHosts'> {
  return {
    'frontier.queryUrls': async ({ crawlId, ...query }) => context.store().frontier.urls(crawlId, query),
    'frontier.queryHosts': async ({ crawlId, ...query }) => {
      const { frontier, crawls } = context.store();
      return frontier.hosts(crawlId, query, crawls.liveHostStates(crawlId));
    },
  };
}
