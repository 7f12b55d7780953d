import type { IpcHandlers } from '../../shared/ipc/contract';
import type { CrawlSettings } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import type { HandlerContext } from './handlers';

type CrawlChannels =
  | 'crawl.start'
  | 'crawl.stop'
  | 'crawl.list'
  | 'crawl.getProgress'
  | 'crawl.pause'
  | 'crawl.resume'
  | 'crawl.open'
  | 'crawl.applySettings'
  | 'crawl.getRecovery'
  | 'crawl.discardRecovery';

/** Crawl sessions: start, pause, resume, stop, open, apply settings now, and the after-crash offer. */
export function crawlHandlers(context: HandlerContext): Pick<IpcHandlers, CrawlChannels> {
  return {
    'crawl.start': async ({ seeds, settings }) => {
      const { crawls, settings: saved } = context.store();
      const { crawlId } = crawls.start(seeds, settings as Partial<CrawlSettings> | undefined);
      saved.saveLastOpenCrawl(crawlId);
      return { crawlId };
    },
    'crawl.stop': async ({ crawlId }) => ({ stopped: context.store().crawls.stop(crawlId) }),
    'crawl.pause': async ({ crawlId }) => ({ paused: context.store().crawls.pause(crawlId) }),
    'crawl.resume': async ({ crawlId }) => {
      const { crawls, settings } = context.store();
      // A crawl pausing or stopping already reports that status while its in-flight fetches
      // finish: wait for them (a click on Resume right after Pause must not fail).
      if (crawls.isRunning(crawlId)) {
        if (crawls.progress(crawlId).status === 'running') throw new CodedError('CRAWL_RUNNING', `Crawl ${crawlId} is already running`);
        await crawls.whenStopped(crawlId);
      }
      crawls.resume(crawlId);
      context.recovery.dismiss(crawlId);
      settings.saveLastOpenCrawl(crawlId);
      return { crawlId };
    },
    'crawl.list': async () => context.store().crawls.list(),
    'crawl.getProgress': async ({ crawlId }) => context.store().crawls.progress(crawlId),
    'crawl.open': async ({ crawlId }) => {
      const { crawls, settings } = context.store();
      const repository = crawls.repositoryForQueries;
      const summary = repository.getCrawl(crawlId);
      settings.saveLastOpenCrawl(crawlId);
      return {
        summary,
        running: crawls.isRunning(crawlId),
        refusedByRule: repository.refusalCounts(crawlId),
        rateHistory: crawls.rateHistory(crawlId),
        seedFailures: crawls.seedFailures(crawlId),
      };
    },
    'crawl.applySettings': async ({ crawlId, settings }) => {
      const { crawls } = context.store();
      if (crawls.isRunning(crawlId)) {
        crawls.stop(crawlId);
        await crawls.whenStopped(crawlId);
      }
      crawls.resume(crawlId, settings);
      return { crawlId };
    },
    'crawl.getRecovery': async () => {
      const { crawls } = context.store();
      return context.recovery.offer(crawls.repositoryForQueries, (crawlId) => crawls.isRunning(crawlId));
    },
    'crawl.discardRecovery': async ({ crawlId }) => ({ discarded: context.recovery.dismiss(crawlId) }),
  };
}
