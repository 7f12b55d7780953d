import type { IpcHandlers } from '../../shared/ipc/contract';
import { CodedError } from '../../shared/types/result';
import type { HandlerContext } from './handlers';

/**
 * The Crawls view's export: starts a streaming export (progress arrives as export.onDidProgress),
 * and shows a finished export's file in the system file manager (Electron only).
 */
export function exportHandlers(context: HandlerContext): Pick<IpcHandlers, 'export.start' | 'export.showInFolder'> {
  return {
    'export.start': async (request) => {
      context.store().crawls.repositoryForQueries.getCrawl(request.crawlId);
      return context.exports.start(request).progress;
    },
    'export.showInFolder': async ({ exportId }) => {
      if (!context.showItemInFolder) throw new CodedError('NOT_SUPPORTED', 'Only the desktop app can open a folder; the file is at the path shown.');
      context.showItemInFolder(context.exports.finishedFile(exportId));
      return { shown: true };
    },
  };
}
