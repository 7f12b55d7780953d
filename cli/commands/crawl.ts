import path from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_SEEDS } from '../../shared/ipc/limits';
import { CRAWL_MODES, CRAWL_SCOPES, DEFAULT_CRAWL_SETTINGS, RENDER_MODES, SITEMAP_MODES, type CrawlSettings } from '../../shared/types/crawl';
import { settingBounds, validateSetting } from '../../shared/types/crawl-settings';
import { parseExtractor } from '../../shared/types/extraction';
import { CodedError } from '../../shared/types/result';
import { limitHeapGrowth, openDatabase, parseHostOverride, type HousekeepingStats } from '../../engine';
import { CrawlService } from '../../app/services/crawl-service';
import { EXIT_SIGNAL, failLine, failWith, intFlag, parseErrorLine, settingFlag, type CommandIo } from '../io';
import { trapStopSignals } from '../signals';
import { readUrlListFile } from '../url-list-file';
import { parseStoreArg } from '../store-arg';
import { runSharedCrawl } from './shared-run';
import { closeLiveWarc, openLiveWarc, type LiveWarc } from '../live-warc';
import { REQUEST_RULE_USAGE, requestRuleFlags, requestRulesFromFlags } from '../request-flags';
import { saveRequestSecrets } from '../../app/services/request-secrets';
import { maskRequestRules, type RequestRuleSecrets } from '../../shared/types/request-rules';

export const CRAWL_USAGE = `Usage: crawlbench crawl <seed>... --db FILE [--resolve host=ip:port]... [--closed] [--threads N]
       crawlbench crawl --list FILE --db FILE [options]
       crawlbench crawl <seed>... --store postgres://USER@HOST:PORT/DB [options]   (a crawl others may join)
       [--max-pages N] [--max-depth N] [--scope host|domain|directory|any] [--mode spider|list] [--seeds-only]
       [--min-delay-ms N] [--max-delay-ms N] [--delay-factor K] [--per-host N] [--user-agent UA] [--timeout-ms N]
       [--ignore-ext "jpg|png|…"] [--max-url-length N] [--no-query-strings] [--rogue] [--follow-nofollow-links]
       [--include REGEX]... [--exclude REGEX]... [--trap-guard on|off] [--sitemaps auto|off]
       [--page-text-chars N] [--include-domain D]... [--exclude-domain D]... [--no-robots] [--checkpoint-every MS] [--json]
       [--header 'HOST=Name: value']... [--auth 'HOST=user:pass']... [--cookie 'HOST=a=1']... [--proxy 'HOST=URL']...
       [--http2] [--no-cookie-jar] [--no-store-bodies] [--max-stored-body-bytes N] [--max-stored-bodies-bytes N] [--warc FILE.warc.gz]
       [--extract NAME[:first|all|count]=css:SELECTOR[@attr]|regex:PATTERN|schema:TYPE.FIELD]...
       [--render off|auto|always] [--render-timeout-ms N] [--render-concurrency N] [--chromium PATH]

  --store URL|FILE              where the crawl is kept: a postgres:// URL makes a crawl several processes
                                share (crawlbench join --store URL adds one, here or on another machine);
                                a file path is the same as --db FILE
  --resolve host=ip:port        connect to ip:port for host; '*.example.test=ip:port' maps every host
                                under example.test (not example.test itself; an exact host wins)
  --list FILE                   list mode: fetch exactly the URLs in FILE (one a line; blank lines and
                                lines starting with # skipped; up to ${MAX_SEEDS.toLocaleString('en-US')}), plus any <seed> given;
                                their redirects are followed, links are stored but not followed
                                (refused as list-mode); with --mode spider the list only seeds a crawl
  --seeds-only                  fetch the seeds and nothing else (the same as --mode list); note that
                                --max-depth 0 means no depth limit, not seeds only
  --mode spider|list            spider follows links (default); list fetches the seeds only
  --include REGEX               follow only links whose URL matches one of the --include patterns
  --exclude REGEX               never follow links whose URL matches an --exclude pattern
                                (JavaScript regular expressions over the URL without #fragment, case-sensitive,
                                run in linear time: backreferences, lookahead/lookbehind and counted repetitions
                                above 16 are refused; repeatable, seeds are not filtered)
  --follow-nofollow-links       follow links marked rel="nofollow", "ugc" or "sponsored" (refused by
                                default as link-nofollow; --rogue is about the page's meta robots nofollow)
  --page-text-chars N           characters of each page's visible text kept for duplicate diffs,
                                ${settingBounds('pageTextChars').min} to ${settingBounds('pageTextChars').max} (default ${DEFAULT_CRAWL_SETTINGS.pageTextChars}; 0 keeps none, for a smaller database)
  --no-store-bodies             keep no page bodies (by default each fetched body is kept brotli-compressed
                                for the inspector's source view and WARC export: about a tenth of its size)
  --max-stored-body-bytes N     a kept body longer than N bytes is cut at N (default ${DEFAULT_CRAWL_SETTINGS.maxStoredBodyBytes})
  --max-stored-bodies-bytes N   compressed body bytes the crawl keeps in all (default ${DEFAULT_CRAWL_SETTINGS.maxStoredBodiesBytes}); later bodies are not kept
  --extract NAME=KIND:EXPR       a custom extractor run on every HTML page (repeatable; see crawlbench extract
                                --help); its values are stored per page and exported with the pages
${REQUEST_RULE_USAGE}
  --http2                       offer HTTP/2 to https servers (ALPN); those that decline are fetched over HTTP/1.1
  --no-cookie-jar               do not keep the cookies sites set (by default they are sent back, and kept in FILE.cookies.json for resume)
  --warc FILE.warc.gz            archive every fetch as WARC/1.1 request and response records while crawling
                                (revisit records for repeated payloads), a CDXJ index beside it (FILE.cdxj);
                                an existing file is appended to (crawlbench resume --warc FILE goes on in it)
  --render off|auto|always      run pages' JavaScript in Chromium and follow the links only the rendered
                                page has (link kind "rendered"): auto (a page with scripts and little text,
                                an empty app root or a noscript asking for JavaScript), always (every HTML
                                page), off (default). Every request of a rendered page goes through the
                                crawler's resolver (--resolve, --closed), robots.txt and politeness
  --render-timeout-ms N         per-page render budget; past it the URL fails as RENDER_TIMEOUT, alone
                                (${settingBounds('renderTimeoutMs').min} to ${settingBounds('renderTimeoutMs').max}, default ${DEFAULT_CRAWL_SETTINGS.renderTimeoutMs})
  --render-concurrency N        pages each crawl worker renders at once (default ${DEFAULT_CRAWL_SETTINGS.renderConcurrency})
  --chromium PATH               the Chromium to render with (default: the system chromium, /usr/bin/chromium;
                                no Playwright browser download is needed)
  --trap-guard on|off           hold the URLs of suspected crawler traps (endless calendars, /a/a/a/ loops,
                                parameter explosions) instead of fetching them (default ${DEFAULT_CRAWL_SETTINGS.trapGuard ? 'on' : 'off'}); see crawlbench traps
  --sitemaps auto|off           auto (default): read each seed host's robots.txt Sitemap: lines and
                                /sitemap.xml, and crawl the URLs they list (not in list mode); off: fetch no sitemap`;

/** Options shared by commands that take crawl settings (`crawl`, `serve`). */
export const resolverFlags = {
  resolve: { type: 'string', multiple: true },
  closed: { type: 'boolean' },
} as const;

/**
 * `crawlbench crawl`: crawls from the seeds into `--db`, printing progress to stderr about once a
 * second and, with `--json`, one summary line on stdout:
 * `{"crawlId":N,"pagesFetched":N,"errors":N,"blocked":N,"held":N,"frontierLeft":N,"seconds":S,"db":"FILE"}`
 * (`blocked`: URLs robots.txt refused, not counted in `errors`; `held`: URLs suspected crawler traps hold, see `crawlbench traps`).
 * @returns 0, or 2 for a malformed URL or flag, an unwritable db, or a seed that could not be fetched
 */
export async function crawlCommand(argv: string[], io: CommandIo): Promise<number> {
  // This process crawls: heap headroom near the live set (engine/schedule/heap-growth.ts).
  limitHeapGrowth();
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...resolverFlags,
        db: { type: 'string' },
        store: { type: 'string' },
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
        'page-text-chars': { type: 'string' },
        'no-query-strings': { type: 'boolean' },
        rogue: { type: 'boolean' },
        'no-robots': { type: 'boolean' },
        'no-store-bodies': { type: 'boolean' },
        'max-stored-body-bytes': { type: 'string' },
        'max-stored-bodies-bytes': { type: 'string' },
        'trap-guard': { type: 'string' },
        sitemaps: { type: 'string' },
        'checkpoint-every': { type: 'string' },
        'include-domain': { type: 'string', multiple: true },
        'exclude-domain': { type: 'string', multiple: true },
        include: { type: 'string', multiple: true },
        exclude: { type: 'string', multiple: true },
        'follow-nofollow-links': { type: 'boolean' },
        mode: { type: 'string' },
        'seeds-only': { type: 'boolean' },
        list: { type: 'string' },
        json: { type: 'boolean' },
        warc: { type: 'string' },
        extract: { type: 'string', multiple: true },
        http2: { type: 'boolean' },
        'no-cookie-jar': { type: 'boolean' },
        render: { type: 'string' },
        'render-timeout-ms': { type: 'string' },
        'render-concurrency': { type: 'string' },
        chromium: { type: 'string' },
        ...requestRuleFlags,
      },
    });
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'crawl'));
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0 && values.list === undefined) return failLine(io, `MISSING_SEED: no seed URL given, nor --list FILE (see crawlbench crawl --help)`);
  let storeArg;
  try {
    storeArg = parseStoreArg(values);
  } catch (error) {
    return failWith(io, error);
  }
  if (!storeArg) return failLine(io, `MISSING_FLAG: --db FILE (or --store postgres://…) is required (see crawlbench crawl --help)`);
  if (storeArg.kind === 'postgres' && values['checkpoint-every'] !== undefined) {
    return failWith(io, new CodedError('STORE_UNSUPPORTED', '--checkpoint-every is for a SQLite file; checkpoint a PostgreSQL crawl with crawlbench checkpoints --store URL --crawl ID --create NAME'));
  }

  let settings: Partial<CrawlSettings>;
  const seeds = [...positionals];
  try {
    settings = crawlSettingsFromFlags(values);
    checkpointOptions(values);
    if (values.list !== undefined) {
      seeds.push(...readUrlListFile(values.list));
      // A URL list is fetched as it is unless --mode spider says it only seeds the crawl.
      settings.crawlMode ??= 'list';
    }
    if (seeds.length > MAX_SEEDS) throw new CodedError('INVALID_URL_LIST', `${seeds.length} seeds in all, more than ${MAX_SEEDS}; split the list into several crawls`);
  } catch (error) {
    return failWith(io, error);
  }

  if (settings.obeyRobots === false) io.stderr.write('crawlbench: warning: --no-robots ignores robots.txt; fetch only sites you own or may crawl\n');
  if (settings.obeyNofollow === false) io.stderr.write('crawlbench: warning: --rogue ignores meta robots nofollow; site owners asked crawlers not to follow those links\n');
  if (settings.followNofollowLinks === true) io.stderr.write('crawlbench: warning: --follow-nofollow-links follows links marked rel=nofollow, ugc or sponsored; site owners asked crawlers not to follow those links\n');
  let requestRules: RequestRuleSecrets[];
  try {
    requestRules = requestRulesFromFlags(values);
    settings.requestRules = maskRequestRules(requestRules);
  } catch (error) {
    return failWith(io, error);
  }
  if (storeArg.kind === 'postgres') {
    if (requestRules.length > 0) return failWith(io, new CodedError('STORE_UNSUPPORTED', '--header, --auth, --cookie and --proxy are for a crawl in a SQLite file for now (their secrets are kept beside it)'));
    if (values.warc !== undefined) return failWith(io, new CodedError('STORE_UNSUPPORTED', '--warc is for a crawl in a SQLite file for now; export the WARC of a PostgreSQL crawl from its stored bodies: crawlbench export --store URL --what warc --out FILE.warc.gz'));
    const url = storeArg.url;
    if (settings.crawlMode === 'list') io.stderr.write(`list mode: fetching ${seeds.length} URL${seeds.length === 1 ? '' : 's'} (and their redirects); links are stored, not followed\n`);
    return runSharedCrawl(io, url, { json: values.json ?? false }, (service) => service.start(seeds, settings));
  }
  const dbFile = storeArg.file;
  let db;
  try {
    db = openDatabase(dbFile);
  } catch (error) {
    return failWith(io, error);
  }
  let warc: LiveWarc | null = null;
  try {
    if (values.warc !== undefined) warc = await openLiveWarc(values.warc, { userAgent: settings.userAgent ?? DEFAULT_CRAWL_SETTINGS.userAgent, obeyRobots: settings.obeyRobots ?? DEFAULT_CRAWL_SETTINGS.obeyRobots });
  } catch (error) {
    db.close();
    return failWith(io, error);
  }
  const startedAt = performance.now();
  const service = new CrawlService(db, checkpointOptions(values), { onHousekeeping: (stats) => io.stderr.write(housekeepingLine(stats)) });
  const signals = trapStopSignals(io, () => void service.close());
  try {
    if (settings.crawlMode === 'list') io.stderr.write(`list mode: fetching ${seeds.length} URL${seeds.length === 1 ? '' : 's'} (and their redirects); links are stored, not followed\n`);
    const { crawlId, done } = service.start(seeds, settings, { ...(warc ? { warc: warc.sink } : {}), ...(requestRules.length > 0 ? { requestRules } : {}) });
    // Kept beside the database for a resume (never in it).
    if (requestRules.length > 0) saveRequestSecrets(dbFile, crawlId, requestRules);
    const summary = await done;
    // Closed here on success (its failure is the run's); the finally block closes it on any other end.
    const archive = warc;
    warc = null;
    if (archive && !(await closeLiveWarc(archive, io))) return 3;
    const seconds = Math.round((performance.now() - startedAt) / 10) / 100;
    io.stderr.write(`done: fetched ${summary.fetched}, errors ${summary.errors}, blocked by robots.txt ${summary.blocked}, held by suspected traps ${summary.held}, frontier left ${summary.queued}, ${seconds} s\n`);
    if (values.json) {
      io.stdout.write(
        `${JSON.stringify({ crawlId, pagesFetched: summary.fetched, errors: summary.errors, blocked: summary.blocked, held: summary.held, frontierLeft: summary.queued, seconds, db: path.resolve(dbFile) })}\n`,
      );
    }
    if (signals.received) return EXIT_SIGNAL[signals.received];
    const seedFailure = summary.fetched === 0 ? firstSeedError(db, crawlId) : null;
    if (seedFailure) return failLine(io, `seed unreachable: ${seedFailure}`);
    return 0;
  } catch (error) {
    return failWith(io, error instanceof CodedError ? error : new Error(`crawl failed: ${(error as Error).message}`));
  } finally {
    if (warc) await closeLiveWarc(warc, io);
    signals.dispose();
    db.close();
  }
}

function firstSeedError(db: ReturnType<typeof openDatabase>, crawlId: number): string | null {
  // A seed robots.txt refuses is blocked, not failed, but the crawl got nowhere just the same.
  const row = db
    .prepare(`SELECT url, error_code, error_reason, robots_line FROM urls WHERE crawl_id = ? AND depth = 0 AND state IN ('error', 'blocked') ORDER BY id LIMIT 1`)
    .get(crawlId) as { url: string; error_code: string; error_reason: string; robots_line: string | null } | undefined;
  if (!row) return null;
  return `${row.url}: ${row.error_code}: ${row.error_reason}${row.robots_line === null ? '' : ` (robots.txt line ${row.robots_line})`}`;
}

/** One stderr line of the housekeeping tick (IIR 20.2): crawled, frontier, hosts, rate, errors. */
export function housekeepingLine(stats: HousekeepingStats): string {
  return `fetched ${stats.fetched}  frontier ${stats.frontierSize} (${stats.inFlight} in flight)  hosts ${stats.activeHosts} active/${stats.knownHosts}  ${stats.pagesPerSecond} pages/s  errors ${stats.errors}  blocked ${stats.blocked}  duplicates ${stats.duplicates}\n`;
}

/** `--checkpoint-every MS`: automatic checkpoints for a file database. */
export function checkpointOptions(values: Record<string, unknown>): { autoCheckpointMs?: number } {
  // At most 2^31-1 ms (24.8 days): a longer timer would fire at once.
  const every = intFlag('checkpoint-every', values['checkpoint-every'] as string | undefined, 1000, 2_147_483_647);
  return every === undefined ? {} : { autoCheckpointMs: every };
}

/**
 * Crawl settings from CLI flags (only those given; the rest take defaults). Each value is checked
 * by its setting's schema (shared/types/crawl-settings.ts), as IPC and the crawl form check it.
 * @throws CodedError INVALID_FLAG or INVALID_RESOLVE
 */
export function crawlSettingsFromFlags(values: Record<string, string | boolean | string[] | undefined>): Partial<CrawlSettings> {
  const str = (name: string) => values[name] as string | undefined;
  const settings: Partial<CrawlSettings> = {};
  const assign = <K extends keyof CrawlSettings>(key: K, value: CrawlSettings[K] | undefined) => {
    if (value !== undefined) settings[key] = value;
  };
  /** A non-numeric flag's value by its setting's schema, or INVALID_FLAG with `refusal`. */
  const checked = <K extends keyof CrawlSettings>(key: K, value: unknown, refusal: () => string): CrawlSettings[K] => {
    const result = validateSetting(key, value);
    if (!result.ok) throw new CodedError('INVALID_FLAG', refusal());
    return result.value;
  };
  assign('threads', settingFlag('threads', 'threads', str('threads')));
  assign('maxPages', settingFlag('max-pages', 'maxPages', str('max-pages')));
  assign('maxDepth', settingFlag('max-depth', 'maxDepth', str('max-depth')));
  assign('minDelayMs', settingFlag('min-delay-ms', 'minDelayMs', str('min-delay-ms')));
  assign('maxDelayMs', settingFlag('max-delay-ms', 'maxDelayMs', str('max-delay-ms')));
  assign('maxInFlightPerHost', settingFlag('per-host', 'maxInFlightPerHost', str('per-host')));
  assign('timeoutMs', settingFlag('timeout-ms', 'timeoutMs', str('timeout-ms')));
  assign('delayFactor', settingFlag('delay-factor', 'delayFactor', str('delay-factor')));
  const scope = str('scope');
  if (scope !== undefined) settings.scope = checked('scope', scope, () => `--scope must be one of ${CRAWL_SCOPES.join(', ')}, got "${scope}"`);
  const userAgent = str('user-agent');
  if (userAgent !== undefined) {
    settings.userAgent = checked('userAgent', userAgent, () => `--user-agent must be 1-512 printable characters without CR, LF or other control characters, got ${JSON.stringify(userAgent)}`);
  }
  assign('maxUrlLength', settingFlag('max-url-length', 'maxUrlLength', str('max-url-length')));
  assign('pageTextChars', settingFlag('page-text-chars', 'pageTextChars', str('page-text-chars')));
  const ignoreExt = str('ignore-ext');
  if (ignoreExt !== undefined) {
    settings.ignoredExtensions = checked('ignoredExtensions', ignoreExt, () => `--ignore-ext expects lowercase extensions without dots separated by |, e.g. "jpg|png|zip", got "${ignoreExt}"`);
  }
  const mode = str('mode');
  if (mode !== undefined) settings.crawlMode = checked('crawlMode', mode, () => `--mode must be one of ${CRAWL_MODES.join(', ')}, got "${mode}"`);
  if (values['seeds-only']) {
    if (settings.crawlMode === 'spider') throw new CodedError('INVALID_FLAG', '--seeds-only and --mode spider contradict each other: give one');
    settings.crawlMode = 'list';
  }
  for (const [flag, key] of [['include', 'includeUrlPatterns'], ['exclude', 'excludeUrlPatterns']] as const) {
    const patterns = values[flag] as string[] | undefined;
    if (patterns) {
      const result = validateSetting(key, patterns);
      if (!result.ok) throw new CodedError('INVALID_URL_REGEX', `--${flag}: ${result.error.message}`);
      settings[key] = result.value;
    }
  }
  if (values['follow-nofollow-links']) settings.followNofollowLinks = true;
  if (values['no-query-strings']) settings.followQueryStrings = false;
  if (values['rogue']) settings.obeyNofollow = false;
  if (values['no-robots']) settings.obeyRobots = false;
  if (values['no-store-bodies']) settings.storeBodies = false;
  if (values['http2']) settings.http2 = true;
  if (values['no-cookie-jar']) settings.cookieJar = false;
  const extract = values['extract'] as string[] | undefined;
  if (extract) {
    settings.extractors = extract.map((text) => {
      const parsed = parseExtractor(text);
      if (!parsed.ok) throw new CodedError(parsed.error.code, `--extract ${parsed.error.message}`);
      return parsed.value;
    });
    settings.extractors = checked('extractors', settings.extractors, () => `--extract: at most 32 extractors, each with its own name`);
  }
  assign('maxStoredBodyBytes', settingFlag('max-stored-body-bytes', 'maxStoredBodyBytes', str('max-stored-body-bytes')));
  assign('maxStoredBodiesBytes', settingFlag('max-stored-bodies-bytes', 'maxStoredBodiesBytes', str('max-stored-bodies-bytes')));
  // `on`/`off` from the command line; `true` where a caller passes the crawl form's switch as a flag.
  const trapGuard = values['trap-guard'];
  if (trapGuard !== undefined) {
    if (trapGuard !== 'on' && trapGuard !== 'off' && trapGuard !== true) throw new CodedError('INVALID_FLAG', `--trap-guard must be on or off, got "${String(trapGuard)}"`);
    settings.trapGuard = trapGuard !== 'off';
  }
  const render = str('render');
  if (render !== undefined) settings.render = checked('render', render, () => `--render must be one of ${RENDER_MODES.join(', ')}, got "${render}"`);
  assign('renderTimeoutMs', settingFlag('render-timeout-ms', 'renderTimeoutMs', str('render-timeout-ms')));
  assign('renderConcurrency', settingFlag('render-concurrency', 'renderConcurrency', str('render-concurrency')));
  const chromium = str('chromium');
  if (chromium !== undefined) settings.chromiumPath = checked('chromiumPath', chromium, () => `--chromium expects a path without control characters, got ${JSON.stringify(chromium.slice(0, 200))}`);
  const sitemaps = str('sitemaps');
  if (sitemaps !== undefined) settings.sitemaps = checked('sitemaps', sitemaps, () => `--sitemaps must be one of ${SITEMAP_MODES.join(', ')}, got "${sitemaps}"`);
  for (const [flag, key] of [['include-domain', 'includeDomains'], ['exclude-domain', 'excludeDomains']] as const) {
    const domains = values[flag] as string[] | undefined;
    if (domains) settings[key] = checked(key, domains.map((d) => d.toLowerCase()), () => `--${flag} expects registrable domains of 1-253 characters, got ${JSON.stringify(domains)}`);
  }
  const resolve = values['resolve'] as string[] | undefined;
  if (resolve) settings.hostOverrides = checked('hostOverrides', resolve.map(parseHostOverride), () => `--resolve may be given at most 1000 times`);
  if (values['closed']) settings.closedResolver = true;
  return settings;
}
