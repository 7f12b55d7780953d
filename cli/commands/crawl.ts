import path from 'node:path';
import { parseArgs } from 'node:util';
import { CRAWL_SCOPES, type CrawlScope, type CrawlSettings } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import { openDatabase } from '../../engine';
import { parseHostOverride } from '../../engine';
import { parseExtensionList } from '../../engine';
import { CrawlService } from '../../app/services/crawl-service';
import type { HousekeepingStats } from '../../engine';
import { decimalFlag, EXIT_SIGNAL, failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';
import { trapStopSignals } from '../signals';

export const CRAWL_USAGE = `Usage: crawlbench crawl <seed>... --db FILE [--resolve host=ip:port]... [--closed] [--threads N]
       [--max-pages N] [--max-depth N] [--scope host|domain|directory|any] [--min-delay-ms N]
       [--max-delay-ms N] [--delay-factor K] [--per-host N] [--user-agent UA] [--timeout-ms N]
       [--ignore-ext "jpg|png|…"] [--max-url-length N] [--no-query-strings] [--rogue]
       [--include-domain D]... [--exclude-domain D]... [--no-robots] [--checkpoint-every MS] [--json]`;

/** Options shared by commands that take crawl settings (`crawl`, `serve`). */
export const resolverFlags = {
  resolve: { type: 'string', multiple: true },
  closed: { type: 'boolean' },
} as const;

/**
 * `crawlbench crawl`: crawls from the seeds into `--db`, printing progress to stderr about once a
 * second and, with `--json`, one summary line on stdout:
 * `{"crawlId":N,"pagesFetched":N,"errors":N,"frontierLeft":N,"seconds":S,"db":"FILE"}`.
 * @returns 0, or 2 for a malformed URL or flag, an unwritable db, or a seed that could not be fetched
 */
export async function crawlCommand(argv: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...resolverFlags,
        db: { type: 'string' },
        threads: { type: 'string' },
        'max-pages': { type: 'string' },
        'max-depth': { type: 'string' },
        scope: { type: 'string' },
        'min-delay-ms': { type: 'string' },
        'max-delay-ms': { type: 'string' },
        'delay-factor': { type: 'string' },
        'per-host': { type: 'string' },
        'user-agent': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'ignore-ext': { type: 'string' },
        'max-url-length': { type: 'string' },
        'no-query-strings': { type: 'boolean' },
        rogue: { type: 'boolean' },
        'no-robots': { type: 'boolean' },
        'checkpoint-every': { type: 'string' },
        'include-domain': { type: 'string', multiple: true },
        'exclude-domain': { type: 'string', multiple: true },
        json: { type: 'boolean' },
      },
    });
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'crawl'));
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) return failLine(io, `MISSING_SEED: no seed URL given (see crawlbench crawl --help)`);
  if (!values.db) return failLine(io, `MISSING_FLAG: --db FILE is required (see crawlbench crawl --help)`);

  let settings: Partial<CrawlSettings>;
  try {
    settings = crawlSettingsFromFlags(values);
    checkpointOptions(values);
  } catch (error) {
    return failWith(io, error);
  }

  if (settings.obeyRobots === false) io.stderr.write('crawlbench: warning: --no-robots ignores robots.txt; fetch only sites you own or may crawl\n');
  if (settings.obeyNofollow === false) io.stderr.write('crawlbench: warning: --rogue ignores meta robots nofollow; site owners asked crawlers not to follow those links\n');
  let db;
  try {
    db = openDatabase(values.db);
  } catch (error) {
    return failWith(io, error);
  }
  const startedAt = performance.now();
  const service = new CrawlService(db, checkpointOptions(values), { onHousekeeping: (stats) => io.stderr.write(housekeepingLine(stats)) });
  const signals = trapStopSignals(io, () => void service.close());
  try {
    const { crawlId, done } = service.start(positionals, settings);
    const summary = await done;
    const seconds = Math.round((performance.now() - startedAt) / 10) / 100;
    io.stderr.write(`done: fetched ${summary.fetched}, errors ${summary.errors}, frontier left ${summary.queued}, ${seconds} s\n`);
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ crawlId, pagesFetched: summary.fetched, errors: summary.errors, frontierLeft: summary.queued, seconds, db: path.resolve(values.db) })}\n`);
    }
    if (signals.received) return EXIT_SIGNAL[signals.received];
    const seedFailure = summary.fetched === 0 ? firstSeedError(db, crawlId) : null;
    if (seedFailure) return failLine(io, `seed unreachable: ${seedFailure}`);
    return 0;
  } catch (error) {
    return failWith(io, error instanceof CodedError ? error : new Error(`crawl failed: ${(error as Error).message}`));
  } finally {
    signals.dispose();
    db.close();
  }
}

function firstSeedError(db: ReturnType<typeof openDatabase>, crawlId: number): string | null {
  const row = db.prepare(`SELECT url, error_code, error_reason FROM urls WHERE crawl_id = ? AND depth = 0 AND state = 'error' ORDER BY id LIMIT 1`).get(crawlId) as
    | { url: string; error_code: string; error_reason: string }
    | undefined;
  return row ? `${row.url}: ${row.error_code}: ${row.error_reason}` : null;
}

/** One stderr line of the housekeeping tick (IIR 20.2): crawled, frontier, hosts, rate, errors. */
export function housekeepingLine(stats: HousekeepingStats): string {
  return `fetched ${stats.fetched}  frontier ${stats.frontierSize} (${stats.inFlight} in flight)  hosts ${stats.activeHosts} active/${stats.knownHosts}  ${stats.pagesPerSecond} pages/s  errors ${stats.errors}  duplicates ${stats.duplicates}\n`;
}

/** `--checkpoint-every MS`: automatic checkpoints for a file database. */
export function checkpointOptions(values: Record<string, unknown>): { autoCheckpointMs?: number } {
  // At most 2^31-1 ms (24.8 days): a longer timer would fire at once.
  const every = intFlag('checkpoint-every', values['checkpoint-every'] as string | undefined, 1000, 2_147_483_647);
  return every === undefined ? {} : { autoCheckpointMs: every };
}

/**
 * Crawl settings from CLI flags (only those given; the rest take defaults).
 * @throws CodedError INVALID_FLAG or INVALID_RESOLVE
 */
export function crawlSettingsFromFlags(values: Record<string, string | boolean | string[] | undefined>): Partial<CrawlSettings> {
  const str = (name: string) => values[name] as string | undefined;
  const settings: Partial<CrawlSettings> = {};
  const assign = <K extends keyof CrawlSettings>(key: K, value: CrawlSettings[K] | undefined) => {
    if (value !== undefined) settings[key] = value;
  };
  assign('threads', intFlag('threads', str('threads'), 1, 256));
  assign('maxPages', intFlag('max-pages', str('max-pages'), 0));
  assign('maxDepth', intFlag('max-depth', str('max-depth'), 0, 1_000_000));
  assign('minDelayMs', intFlag('min-delay-ms', str('min-delay-ms'), 0, 3_600_000));
  assign('maxDelayMs', intFlag('max-delay-ms', str('max-delay-ms'), 0, 3_600_000));
  assign('maxInFlightPerHost', intFlag('per-host', str('per-host'), 1, 64));
  assign('timeoutMs', intFlag('timeout-ms', str('timeout-ms'), 100, 600_000));
  assign('delayFactor', decimalFlag('delay-factor', str('delay-factor'), 0, 100));
  const scope = str('scope');
  if (scope !== undefined) {
    if (!(CRAWL_SCOPES as readonly string[]).includes(scope)) throw new CodedError('INVALID_FLAG', `--scope must be one of ${CRAWL_SCOPES.join(', ')}, got "${scope}"`);
    settings.scope = scope as CrawlScope;
  }
  const userAgent = str('user-agent');
  if (userAgent !== undefined) {
    // A header value: CR/LF would split the request (header injection), other controls are refused by HTTP.
    const control = [...userAgent].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
    if (userAgent.trim() === '' || userAgent.length > 512 || control) {
      throw new CodedError('INVALID_FLAG', `--user-agent must be 1-512 printable characters without CR, LF or other control characters, got ${JSON.stringify(userAgent)}`);
    }
    settings.userAgent = userAgent;
  }
  assign('maxUrlLength', intFlag('max-url-length', str('max-url-length'), 16, 65_536));
  const ignoreExt = str('ignore-ext');
  if (ignoreExt !== undefined) {
    if (!/^[A-Za-z0-9|. ]*$/.test(ignoreExt)) throw new CodedError('INVALID_FLAG', `--ignore-ext expects extensions separated by |, e.g. "jpg|png|zip", got "${ignoreExt}"`);
    settings.ignoredExtensions = [...parseExtensionList(ignoreExt)].join('|');
  }
  if (values['no-query-strings']) settings.followQueryStrings = false;
  if (values['rogue']) settings.obeyNofollow = false;
  if (values['no-robots']) settings.obeyRobots = false;
  const include = values['include-domain'] as string[] | undefined;
  if (include) settings.includeDomains = include.map((d) => d.toLowerCase());
  const exclude = values['exclude-domain'] as string[] | undefined;
  if (exclude) settings.excludeDomains = exclude.map((d) => d.toLowerCase());
  const resolve = values['resolve'] as string[] | undefined;
  if (resolve) settings.hostOverrides = resolve.map(parseHostOverride);
  if (values['closed']) settings.closedResolver = true;
  return settings;
}
