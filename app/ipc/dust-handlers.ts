import type { IpcHandlers } from '../../shared/ipc/contract';
import type { HandlerContext } from './handlers';

type DustChannels = 'dust.mine' | 'dust.accept' | 'dust.undo' | 'dust.groupRules';

/** The Duplicates view's Rules section: DUST rules mined from a crawl, accepted into it, undone (app/services/dust-service.ts). */
export function dustHandlers(context: HandlerContext): Pick<IpcHandlers, DustChannels> {
  return {
    'dust.mine': async ({ crawlId, minSupport }) => context.store().dust.mine(crawlId, minSupport === undefined ? {} : { minSupport }),
    'dust.accept': async ({ crawlId, rule, whileRunning, source }) => context.store().dust.accept(crawlId, rule, { whileRunning, ...(source ? { source } : {}) }),
    'dust.undo': async ({ crawlId, ruleId }) => context.store().dust.undo(crawlId, ruleId),
    'dust.groupRules': async ({ crawlId, groupId }) => context.store().dust.groupRules(crawlId, groupId),
  };
}
