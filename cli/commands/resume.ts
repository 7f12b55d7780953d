import { parseArgs } from 'node:util';
import { CodedError } from '../../shared/types/result';
import { listCheckpoints, recordCheckpoints, restoreCheckpoint, openDatabase, parseHostOverride } from '../../engine';
import { CrawlService } from '../../app/services/crawl-service';
import { failLine, intFlag, type CommandIo } from '../io';
import { housekeepingLine, resolverFlags } from './crawl';

export const RESUME_USAGE =
  'Usage: crawlbench resume --db FILE [--crawl ID] [--checkpoint NAME] [--max-pages N] [--retry-errors] [--refresh-older-than MS] [--resolve host=ip:port]... [--closed] [--json]';

/**
 * `crawlbench resume`: continues the newest unfinished crawl of `--db` (or `--crawl ID`) from its
 * committed state, or first rolls the database back to `--checkpoint NAME`. Prints the same JSON
 * summary as `crawl --json`.
 * @returns 0, or 2 when there is nothing to resume or an argument is wrong
 */
export async function resumeCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...resolverFlags, db: { type: 'string' }, crawl: { type: 'string' }, checkpoint: { type: 'string' }, 'max-pages': { type: 'string' }, 'retry-errors': { type: 'boolean' }, 'refresh-older-than': { type: 'string' }, json: { type: 'boolean' } } }));
  } catch (error) {
    return failLine(io, `${(error as Error).message}\n${RESUME_USAGE}`);
  }
  if (!values.db) return failLine(io, `--db FILE is required\n${RESUME_USAGE}`);
  let db;
  let crawlId: number;
  let hostOverrides;
  let maxPages: number | undefined;
  let refreshOlderThanMs: number | undefined;
  try {
    maxPages = intFlag('max-pages', values['max-pages'], 0);
    refreshOlderThanMs = intFlag('refresh-older-than', values['refresh-older-than'], 0);
    hostOverrides = (values.resolve ?? []).map(parseHostOverride);
    db = openDatabase(values.db);
    const requested = intFlag('crawl', values.crawl, 1);
    if (values.checkpoint) {
      const all = listCheckpoints(db);
      const checkpoint = all.find((c) => c.name === values.checkpoint && (requested === undefined || c.crawlId === requested));
      if (!checkpoint) throw new CodedError('CHECKPOINT_NOT_FOUND', `No checkpoint named "${values.checkpoint}" (see crawlbench checkpoints --db ${values.db})`);
      db.close();
      restoreCheckpoint(values.db, checkpoint);
      db = openDatabase(values.db);
      recordCheckpoints(db, all);
      crawlId = checkpoint.crawlId;
      io.stderr.write(`rolled back to checkpoint ${checkpoint.name} (${checkpoint.pagesDone} pages done, ${checkpoint.frontierSize} in the frontier)\n`);
    } else if (requested !== undefined) {
      crawlId = requested;
    } else {
      // With --retry-errors or --refresh-older-than a finished crawl is resumable too.
      const anyCrawl = values['retry-errors'] || values['refresh-older-than'] !== undefined;
      const row = db.prepare(`SELECT id FROM crawls ${anyCrawl ? '' : "WHERE status != 'finished'"} ORDER BY id DESC LIMIT 1`).pluck().get() as number | undefined;
      if (row === undefined) throw new CodedError('NOTHING_TO_RESUME', `No unfinished crawl in ${values.db}`);
      crawlId = row;
    }
  } catch (error) {
    db?.close();
    return failLine(io, (error as Error).message);
  }
  const startedAt = performance.now();
  const service = new CrawlService(db, { hostOverrides, closedResolver: values.closed ?? false }, { onHousekeeping: (stats) => io.stderr.write(housekeepingLine(stats)) });
  const interrupt = () => void service.close();
  process.once('SIGINT', interrupt);
  try {
    if (values['retry-errors'] || refreshOlderThanMs !== undefined) {
      const requeued = service.requeue(crawlId, { errors: values['retry-errors'] ?? false, ...(refreshOlderThanMs === undefined ? {} : { refreshOlderThanMs }) });
      io.stderr.write(`re-queued ${requeued.errors} error URLs and ${requeued.refreshed} pages to refresh\n`);
    }
    const { done } = service.resume(crawlId, maxPages === undefined ? {} : { maxPages });
    const summary = await done;
    const seconds = Math.round((performance.now() - startedAt) / 10) / 100;
    io.stderr.write(`done: fetched ${summary.fetched}, errors ${summary.errors}, frontier left ${summary.queued}, ${seconds} s\n`);
    if (values.json) io.stdout.write(`${JSON.stringify({ crawlId, pagesFetched: summary.fetched, errors: summary.errors, frontierLeft: summary.queued, seconds, db: values.db })}\n`);
    return 0;
  } catch (error) {
    return failLine(io, (error as Error).message);
  } finally {
    process.off('SIGINT', interrupt);
    db.close();
  }
}
