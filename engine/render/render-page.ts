/**
 * Renders one fetched page in Chromium (issue 14 part 3) within its budget: the document is
 * answered with the body the crawler fetched, every other request goes through the
 * {@link SubresourceGate} or is refused, and the rendered DOM's links and word count are read.
 */
import type { Page, Request, Route } from 'playwright-core';
import type { ErrorInfo } from '../../shared/types/result';
import { ANCHOR_TEXT_MAX_CHARS } from '../parse/parse-html';
import { withTimeout, type PageSlot, type RenderBrowser } from './browser-pool';
import { routeRequest, type BlockReason, type PageRouteState, type SubresourceGate } from './request-router';

/** After the load event, the page is read once no routed request has been in flight for this long (ms)... */
export const RENDER_QUIET_MS = 250;
/** ...or this long after the load event at most (ms), whichever comes first (and never past the budget). */
export const RENDER_MAX_SETTLE_MS = 2_000;
/** Links read from the rendered DOM at most. */
const MAX_RENDERED_LINKS = 50_000;

/** The page as the crawler fetched it. */
export interface RenderInput {
  /** The URL fetched (the page's finalUrl). */
  url: string;
  status: number;
  /** Headers to answer the browser's document request with (engine/render/request-router.ts browserHeaders). */
  headers: Record<string, string>;
  body: Buffer;
  /** The page's render budget, ms (CrawlSettings.renderTimeoutMs). */
  budgetMs: number;
  /** The Cookie header of each request the page makes (page-cookies.ts); absent: none is sent. */
  cookieHeader?: (url: string) => string | null;
}

/** A link of the rendered DOM: `<a href>` / `<area href>` resolved by the browser, with its text and rel. */
export interface RenderedLink {
  url: string;
  text: string;
  rel: string;
}

/** Counts of one render's requests: fetched through the gate, refused (by reason), skipped by resource type, failed in transit. */
export interface RenderRequests {
  fetched: number;
  blocked: number;
  blockedBy: Partial<Record<BlockReason, number>>;
  skipped: number;
  failed: number;
}

/** A finished render. */
export type RenderOutcome =
  | { ok: true; links: RenderedLink[]; words: number; renderMs: number; requests: RenderRequests }
  | { ok: false; error: ErrorInfo; renderMs: number; requests: RenderRequests };

/**
 * The expression that reads the rendered DOM in the page: `{ links: [href, text, rel][], words }`
 * (`href` as the browser resolved it; text collapsed and cut at ANCHOR_TEXT_MAX_CHARS; words of
 * `document.body.innerText`). A string, so no loader's helpers (tsx's `__name`) reach the page.
 */
const READ_DOM = `(() => {
  const links = [];
  const elements = document.querySelectorAll('a[href], area[href]');
  for (let i = 0; i < elements.length && links.length < ${MAX_RENDERED_LINKS}; i += 1) {
    const element = elements[i];
    const text = (element.textContent || element.getAttribute('alt') || '').replace(/\\s+/g, ' ').trim().slice(0, ${ANCHOR_TEXT_MAX_CHARS});
    links.push([String(element.href), text, (element.getAttribute('rel') || '').toLowerCase().trim()]);
  }
  const text = document.body ? document.body.innerText : '';
  const words = text.split(/\\s+/).filter((word) => word !== '').length;
  return { links, words };
})()`;

/** A request's routing facts, read defensively (a service worker's request has no frame). */
function describe(request: Request, page: Page): { url: string; method: string; resourceType: string; mainFrameNavigation: boolean } {
  let mainFrameNavigation = false;
  try {
    mainFrameNavigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    mainFrameNavigation = false;
  }
  return { url: request.url(), method: request.method(), resourceType: request.resourceType(), mainFrameNavigation };
}

/**
 * Renders `input` in a fresh context of `browser`. The budget covers the navigation, the page's
 * scripts, settling (until no routed request has been in flight for {@link RENDER_QUIET_MS}, at
 * most {@link RENDER_MAX_SETTLE_MS} after load) and reading the DOM; the time waiting for a render
 * slot does not count. After a failed render the slot's context is closed (a page whose script
 * never ends is killed with its renderer); after a good one the page is emptied for the next.
 * Never throws: a page past its budget is `RENDER_TIMEOUT`; a crash, a closed browser or a
 * document that could not load is `RENDER_FAILED`; Chromium missing is `RENDER_UNAVAILABLE`.
 */
export async function renderPage(browser: RenderBrowser, gate: SubresourceGate, input: RenderInput): Promise<RenderOutcome> {
  const requests: RenderRequests = { fetched: 0, blocked: 0, blockedBy: {}, skipped: 0, failed: 0 };
  const block = (reason: BlockReason): void => {
    requests.blocked += 1;
    requests.blockedBy[reason] = (requests.blockedBy[reason] ?? 0) + 1;
  };
  let startedAt = 0;
  try {
    return await browser.withPage(async (slot: PageSlot) => {
      startedAt = performance.now();
      const deadline = startedAt + input.budgetMs;
      const remaining = () => deadline - performance.now();
      const { page } = slot;
      const state: PageRouteState = { pageUrl: input.url, documentServed: false, fetched: 0 };
      let inFlight = 0;
      let lastActivity = performance.now();
      let live = true;
      slot.onWebSocket = () => block('websocket');
      slot.onRequest = async (route: Route, request: Request) => {
        const decision = routeRequest(describe(request, page), state);
        try {
          switch (decision.action) {
            case 'document':
              await route.fulfill({ status: input.status, headers: input.headers, body: input.body });
              return;
            case 'continue':
              await route.continue();
              return;
            case 'skip':
              requests.skipped += 1;
              await route.abort('blockedbyclient');
              return;
            case 'block':
              block(decision.reason);
              await route.abort('blockedbyclient');
              return;
            case 'fetch': {
              inFlight += 1;
              try {
                const url = request.url();
                const hash = url.indexOf('#');
                const target = hash < 0 ? url : url.slice(0, hash);
                const answer = await gate.request(target, input.cookieHeader?.(target) ?? null);
                if (!live) {
                  await route.abort('blockedbyclient');
                  return;
                }
                if (answer.kind === 'fetched') {
                  requests.fetched += 1;
                  await route.fulfill({ status: answer.status, headers: answer.headers, body: request.method().toUpperCase() === 'HEAD' ? Buffer.alloc(0) : answer.body });
                } else if (answer.kind === 'blocked') {
                  block(answer.reason);
                  await route.abort('blockedbyclient');
                } else {
                  requests.failed += 1;
                  await route.abort('failed');
                }
              } finally {
                inFlight -= 1;
                lastActivity = performance.now();
              }
              return;
            }
            default: {
              const exhaustive: never = decision;
              throw new Error(`Unknown route decision ${JSON.stringify(exhaustive)}`);
            }
          }
        } catch {
          // The page moved on (budget spent, emptied) while this request was answered: nothing to do.
        }
      };
      try {
        await page.goto(input.url, { waitUntil: 'load', timeout: Math.max(1, remaining()) });
        const settleUntil = Math.min(deadline, performance.now() + RENDER_MAX_SETTLE_MS);
        while (performance.now() < settleUntil && (inFlight > 0 || performance.now() - lastActivity < RENDER_QUIET_MS)) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        const dom = await withTimeout(page.evaluate<{ links: [string, string, string][]; words: number }>(READ_DOM), Math.max(1, remaining()));
        const links = dom.links.map(([url, text, rel]) => ({ url, text, rel }));
        return { ok: true as const, links, words: dom.words, renderMs: Math.round(performance.now() - startedAt), requests };
      } catch (error) {
        // The page may still be running (a script that never ends): its context goes, with its renderer.
        slot.reusable = false;
        throw Object.assign(error as Error, { renderMs: Math.round(performance.now() - startedAt) });
      } finally {
        live = false;
      }
    });
  } catch (error) {
    const measured = (error as { renderMs?: number }).renderMs;
    const renderMs = measured ?? (startedAt === 0 ? 0 : Math.round(performance.now() - startedAt));
    return { ok: false, error: renderError(error, input), renderMs, requests };
  }
}

/** The per-URL error of a failed render. */
function renderError(error: unknown, input: RenderInput): ErrorInfo {
  const e = error as { name?: string; code?: string; message?: string };
  const message = (e.message ?? String(error)).split('\n')[0]!.slice(0, 300);
  if (e.code === 'RENDER_UNAVAILABLE' || e.code === 'RENDER_FAILED') return { code: e.code, message };
  if (e.name === 'TimeoutError') return { code: 'RENDER_TIMEOUT', message: `The page did not render within its ${input.budgetMs} ms budget (--render-timeout-ms): ${message}` };
  return { code: 'RENDER_FAILED', message: `Rendering failed: ${message}` };
}
