import type { IpcHandlers } from '../../shared/ipc/contract';
import { listTraps } from '../../engine';
import type { HandlerContext } from './handlers';

/** The Frontier view's crawler traps (issue 12): the list with evidence, and Release / Exclude permanently. */
export function trapHandlers(context: HandlerContext): Pick<IpcHandlers, 'frontier.queryTraps' | 'frontier.setTrapState'> {
  return {
    'frontier.queryTraps': async ({ crawlId }) => listTraps(context.store().db, crawlId),
    'frontier.setTrapState': async ({ crawlId, trapId, state }) => {
      const { crawls } = context.store();
      const change = await crawls.setTrapState(crawlId, trapId, state);
      const running = crawls.isRunning(crawlId);
      const message =
        state === 'released'
          ? `Released: ${change.released} URLs of ${change.host} are queued again${running ? '' : ' (resume the crawl to fetch them)'}; new matches are crawled.`
          : `Excluded for good: its URLs on ${change.host} stay held${change.excludeRuleAdded ? '; its pattern is now an exclude rule of the crawl (Never URLs matching), so later runs refuse new matches' : ' and new matches are held too'}.`;
      return { trapId, state, released: change.released, message };
    },
  };
}
