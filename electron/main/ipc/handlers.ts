import type { AppInfo, AppMode, IpcHandlers } from '../../../shared/ipc/contract';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import type { CrawlService } from '../services/crawl-service';
import type { CrawlSettings } from '../../../shared/types/crawl';

export interface HandlerContext {
  mode: AppMode;
  version: string;
  crawls: CrawlService;
  hostOverrides: AppInfo['hostOverrides'];
  closedResolver: boolean;
}

/**
 * The contract's handlers: thin adapters from validated requests to the services.
 * `IpcHandlers` is a mapped type over the channel list, so a missing handler fails to compile.
 */
export function createHandlers(context: HandlerContext): IpcHandlers {
  const { crawls } = context;
  return {
    'app.getInfo': async () => ({
      mode: context.mode,
      version: context.version,
      hostOverrides: context.hostOverrides,
      closedResolver: context.closedResolver,
      defaultSettings: { ...DEFAULT_CRAWL_SETTINGS, hostOverrides: [...context.hostOverrides], closedResolver: context.closedResolver },
    }),
    'crawl.start': async ({ seeds, settings }) => ({ crawlId: crawls.start(seeds, settings as Partial<CrawlSettings> | undefined).crawlId }),
    'crawl.stop': async ({ crawlId }) => ({ stopped: crawls.stop(crawlId) }),
    'crawl.list': async () => crawls.list(),
    'crawl.getProgress': async ({ crawlId }) => crawls.progress(crawlId),
    'frontier.queryUrls': async ({ crawlId, ...query }) => crawls.repositoryForQueries.queryUrls(crawlId, query),
  };
}
