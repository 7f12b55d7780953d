import { parseArgs } from 'node:util';
import { createCheckpoint, listCheckpoints, openDatabase } from '../../engine';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';

export const CHECKPOINTS_USAGE = 'Usage: crawlbench checkpoints --db FILE [--crawl ID] [--create NAME] [--json]';

/**
 * `crawlbench checkpoints`: lists a database's checkpoints (time, crawl, pages done, frontier
 * size, settings hash), or with `--create NAME` snapshots a crawl now. Listing opens the database
 * read-only (nothing in the file changes); either way a file that is not a Crawlbench database is
 * refused (NOT_A_CRAWL_DB, SCHEMA_TOO_NEW, DB_NOT_FOUND), exit code 2.
 */
export async function checkpointsCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, crawl: { type: 'string' }, create: { type: 'string' }, json: { type: 'boolean' } } }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'checkpoints'));
  }
  if (!values.db) return failLine(io, `MISSING_FLAG: --db FILE is required (see crawlbench checkpoints --help)`);
  let db;
  try {
    let crawlId = intFlag('crawl', values.crawl, 1);
    // Creating writes the checkpoint's row: a read-write handle; listing only reads.
    const writable = values.create ? openDatabase(values.db, { create: false }) : null;
    db = writable ?? openDatabase(values.db, { readonly: true });
    if (values.create && writable) {
      crawlId ??= (db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number | null) ?? 0;
      const made = await createCheckpoint(writable, crawlId, values.create);
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
    return failWith(io, error);
  } finally {
    db?.close();
  }
}
