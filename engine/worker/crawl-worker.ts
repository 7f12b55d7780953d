/**
 * Fetch + parse worker (worker_threads entry point). Receives `fetch` tasks from the scheduler,
 * runs the tasks the pool gives it (at most the crawl's fetch slots, `concurrency`), and answers each with a `page` or `failed` message
 * carrying the task's sequence number. Never imports electron; runs the same under Node and Electron.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { HostResolver } from '../fetch/dns';
import { Fetcher, requestHeaders } from '../fetch/fetcher';
import { robotsFetchError, robotsRedirectLimit } from '../fetch/redirects';
import { processFetch } from '../parse/page-processor';
import { fetchRecords } from '../warc/warc-records';
import { storedBody } from '../bodies/stored-body';
import { fetchSitemap } from '../fetch/sitemap-fetch';
import { packLinks } from './link-wire';
import type { FromWorker, PageResult, RobotsResult, ToWorker, WorkerInit } from './protocol';
import { ROBOTS_PARSE_LIMIT_BYTES } from '../robots/robots';
import { politenessDelayMs } from '../schedule/politeness';
import { SITEMAP_MAX_BYTES } from '../parse/sitemap-parser';
import { renderable, renderReason } from '../render/render-mode';
import { RenderBrowser } from '../render/browser-pool';
import { browserHeaders, SubresourceGate } from '../render/request-router';
import { renderPage } from '../render/render-page';
import { addRenderedLinks } from '../render/rendered-links';
import { pageCookieHeaders } from '../render/page-cookies';
import { renderRecord } from '../render/render-record';
import type { FetchedResponse } from '../fetch/fetcher';
import { CRAWL_WORKER_THREAD_NAME, nameThisThread } from './thread-name';

const port = parentPort;
if (!port) throw new Error('crawl-worker must run as a worker thread');
nameThisThread(CRAWL_WORKER_THREAD_NAME);

const init = workerData as WorkerInit;
const resolver = new HostResolver({ overrides: init.settings.hostOverrides, closed: init.settings.closedResolver });
const fetcher = new Fetcher({
  resolver,
  userAgent: init.settings.userAgent,
  timeoutMs: init.settings.timeoutMs,
  maxBodyBytes: init.settings.maxBodyBytes,
  // Only robots.txt fetches follow redirects (RFC 9309 §2.3.1.2: at least five); a page's
  // redirect is a result of its own, its target fetched through the frontier.
  maxRedirects: robotsRedirectLimit(init.settings.maxRedirects),
  hopDelayMs: (hopFetchMs) => politenessDelayMs(init.settings, hopFetchMs),
  http2: init.settings.http2 ?? false,
  requestRules: init.requestRules ?? [],
});

const post = (message: FromWorker): void => port.postMessage(message);
/** Answers with a page: its links packed for the structured clone (link-wire.ts). */
const postPage = (seq: number, urlId: number, result: PageResult): void => post({ type: 'page', seq, urlId, result: { ...result, links: packLinks(result.links) } });
/**
 * The crawl's extractors, compiled once (the crawl's start checked they compile). Their module, and
 * cheerio with its parse5 and encoding packages, load only in a crawl that has extractors: 1.35
 * MB of the worker's 3.4 MB bundle chunk, and its heap and code in every worker of the many crawls
 * that have none.
 */
const extractorList = init.settings.extractors ?? [];
const extractors = extractorList.length === 0 ? null : (await import('./extractors-entry')).CompiledExtractors.compile(extractorList);
const extract = extractors === null || extractors.empty ? {} : { extract: (html: string) => extractors.run(html) };
/** The request headers every fetch sends, as its WARC request record states them. */
const fetchHeaders = requestHeaders(init.settings.userAgent);

/** Sitemap fetches, made on first use: a body cap of their own (sitemaps.org's 50 MB), redirects followed as for robots.txt. */
let sitemapFetcher: Fetcher | null = null;

/** JavaScript rendering (engine/render/), when the crawl renders: Chromium launched on the first page that needs it. */
const renderMode = init.settings.render ?? 'off';
const renderer =
  renderMode === 'off'
    ? null
    : {
        browser: new RenderBrowser({ chromiumPath: init.settings.chromiumPath ?? '', concurrency: init.settings.renderConcurrency ?? 2, userAgent: init.settings.userAgent }),
        // Every request of a rendered page: this worker's fetcher (resolver, closed mode, request rules), robots.txt, politeness.
        gate: new SubresourceGate({
          fetch: (url, options) => fetcher.fetch(url, options),
          resolve: (hostname) => resolver.resolve(hostname),
          userAgent: init.settings.userAgent,
          obeyRobots: init.settings.obeyRobots ?? true,
          politeness: init.settings,
        }),
      };

/**
 * Renders `result`'s page when the crawl's render mode asks for it (render-mode.ts), adding the
 * links only the rendered DOM has (kind `rendered`) and the render record.
 * @returns null when done (or not rendered); the render's error (RENDER_TIMEOUT, RENDER_FAILED,
 *   RENDER_UNAVAILABLE) when it failed: the URL then fails with it, alone
 */
async function maybeRender(outcome: FetchedResponse, result: PageResult, siteCookies: string | undefined): Promise<Extract<FromWorker, { type: 'failed' }>['error'] | null> {
  if (!renderer || !renderable(outcome)) return null;
  const reason = renderReason(renderMode, outcome.body.toString('latin1'), result.wordCount);
  if (reason === null) return null;
  const rendered = await renderPage(renderer.browser, renderer.gate, {
    url: outcome.finalUrl,
    status: outcome.status,
    headers: browserHeaders(outcome.responseHeadersJson, outcome.contentType),
    body: outcome.body,
    budgetMs: init.settings.renderTimeoutMs ?? 10_000,
    cookieHeader: pageCookieHeaders(siteCookies),
  });
  if (!rendered.ok) return rendered.error;
  const added = addRenderedLinks(result, rendered.links, init.settings.maxUrlLength);
  result.render = renderRecord(reason, rendered, added);
  return null;
}

/** Fetches and parses one page (rendering it when the crawl asks), and answers the scheduler. */
async function fetchPage(message: Extract<ToWorker, { type: 'fetch' }>): Promise<void> {
  const outcome = await fetcher.fetch(message.url, message.cookie === undefined ? {} : { cookie: message.cookie });
  if (!outcome.ok) {
    post({ type: 'failed', seq: message.seq, urlId: message.urlId, error: outcome.error, fetchMs: outcome.fetchMs });
    return;
  }
  // Kept with a failure too: a login answer whose page cannot be parsed or rendered still set its cookies.
  const setCookies = init.settings.cookieJar && outcome.setCookies.length > 0 ? { setCookies: outcome.setCookies } : {};
  let result: PageResult;
  try {
    result = processFetch(outcome, { excerptChars: init.settings.pageTextChars, maxUrlLength: init.settings.maxUrlLength, ...extract });
    if (init.settings.storeBodies && outcome.redirect === null && outcome.body.length > 0) result.body = storedBody(outcome.body, outcome.truncated, init.settings.maxStoredBodyBytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    post({ type: 'failed', seq: message.seq, urlId: message.urlId, error: { code: 'PARSE_FAILED', message: reason }, fetchMs: outcome.fetchMs, ...setCookies });
    return;
  }
  Object.assign(result, setCookies);
  const renderError = await maybeRender(outcome, result, message.siteCookies);
  if (renderError !== null) {
    post({ type: 'failed', seq: message.seq, urlId: message.urlId, error: renderError, fetchMs: outcome.fetchMs, ...setCookies });
    return;
  }
  if (!init.warc) {
    postPage(message.seq, message.urlId, result);
    return;
  }
  // The fetch as archived; a record that cannot be built (warcio refused it) leaves the page unarchived, never lost.
  const fetchedAtMs = Date.now();
  await fetchRecords(
    { url: outcome.finalUrl, fetchedAtMs, status: outcome.status, responseHeadersJson: outcome.responseHeadersJson, requestHeaders: fetchHeaders, body: outcome.body, truncated: outcome.truncated, protocols: outcome.protocols },
    { gzip: init.warc.gzip },
  ).then(
    ({ bytes, payloadDigest }) => postPage(message.seq, message.urlId, { ...result, warc: { bytes, records: 2, payloadDigest, fetchedAtMs, protocols: outcome.protocols } }),
    () => postPage(message.seq, message.urlId, result),
  );
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'fetch':
      if (message.purpose === 'robots') {
        void fetcher.fetch(message.url, { followRedirects: true }).then((outcome) => {
          const result: RobotsResult = outcome.ok
            ? { url: message.url, status: outcome.status, text: outcome.body.subarray(0, ROBOTS_PARSE_LIMIT_BYTES).toString('utf8'), error: null, fetchMs: outcome.fetchMs }
            : { url: message.url, status: null, text: '', error: robotsFetchError(outcome.error, outcome.redirectChain.length), fetchMs: outcome.fetchMs };
          post({ type: 'robots', seq: message.seq, urlId: message.urlId, result });
        });
        break;
      }
      if (message.purpose === 'sitemap') {
        sitemapFetcher ??= new Fetcher({
          resolver: new HostResolver({ overrides: init.settings.hostOverrides, closed: init.settings.closedResolver }),
          userAgent: init.settings.userAgent,
          timeoutMs: init.settings.timeoutMs,
          maxBodyBytes: SITEMAP_MAX_BYTES,
          maxRedirects: robotsRedirectLimit(init.settings.maxRedirects),
          hopDelayMs: (hopFetchMs) => politenessDelayMs(init.settings, hopFetchMs),
          http2: init.settings.http2 ?? false,
          requestRules: init.requestRules ?? [],
        });
        void fetchSitemap(sitemapFetcher, message.url).then((result) => post({ type: 'sitemap', seq: message.seq, urlId: message.urlId, result }));
        break;
      }
      void fetchPage(message).catch((error: unknown) => {
        // A bug of this worker's, not the page's: the URL fails alone.
        const reason = error instanceof Error ? error.message : String(error);
        post({ type: 'failed', seq: message.seq, urlId: message.urlId, error: { code: 'PARSE_FAILED', message: reason }, fetchMs: 0 });
      });
      break;
    case 'shutdown':
      void Promise.all([renderer?.browser.close(), fetcher.close(), sitemapFetcher?.close()]).finally(() => port.close());
      break;
    default: {
      const exhaustive: never = message;
      throw new Error(`Unknown message ${JSON.stringify(exhaustive)}`);
    }
  }
});

post({ type: 'ready' });
