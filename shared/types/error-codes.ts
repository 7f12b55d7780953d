/**
 * The crawler's error codes: one closed union, each code with what the crawler does about it
 * and one line of what the user can do. Lives in shared/types because both ends need it: the
 * engine decides retries with {@link errorClass}, and the renderer shows the codes stored with
 * each failed URL (and may show {@link describeError}'s advice beside them).
 *
 * Classes (Crawlee's error taxonomy, as a table instead of exception classes):
 * - `retry`: transient; the URL goes back to the frontier (up to `maxRetries`, with backoff)
 * - `fail-url`: this URL is recorded as an error (state `error`); the crawl goes on
 * - `stop-crawl`: the crawl (or the command) cannot go on; the user must act first
 */

/** What the crawler does about an error. */
export type ErrorClass = 'retry' | 'fail-url' | 'stop-crawl';

/** One row of the table: the class and a one-line "what to do". */
export interface ErrorCodeInfo {
  class: ErrorClass;
  /** One sentence for people: what happened and what to do. */
  advice: string;
}

/**
 * Every fixed code the engine emits (fetch, robots, redirects, parse, storage, database, seeds,
 * checkpoints), keyed by code. The HTTP status families are {@link HttpErrorCode} and
 * {@link RobotsHttpErrorCode}. An engine source that emits a code missing here fails
 * error-codes.test.ts.
 */
export const CRAWL_ERROR_CODES = {
  // Fetch (engine/fetch/fetcher.ts classifyFetchError, body.ts, dns.ts; the worker pool)
  TIMEOUT: { class: 'retry', advice: 'No complete answer within timeoutMs: retried; raise --timeout-ms for a slow server.' },
  CONNECT_TIMEOUT: { class: 'retry', advice: 'The connection was not accepted in time: retried; check the host is up.' },
  CONNECTION_RESET: { class: 'retry', advice: 'The server closed the connection mid-answer: retried; a server that keeps doing it is overloaded.' },
  FETCH_FAILED: { class: 'retry', advice: 'The fetch failed in transit for another reason (see the message): retried.' },
  WORKER_CRASHED: { class: 'retry', advice: 'The fetch worker died while fetching: the URL is retried on a fresh worker.' },
  WORKER_START_FAILED: { class: 'stop-crawl', advice: 'Crawl workers kept dying before they finished loading (see the message): the crawl is interrupted; free memory or reinstall Crawlbench, then resume.' },
  WORKER_PROTOCOL: { class: 'fail-url', advice: 'A crawl worker sent a page the scheduler could not read (a worker from another build): reinstall Crawlbench, then clear the error cache to fetch the URL again.' },
  CONNECTION_REFUSED: { class: 'fail-url', advice: 'Nothing listens at that address and port: check the host, or its --resolve mapping.' },
  DNS_FAILED: { class: 'fail-url', advice: 'The host name does not resolve: check its spelling, or map it with --resolve.' },
  HOST_NOT_MAPPED: { class: 'fail-url', advice: 'Closed resolver mode and the host is not in the map: add --resolve host=ip:port, or drop --closed.' },
  BODY_DECODE_FAILED: { class: 'fail-url', advice: 'The body could not be decompressed as its Content-Encoding says: the server sent a broken body.' },
  UNSUPPORTED_ENCODING: { class: 'fail-url', advice: 'The body uses a Content-Encoding the crawler cannot decode: fetch it with a tool that can.' },
  PARSE_FAILED: { class: 'fail-url', advice: 'The page was fetched but could not be parsed (see the message).' },
  // JavaScript rendering (engine/render/): a render failure is this URL's error, the crawl goes on.
  RENDER_TIMEOUT: { class: 'fail-url', advice: 'The page did not finish rendering within --render-timeout-ms (a script that never ends, or a slow page): raise the budget, or crawl it with --render off.' },
  RENDER_FAILED: { class: 'fail-url', advice: 'Chromium could not render the page (its renderer crashed or the browser closed; see the message): the page was fetched, its rendering failed.' },
  RENDER_UNAVAILABLE: { class: 'stop-crawl', advice: 'Chromium could not be started for --render auto|always: install chromium (Debian: apt-get install chromium) or pass --chromium PATH.' },
  INVALID_URL: { class: 'fail-url', advice: 'The URL cannot be crawled as written (no host, or not normalizable).' },
  // Redirects (engine/fetch/fetcher.ts for robots.txt, engine/schedule for pages)
  REDIRECT_LOOP: { class: 'fail-url', advice: 'The redirect leads back into its own chain: the site has a redirect loop.' },
  REDIRECT_LIMIT: { class: 'fail-url', advice: 'More consecutive redirects than maxRedirects: raise it, or fix the chain.' },
  BAD_REDIRECT: { class: 'fail-url', advice: 'The Location is not an http(s) URL: the redirect cannot be followed.' },
  // robots.txt (engine/robots, engine/schedule)
  ROBOTS_DISALLOWED: { class: 'fail-url', advice: 'robots.txt disallows the URL for this user agent: not fetched (--no-robots ignores it, on sites you may crawl).' },
  ROBOTS_UNAVAILABLE: { class: 'fail-url', advice: "The host's robots.txt kept failing (5xx or no answer): its URLs are not fetched; resume later with --retry-errors." },
  ROBOTS_REDIRECT_FAILED: { class: 'retry', advice: 'robots.txt redirected to a URL that failed: asked again later, the host disallowed meanwhile.' },
  // Sitemaps (engine/sitemaps): recorded with the sitemap (the sitemaps table and report), never a URL's state; the crawl goes on
  SITEMAP_MALFORMED: { class: 'fail-url', advice: 'The sitemap is not well-formed XML (line and column in the message): the entries before the error were used; fix the file at that point.' },
  SITEMAP_NOT_SITEMAP: { class: 'fail-url', advice: 'The file is XML but its root is neither <urlset> nor <sitemapindex>: point robots.txt Sitemap: at a sitemaps.org file.' },
  SITEMAP_GZIP_FAILED: { class: 'fail-url', advice: 'The .gz sitemap is not valid gzip: compress it again (gzip -9), or serve it uncompressed.' },
  SITEMAP_TOO_LARGE: { class: 'fail-url', advice: 'The sitemap is over 50 MB uncompressed (sitemaps.org limit): only its first 50 MB were read; split it and list the parts in a sitemap index.' },
  SITEMAP_TOO_MANY_URLS: { class: 'fail-url', advice: 'The sitemap lists more than 50,000 URLs (sitemaps.org limit): the first 50,000 were used; split it and list the parts in a sitemap index.' },
  SITEMAP_NESTED_INDEX: { class: 'fail-url', advice: 'A sitemap index lists another sitemap index, which sitemaps.org does not allow: its entries were not read; list the sitemaps themselves.' },
  SITEMAP_ROBOTS_UNAVAILABLE: { class: 'fail-url', advice: "The host's robots.txt stayed unavailable, so its sitemap was not fetched (as for its pages): resume later." },
  // Storage (engine/store/sqlite/storage-errors.ts): the crawl is left interrupted, nothing committed lost
  DISK_FULL: { class: 'stop-crawl', advice: 'The disk (or quota) is full: free some space, then resume.' },
  DB_IO_ERROR: { class: 'stop-crawl', advice: 'The disk reported an I/O error: check the disk, then resume.' },
  DB_READONLY: { class: 'stop-crawl', advice: 'The database file or its file system became read-only: make it writable, then resume.' },
  DB_BUSY: { class: 'stop-crawl', advice: 'Another process holds the database (or its crawl lease): wait for it to finish, then resume.' },
  DB_CORRUPT: { class: 'stop-crawl', advice: 'The database file is damaged: roll back to a checkpoint, or start a new database.' },
  // Opening a database (engine/store/sqlite/connection.ts, migrations)
  DB_OPEN_FAILED: { class: 'stop-crawl', advice: 'The database file cannot be opened (see the message): check the path and its folder.' },
  DB_NOT_FOUND: { class: 'stop-crawl', advice: 'No database at that path: check it (crawlbench crawl creates one).' },
  NOT_A_CRAWL_DB: { class: 'stop-crawl', advice: 'The file is not a Crawlbench database: give a new file name, or one made by crawlbench crawl.' },
  SCHEMA_TOO_NEW: { class: 'stop-crawl', advice: 'The database comes from a newer Crawlbench: open it with that version.' },
  // Stored bodies and WARC files (engine/bodies, engine/warc, issue 14)
  BODY_ENCODING_UNKNOWN: { class: 'stop-crawl', advice: 'A stored body is compressed in a way this Crawlbench does not read (a newer version wrote it): open the database with that version, or re-fetch the page.' },
  BODY_UNREADABLE: { class: 'stop-crawl', advice: 'A stored body does not decompress (the database file was damaged): re-fetch the page to store it again.' },
  INVALID_EXTRACTOR: { class: 'stop-crawl', advice: 'An extractor is not NAME[:first|all|count]=css:SELECTOR[@attr], regex:PATTERN or schema:TYPE.FIELD, or its selector or pattern does not compile (see the message): fix it, and the crawl starts.' },
  INVALID_REQUEST_RULE: { class: 'stop-crawl', advice: 'A --header, --auth, --cookie or --proxy value is not HOST=… as its help says (see the message): fix it, and the crawl starts.' },
  REQUEST_SECRETS_MISSING: { class: 'stop-crawl', advice: 'The crawl sends headers, cookies, credentials or a proxy whose secrets are no longer beside the database (the .secrets.json file is gone): give the same --header/--auth/--cookie/--proxy flags to crawlbench resume, or start a new crawl with them from the crawl form.' },
  REQUEST_SECRETS_UNREADABLE: { class: 'stop-crawl', advice: 'The .secrets.json file beside the database cannot be read (see the message): fix its permissions, or delete it and give the --header/--auth/--cookie/--proxy flags again.' },
  REQUEST_SECRETS_UNWRITABLE: { class: 'stop-crawl', advice: 'The request settings\' secrets could not be written beside the database (a full disk, a read-only folder): the crawl was stopped; fix the folder and start it again.' },
  COOKIE_JAR_UNREADABLE: { class: 'stop-crawl', advice: 'The .cookies.json file beside the database cannot be read as a cookie jar (see the message): fix or delete it (the crawl then resumes with an empty jar).' },
  COOKIE_JAR_WRITE_FAILED: { class: 'stop-crawl', advice: 'The crawl\'s cookie jar could not be written beside the database (a full disk, a read-only folder): the crawl is interrupted and nothing committed is lost; free space (or fix the folder), then resume.' },
  NO_STORED_BODIES: { class: 'stop-crawl', advice: 'The crawl kept no page bodies (crawled with --no-store-bodies): crawl again with bodies kept, or archive while crawling with crawl --warc FILE.' },
  WARC_OPEN_FAILED: { class: 'stop-crawl', advice: 'The WARC file cannot be opened for writing (a missing folder, not a WARC file, no permission: see the message): give a .warc.gz path in an existing folder.' },
  // A PostgreSQL store (engine/store/postgres, issue 13)
  INVALID_STORE_URL: { class: 'stop-crawl', advice: 'The --store value is neither a postgres://USER@HOST:PORT/DB URL nor a SQLite file path: fix it.' },
  STORE_UNREACHABLE: { class: 'stop-crawl', advice: 'The PostgreSQL server cannot be reached or refused the login (see the message): check the --store URL, that the server runs, and its pg_hba.conf; committed work is kept, run the command again.' },
  STORE_UNSUPPORTED: { class: 'stop-crawl', advice: 'This command does not work on a PostgreSQL crawl yet (see the message): copy the crawl to a SQLite file with crawlbench checkpoints --store URL --to FILE, and run it there.' },
  SNAPSHOT_EXISTS: { class: 'stop-crawl', advice: 'The file to copy a PostgreSQL crawl into exists already: the copy goes to a new file, choose another name.' },
  SNAPSHOT_FAILED: { class: 'stop-crawl', advice: 'The copy of a PostgreSQL crawl into a SQLite file failed (see the message); no file was left and PostgreSQL is unchanged.' },
  NO_RUNNING_CRAWL: { class: 'stop-crawl', advice: 'The store has no running crawl to join: start one with crawlbench crawl SEED --store URL, or name one with --crawl ID.' },
  // Crawls and checkpoints (engine/schedule, engine/store/sqlite)
  INVALID_RESOLVE: { class: 'stop-crawl', advice: 'A --resolve value (or Host overrides line) is not host=address[:port] (or *.suffix=address[:port]) with an IP address: fix it, and the crawl starts.' },
  INVALID_SEED: { class: 'stop-crawl', advice: 'A seed is not an absolute http(s) URL: fix it, and the crawl starts.' },
  INVALID_URL_LIST: { class: 'stop-crawl', advice: 'A line of the URL list is not an absolute http(s) URL (the message names the line), or the list is empty or too long: fix that line (# starts a comment line), or split the list.' },
  URL_LIST_UNREADABLE: { class: 'stop-crawl', advice: 'The --list file cannot be read (missing, a folder, no permission, or larger than 64 MiB): check the path.' },
  CRAWL_NOT_RUNNING: { class: 'stop-crawl', advice: 'The crawl is not running, so nothing would fetch the URL: resume the crawl, then try again.' },
  CRAWL_NOT_FOUND: { class: 'stop-crawl', advice: 'No crawl with that id in this database: list them (the Crawls view, or crawlbench export).' },
  INVALID_CHECKPOINT_NAME: { class: 'stop-crawl', advice: "A checkpoint name is 1-64 letters, digits, '.', '-' or '_'." },
  CHECKPOINT_EXISTS: { class: 'stop-crawl', advice: 'That crawl already has a checkpoint of this name: choose another name.' },
  CHECKPOINT_NOT_FOUND: { class: 'stop-crawl', advice: 'No such checkpoint, or its file is missing: list them with crawlbench checkpoints.' },
  CHECKPOINT_FAILED: { class: 'stop-crawl', advice: 'The checkpoint could not be written or restored (see the message); the crawl itself is unchanged.' },
  // Workbench queries (engine/store/sqlite/queries): the request fails, the crawl is not touched
  URL_NOT_FOUND: { class: 'stop-crawl', advice: 'No URL with that id in this crawl: it may belong to another crawl; reopen the crawl and select the URL again.' },
  WRITER_THREAD_EXITED: { class: 'stop-crawl', advice: 'The thread that writes the crawl ended (a write it could not hold in memory, or a crash): resume the crawl; nothing committed is lost.' },
  UNKNOWN_LINK_KIND: { class: 'stop-crawl', advice: 'A link kind has no stored code (a bug in this Crawlbench build): report it with the crawl.' },
  UNKNOWN_LINK_RULE: { class: 'stop-crawl', advice: 'A link rule has no stored code (a bug in this Crawlbench build, or a database from a newer one): report it, or open the database with the newer Crawlbench.' },
  INVALID_URL_REGEX: { class: 'stop-crawl', advice: 'A URL filter or --include/--exclude pattern is not a regular expression the linear-time engine runs (the message names it and why): rewrite it without backreferences, lookaround or large counted repetitions, or remove it.' },
  URL_REGEX_TOO_SLOW: { class: 'stop-crawl', advice: 'The regular expression took too long over this crawl: narrow it with the other filters (host, status) or use "URL contains".' },
  REGEX_UNAVAILABLE: { class: 'stop-crawl', advice: 'This runtime has no linear-time regular expression engine: use "URL contains" without the regex switch.' },
  VERSION_TEMPLATE_NOT_FOUND: { class: 'stop-crawl', advice: 'No version URL template with that id in this crawl (a template is listed once it has two versions): reload the Versions list.' },
  TRAP_NOT_FOUND: { class: 'stop-crawl', advice: 'No crawler trap with that id or pattern in this crawl: list them with crawlbench traps --db FILE (or the Frontier view).' },
  INVALID_PATH_PREFIX: { class: 'stop-crawl', advice: 'A site-tree directory starts and ends with "/": pick the node again from the tree.' },
  // DUST rules (shared/url/dust, engine/store/sqlite/crawl-rules.ts): the request fails, the crawl is not touched
  INVALID_DUST_RULE: { class: 'stop-crawl', advice: 'The DUST rule is not well formed (see the message): accept one that crawlbench dust proposes.' },
  INVALID_DUST_OPTIONS: { class: 'stop-crawl', advice: 'A DUST mining threshold is out of range (see the message): --min-support is a whole number from 1.' },
  DUST_RULE_EXISTS: { class: 'stop-crawl', advice: 'The crawl already applies this rule: nothing to do (crawlbench dust --rules lists them).' },
  DUST_RULE_NOT_FOUND: { class: 'stop-crawl', advice: 'No such proposed or accepted rule: list them with crawlbench dust --db FILE (add --rules for accepted ones).' },
  DUST_UNDO_ORDER: { class: 'stop-crawl', advice: 'A rule accepted later is still in force: undo rules newest first.' },
  DUST_UNDO_CONFLICT: { class: 'stop-crawl', advice: 'A URL found since the rule was accepted holds a key the undo would give back: the rule stays; roll back to a checkpoint to remove it.' },
  // Crawl comparison (app/services/crawl-diff.ts, crawlbench diff): the request fails, nothing is changed
  NOTHING_TO_COMPARE: { class: 'stop-crawl', advice: 'The comparison needs two crawls: the database holds only one, or both sides name the same crawl; crawl the site again into it, or give a second --db FILE or --crawl ID.' },
  COMPARE_FILE_INVALID: { class: 'stop-crawl', advice: 'The database file to compare with is named by a relative path, or is a folder: give the absolute path of a Crawlbench database file.' },
  COMPARISON_NOT_FOUND: { class: 'stop-crawl', advice: 'The comparison is no longer kept (the app keeps the newest few): run it again in the Compare view.' },
  // Re-running extractors (app/services/extraction-service.ts): the request fails, nothing is written
  EXTRACTION_RUNNING: { class: 'stop-crawl', advice: 'Extractors are being re-run over a crawl of this database: wait for the re-run to finish (its progress bar is in the Pages view), then try again.' },
  CRAWL_RUNNING: { class: 'stop-crawl', advice: 'A crawl of this database is running: pause or stop it first, then try again.' },
  // Anything thrown that carries no code (shared/types/result.ts toErrorInfo)
  INTERNAL: { class: 'stop-crawl', advice: 'An unexpected error (a bug): the crawl is left interrupted and resumable; please report the message.' },
} as const satisfies Record<string, ErrorCodeInfo>;

/** A fixed error code: a key of {@link CRAWL_ERROR_CODES}. */
export type FixedErrorCode = keyof typeof CRAWL_ERROR_CODES;

/** The storage failures (storage-errors.ts): every one stops the crawl, leaving it interrupted. */
export type StorageErrorCode = 'DISK_FULL' | 'DB_IO_ERROR' | 'DB_READONLY' | 'DB_BUSY' | 'DB_CORRUPT';

/** A page answered with an HTTP error status (400-599), e.g. `HTTP_404`: the URL's own result. */
export type HttpErrorCode = `HTTP_${4 | 5}${number}`;

/** A host's robots.txt answered 5xx (or another status that is neither 2xx nor 4xx), e.g. `ROBOTS_HTTP_503`. */
export type RobotsHttpErrorCode = `ROBOTS_HTTP_${number}`;

/** Every error code the crawler emits: one closed union. */
export type CrawlErrorCode = FixedErrorCode | HttpErrorCode | RobotsHttpErrorCode;

const HTTP_FAMILY = /^(ROBOTS_)?HTTP_([1-5]\d\d)$/;

/**
 * True when `code` is in {@link CrawlErrorCode} (a fixed code, or an HTTP family code with a
 * three-digit status: `HTTP_4xx`/`HTTP_5xx`, `ROBOTS_HTTP_<status>`).
 * @example isCrawlErrorCode('HTTP_404') // true
 * @example isCrawlErrorCode('HTTP_200') // false (not an error status)
 * @example isCrawlErrorCode('INVALID_PAYLOAD') // false (an IPC code, not the crawler's)
 */
export function isCrawlErrorCode(code: string): code is CrawlErrorCode {
  if (Object.hasOwn(CRAWL_ERROR_CODES, code)) return true;
  const match = HTTP_FAMILY.exec(code);
  if (!match) return false;
  return match[1] !== undefined || match[2]!.startsWith('4') || match[2]!.startsWith('5');
}

/**
 * The class and advice of an error code; a code outside the union (another layer's, or from an
 * older database) is `fail-url`, never retried.
 * - `HTTP_429`, `HTTP_503`: `retry` (RFC 6585 §4, RFC 9110 §15.6.4: the server asks to come back;
 *   the crawl runner retries them by status, with their Retry-After); other `HTTP_4xx`/`HTTP_5xx`: `fail-url`
 * - `ROBOTS_HTTP_<status>`: `retry` (RFC 9309 §2.3.1.4: robots.txt asked again with a doubling delay)
 * @example describeError('DISK_FULL').class // 'stop-crawl'
 * @example describeError('HTTP_404').class // 'fail-url'
 */
export function describeError(code: string): ErrorCodeInfo {
  if (Object.hasOwn(CRAWL_ERROR_CODES, code)) return CRAWL_ERROR_CODES[code as FixedErrorCode];
  const match = HTTP_FAMILY.exec(code);
  if (match && match[1] !== undefined) return { class: 'retry', advice: "The host's robots.txt answered an error status: asked again later, the host disallowed meanwhile." };
  if (match && (match[2] === '429' || match[2] === '503')) return { class: 'retry', advice: 'The server asked to come back later: retried after its Retry-After (or a backoff), up to maxRetries.' };
  if (match && match[2]!.startsWith('4')) return { class: 'fail-url', advice: 'The server refused the URL (client error status): the page is missing, gone or forbidden.' };
  if (match && match[2]!.startsWith('5')) return { class: 'fail-url', advice: 'The server failed on this URL (server error status): try again later with resume --retry-errors.' };
  return { class: 'fail-url', advice: 'An error this version does not know: the URL is recorded as failed.' };
}

/**
 * What the crawler does about `code` (see {@link describeError}).
 * @example errorClass('TIMEOUT') // 'retry'
 * @example errorClass('CONNECTION_REFUSED') // 'fail-url'
 */
export function errorClass(code: string): ErrorClass {
  return describeError(code).class;
}
