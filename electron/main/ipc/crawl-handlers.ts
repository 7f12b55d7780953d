import type { IpcHandlers } from '../../../shared/ipc/contract';
import type { CrawlSettings } from '../../../shared/types/crawl';
import { CodedError } from '../../../shared/types/result';
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

/** Longest wait for a stopping crawl to record its in-flight fetches before "Apply now" resumes it. */
const STOP_WAIT_MS = 60_000;

/** Waits until `done()` is true, polling every 25 ms. @throws CodedError STOP_TIMEOUT */
async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new CodedError('STOP_TIMEOUT', `The crawl did not stop within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

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
        await waitFor(() => !crawls.isRunning(crawlId), STOP_WAIT_MS);
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
      return { summary, running: crawls.isRunning(crawlId), refusedByRule: repository.refusalCounts(crawlId) };
    },
    'crawl.applySettings': async ({ crawlId, settings }) => {
      const { crawls } = context.store();
      if (crawls.isRunning(crawlId)) {
        crawls.stop(crawlId);
        await waitFor(() => !crawls.isRunning(crawlId), STOP_WAIT_MS);
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
