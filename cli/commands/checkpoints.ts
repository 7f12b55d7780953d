import { parseArgs } from 'node:util';
import { createCheckpoint, listCheckpoints, openDatabase } from '../../engine';
import { failLine, intFlag, type CommandIo } from '../io';

export const CHECKPOINTS_USAGE = 'Usage: crawlbench checkpoints --db FILE [--crawl ID] [--create NAME] [--json]';

/**
 * `crawlbench checkpoints`: lists a database's checkpoints (time, crawl, pages done, frontier
 * size, settings hash), or with `--create NAME` snapshots a crawl now.
 */
export async function checkpointsCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, crawl: { type: 'string' }, create: { type: 'string' }, json: { type: 'boolean' } } }));
  } catch (error) {
    return failLine(io, `${(error as Error).message}\n${CHECKPOINTS_USAGE}`);
  }
  if (!values.db) return failLine(io, `--db FILE is required\n${CHECKPOINTS_USAGE}`);
  let db;
  try {
    db = openDatabase(values.db);
    let crawlId = intFlag('crawl', values.crawl, 1);
    if (values.create) {
      crawlId ??= db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number;
      const made = await createCheckpoint(db, crawlId, values.create);
      io.stderr.write(`checkpoint ${made.name} of crawl ${made.crawlId}: ${made.pagesDone} pages done, ${made.frontierSize} in the frontier -> ${made.file}\n`);
    }
    const list = listCheckpoints(db, crawlId);
    if (values.json) {
      for (const c of list) io.stdout.write(`${JSON.stringify(c)}\n`);
    } else if (list.length === 0) {
      io.stdout.write('no checkpoints\n');
    } else {
      io.stdout.write(`${'time'.padEnd(25)}${'crawl'.padEnd(7)}${'name'.padEnd(28)}${'done'.padStart(8)}${'frontier'.padStart(10)}  settings\n`);
      for (const c of list) {
        io.stdout.write(`${new Date(c.createdAtMs).toISOString().padEnd(25)}${String(c.crawlId).padEnd(7)}${c.name.padEnd(28)}${String(c.pagesDone).padStart(8)}${String(c.frontierSize).padStart(10)}  ${c.settingsHash}\n`);
      }
    }
    return 0;
  } catch (error) {
    return failLine(io, (error as Error).message);
  } finally {
    db?.close();
  }
}
