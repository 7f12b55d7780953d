import type { IpcHandlers } from '../../shared/ipc/contract';
import type { HandlerContext } from './handlers';

/**
 * The Pages view's "Re-run extractors" (issue 14 part 2): starts a re-run of edited extractor
 * lines over the crawl's stored bodies; progress arrives as extract.onDidProgress
 * (app/services/extraction-service.ts).
 */
export function extractionHandlers(context: HandlerContext): Pick<IpcHandlers, 'extract.rerun'> {
  return {
    'extract.rerun': async ({ crawlId, lines }) => context.store().extraction.start(crawlId, lines).progress,
  };
}
