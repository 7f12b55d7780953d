import type { IpcHandlers } from '../../shared/ipc/contract';
import type { CheckpointRow } from '../../shared/ipc/views';
import { createCheckpoint, listCheckpoints, type CheckpointInfo } from '../../engine';
import type { HandlerContext } from './handlers';

/** The fields the view shows (the snapshot's file path stays in main). */
function toRow(info: CheckpointInfo): CheckpointRow {
  return { crawlId: info.crawlId, name: info.name, createdAtMs: info.createdAtMs, pagesDone: info.pagesDone, frontierSize: info.frontierSize, settingsHash: info.settingsHash };
}

/** The Checkpoints view: list, create, and resume from a checkpoint (a rollback of the database). */
export function checkpointHandlers(context: HandlerContext): Pick<IpcHandlers, 'checkpoints.list' | 'checkpoints.create' | 'checkpoints.resume'> {
  return {
    'checkpoints.list': async ({ crawlId }) => listCheckpoints(context.store().db, crawlId).map(toRow),
    'checkpoints.create': async ({ crawlId, name }) => toRow(await createCheckpoint(context.store().db, crawlId, name)),
    'checkpoints.resume': async ({ crawlId, name }) => {
      await context.rollBack(crawlId, name);
      const { crawls, settings } = context.store();
      crawls.resume(crawlId);
      context.recovery.dismiss(crawlId);
      settings.saveLastOpenCrawl(crawlId);
      return { crawlId };
    },
  };
}
