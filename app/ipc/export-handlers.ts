import type { IpcHandlers } from '../../shared/ipc/contract';
import type { HandlerContext } from './handlers';

/** The Crawls view's export: starts a streaming export; progress arrives as export.onDidProgress. */
export function exportHandlers(context: HandlerContext): Pick<IpcHandlers, 'export.start'> {
  return {
    'export.start': async (request) => {
      context.store().crawls.repositoryForQueries.getCrawl(request.crawlId);
      return context.exports.start(request).progress;
    },
  };
}
