import { parseArgs } from 'node:util';
import { CodedError } from '../../shared/types/result';
import { limitHeapGrowth, listCheckpoints, recordCheckpoints, restoreCheckpoint, openDatabase, CrawlLease, CrawlReader, parseHostOverride } from '../../engine';
import { closeLiveWarc, openLiveWarc, type LiveWarc } from '../live-warc';
import { hasRequestFlags, requestRuleFlags, requestRulesFromFlags } from '../request-flags';
import { loadRequestSecrets, saveRequestSecrets, secretsFileOf } from '../../app/services/request-secrets';
import { maskRequestRules, missingSecrets, type RequestRuleSecrets } from '../../shared/types/request-rules';
import type { CrawlSettings } from '../../shared/types/crawl';
import { CrawlService } from '../../app/services/crawl-service';
import { EXIT_SIGNAL, failWith, failLine, intFlag, parseErrorLine, settingFlag, type CommandIo } from '../io';
import { trapStopSignals } from '../signals';
import { housekeepingLine, resolverFlags } from './crawl';
import { runSharedCrawl } from './shared-run';
import { parseStoreArg } from '../store-arg';

export const RESUME_USAGE = `Usage: crawlbench resume --db FILE [--crawl ID] [--checkpoint NAME] [--max-pages N] [--retry-errors] [--refresh-older-than MS] [--resolve host=ip:port]... [--closed] [--warc FILE.warc.gz] [--json]
       crawlbench resume --store postgres://USER@HOST:PORT/DB [--crawl ID] [--max-pages N] [--resolve host=ip:port]... [--closed] [--json]

  --store URL|FILE   a crawl kept in PostgreSQL (others may then join it); a file path is the same as --db FILE
  --header/--auth/--cookie/--proxy 'HOST=…'   request settings as for crawl (kept ones are read from FILE.secrets.json; a flag replaces its kept value)
  --warc FILE        archive this run's fetches as WARC records, appended to FILE (see crawlbench crawl --help)`;

/**
 * `crawlbench resume`: continues the newest unfinished crawl of `--db` (or `--crawl ID`) from its
 * committed state, or first rolls the database back to `--checkpoint NAME`. Prints the same JSON
 * summary as `crawl --json`. The file must exist and be a Crawlbench database (it is never
 * created); the crawl lease is taken before anything is written, so a database another live
 * process crawls is refused with DB_BUSY, and a rollback never runs under another process's crawl.
 * @returns 0; 2 when there is nothing to resume, an argument is wrong, the file is not a
 *   Crawlbench database or is busy; 3 when storage interrupted the crawl; 130/143 on SIGINT/SIGTERM
 */
export async function resumeCommand(argv: string[], io: CommandIo): Promise<number> {
  // This process crawls: heap headroom near the live set (engine/schedule/heap-growth.ts).
  limitHeapGrowth();
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ...resolverFlags,
        db: { type: 'string' },
        store: { type: 'string' },
        crawl: { type: 'string' },
        checkpoint: { type: 'string' },
        'max-pages': { type: 'string' },
        'retry-errors': { type: 'boolean' },
        'refresh-older-than': { type: 'string' },
        json: { type: 'boolean' },
        warc: { type: 'string' },
        ...requestRuleFlags,
      },
    }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'resume'));
  }
  let storeArg;
  try {
    storeArg = parseStoreArg(values);
  } catch (error) {
    return failWith(io, error);
  }
  if (!storeArg) return failLine(io, `MISSING_FLAG: --db FILE (or --store postgres://…) is required (see crawlbench resume --help)`);
  if (storeArg.kind === 'postgres') {
    if (values.warc !== undefined) return failWith(io, new CodedError('STORE_UNSUPPORTED', '--warc is for a crawl in a SQLite file for now; export the WARC of a PostgreSQL crawl from its stored bodies: crawlbench export --store URL --what warc --out FILE.warc.gz'));
    return resumeShared(storeArg.url, values, io);
  }
  values.db = storeArg.file;
  let db;
  let crawlId: number;
  let hostOverrides;
  let maxPages: number | undefined;
  let refreshOlderThanMs: number | undefined;
  /** Held from the rollback until the service holds the lease itself. */
  let rollbackLease: CrawlLease | null = null;
  try {
    maxPages = settingFlag('max-pages', 'maxPages', values['max-pages']);
    refreshOlderThanMs = intFlag('refresh-older-than', values['refresh-older-than'], 0);
    hostOverrides = (values.resolve ?? []).map(parseHostOverride);
    const requested = intFlag('crawl', values.crawl, 1);
    db = openDatabase(values.db, { create: false });
    if (values.checkpoint) {
      const all = listCheckpoints(db);
      const checkpoint = all.find((c) => c.name === values.checkpoint && (requested === undefined || c.crawlId === requested));
      if (!checkpoint) throw new CodedError('CHECKPOINT_NOT_FOUND', `No checkpoint named "${values.checkpoint}" (see crawlbench checkpoints --db ${values.db})`);
      rollbackLease = CrawlLease.acquire(db, checkpoint.crawlId);
      await restoreCheckpoint(db, checkpoint);
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
    rollbackLease?.release();
    db?.close();
    return failWith(io, error);
  }
  let warc: LiveWarc | null = null;
  let requestRules: RequestRuleSecrets[];
  const overrides: Partial<CrawlSettings> = maxPages === undefined ? {} : { maxPages };
  try {
    const settings = new CrawlReader(db).getCrawl(crawlId).settings;
    // The kept secrets, with this run's flags on top; a rule whose secrets are gone stops the resume.
    requestRules = requestRulesFromFlags(values, loadRequestSecrets(values.db, crawlId));
    const missing = missingSecrets(hasRequestFlags(values) ? maskRequestRules(requestRules) : settings.requestRules, requestRules);
    if (missing.length > 0) throw new CodedError('REQUEST_SECRETS_MISSING', `Crawl ${crawlId} sends request settings for ${missing.map((rule) => rule.host).join(', ')} whose secrets are not in ${secretsFileOf(values.db)}: give the --header/--auth/--cookie/--proxy flags again`);
    if (hasRequestFlags(values)) {
      overrides.requestRules = maskRequestRules(requestRules);
      saveRequestSecrets(values.db, crawlId, requestRules);
    }
    if (values.warc !== undefined) warc = await openLiveWarc(values.warc, { userAgent: settings.userAgent, obeyRobots: settings.obeyRobots });
  } catch (error) {
    rollbackLease?.release();
    db.close();
    return failWith(io, error);
  }
  const startedAt = performance.now();
  const service = new CrawlService(db, { hostOverrides, closedResolver: values.closed ?? false }, { onHousekeeping: (stats) => io.stderr.write(housekeepingLine(stats)) });
  const signals = trapStopSignals(io, () => void service.close());
  try {
    if (values['retry-errors'] || refreshOlderThanMs !== undefined) {
      const requeued = service.requeue(crawlId, { errors: values['retry-errors'] ?? false, ...(refreshOlderThanMs === undefined ? {} : { refreshOlderThanMs }) });
      io.stderr.write(`re-queued ${requeued.errors} error URLs and ${requeued.refreshed} pages to refresh\n`);
    }
    const { done } = service.resume(crawlId, overrides, { ...(warc ? { warc: warc.sink } : {}), ...(requestRules.length > 0 ? { requestRules } : {}) });
    rollbackLease?.release();
    const summary = await done;
    // Closed here on success (its failure is the run's); the finally block closes it on any other end.
    const archive = warc;
    warc = null;
    if (archive && !(await closeLiveWarc(archive, io))) return 3;
    const seconds = Math.round((performance.now() - startedAt) / 10) / 100;
    io.stderr.write(`done: fetched ${summary.fetched}, errors ${summary.errors}, blocked by robots.txt ${summary.blocked}, held by suspected traps ${summary.held}, frontier left ${summary.queued}, ${seconds} s\n`);
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ crawlId, pagesFetched: summary.fetched, errors: summary.errors, blocked: summary.blocked, held: summary.held, frontierLeft: summary.queued, seconds, db: values.db })}\n`);
    }
    return signals.received ? EXIT_SIGNAL[signals.received] : 0;
  } catch (error) {
    return failWith(io, error);
  } finally {
    if (warc) await closeLiveWarc(warc, io);
    rollbackLease?.release();
    signals.dispose();
    db.close();
  }
}

/** `resume --store postgres://…`: takes up a stopped or interrupted shared crawl in this process (others may join it). */
async function resumeShared(storeUrl: string, values: { crawl?: string; checkpoint?: string; 'max-pages'?: string; 'retry-errors'?: boolean; 'refresh-older-than'?: string; resolve?: string[]; closed?: boolean; json?: boolean }, io: CommandIo): Promise<number> {
  if (values.checkpoint !== undefined || values['retry-errors'] || values['refresh-older-than'] !== undefined) {
    return failWith(io, new CodedError('STORE_UNSUPPORTED', '--checkpoint, --retry-errors and --refresh-older-than work on a SQLite file: copy the crawl with crawlbench checkpoints --store URL --crawl ID --to FILE, then resume --db FILE'));
  }
  let crawlId: number | undefined;
  let maxPages: number | undefined;
  let hostOverrides;
  try {
    crawlId = intFlag('crawl', values.crawl, 1);
    maxPages = settingFlag('max-pages', 'maxPages', values['max-pages']);
    hostOverrides = (values.resolve ?? []).map(parseHostOverride);
  } catch (error) {
    return failWith(io, error);
  }
  return runSharedCrawl(io, storeUrl, { hostOverrides, closedResolver: values.closed ?? false, json: values.json ?? false }, (service) => service.resume(crawlId ?? null, maxPages === undefined ? {} : { maxPages }));
}
