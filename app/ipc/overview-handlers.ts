import type { IpcHandlers } from '../../shared/ipc/contract';
import type { HandlerContext } from './handlers';

/** The Overview tab and the site tree: a crawl's aggregates, a node's children, a URL's ancestry. */
export function overviewHandlers(context: HandlerContext): Pick<IpcHandlers, 'overview.get' | 'siteTree.children' | 'urls.ancestry'> {
  return {
    'overview.get': async ({ crawlId }) => context.store().overview.overview(crawlId),
    'siteTree.children': async ({ crawlId, ...query }) => context.store().overview.children(crawlId, query),
    'urls.ancestry': async ({ crawlId, urlId }) => context.store().overview.ancestry(crawlId, urlId),
  };
}
