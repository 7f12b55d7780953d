import type { IpcHandlers } from '../../shared/ipc/contract';
import type { HandlerContext } from './handlers';

/**
 * The Compare view (issue 14 part 7): compares two crawls of the open database, or one of it with
 * a crawl of another database file, and pages the kept comparison's changes (app/services/compare-service.ts).
 */
export function compareHandlers(context: HandlerContext): Pick<IpcHandlers, 'compare.run' | 'compare.changes'> {
  return {
    'compare.run': async ({ beforeCrawlId, afterCrawlId, afterFile }) =>
      context.store().compare.run({ beforeCrawlId, ...(afterCrawlId === undefined ? {} : { afterCrawlId }), ...(afterFile === undefined ? {} : { afterFile }) }),
    'compare.changes': async ({ comparisonId, kind, urlContains, offset, limit }) =>
      context.store().compare.changes({ comparisonId, offset, limit, ...(kind === undefined ? {} : { kind }), ...(urlContains === undefined ? {} : { urlContains }) }),
  };
}
