/**
 * The Chromium a crawl worker renders with (issue 14 part 3): found on the system (no Playwright
 * browser download), launched on first use, at most `concurrency` pages at once, closed at the
 * worker's shutdown. Chromium is started so that it cannot reach any network by itself: every
 * request is answered through engine/render/request-router.ts, and anything that escaped the
 * routing would meet a resolver that resolves nothing and a proxy on a closed loopback port.
 */
import fs from 'node:fs';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { CodedError } from '../../shared/types/result';

/** Where the system Chromium is looked for when the crawl names none (Debian's `chromium` first). */
export const SYSTEM_CHROMIUM_PATHS: readonly string[] = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium executable to render with.
 * @param configured CrawlSettings.chromiumPath: a path, or '' to take the first of {@link SYSTEM_CHROMIUM_PATHS} that exists
 * @returns the absolute path of an executable file
 * @throws CodedError RENDER_UNAVAILABLE when the path given is not an executable file, or none of the system paths is
 */
export function findChromium(configured: string): string {
  if (configured !== '') {
    if (executable(configured)) return configured;
    throw new CodedError('RENDER_UNAVAILABLE', `Chromium not found at ${configured} (--chromium): install chromium or pass --chromium PATH to an executable Chromium`);
  }
  const found = SYSTEM_CHROMIUM_PATHS.find(executable);
  if (found !== undefined) return found;
  throw new CodedError('RENDER_UNAVAILABLE', `No Chromium found for rendering (looked for ${SYSTEM_CHROMIUM_PATHS.join(', ')}): install chromium (Debian: apt-get install chromium) or pass --chromium PATH`);
}

/**
 * Chromium's command line: headless without sandbox or GPU (containers, CI as root), and no
 * network of its own: host names resolve to nothing (`--host-resolver-rules`), every connection
 * would go to a proxy on the closed port 9 of 127.0.0.1 (loopback included), WebRTC may not
 * use UDP around it, and background services (updates, sync, safe browsing, DNS prefetch) are off.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--no-default-browser-check',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--dns-prefetch-disable',
  '--no-pings',
  '--disable-dev-shm-usage',
];

/** How long a Chromium launch may take. */
const LAUNCH_TIMEOUT_MS = 30_000;

export interface RenderBrowserOptions {
  /** CrawlSettings.chromiumPath ('' finds the system Chromium). */
  chromiumPath: string;
  /** Pages rendered at once (CrawlSettings.renderConcurrency). */
  concurrency: number;
  /** The browser's own User-Agent (navigator.userAgent): the crawl's. */
  userAgent: string;
}

/** A page renders run in, its context's routes dispatching to the render using it. */
export interface PageSlot {
  page: Page;
  /** The render's handler of every request of the page's context; null between renders (requests are then aborted). */
  onRequest: ((route: Route, request: Request) => Promise<void>) | null;
  /** Called for each WebSocket the page opens (it is closed, never connected); null between renders. */
  onWebSocket: (() => void) | null;
  /** Set false by a render that failed: the slot's context is closed (its renderer with it) and a fresh one made next time. */
  reusable: boolean;
  /** Renders this slot served. */
  served: number;
}

/**
 * A slot's context is replaced after this many renders, so what pages leave behind (localStorage,
 * cookies set by scripts, caches) lives briefly.
 */
export const RENDERS_PER_CONTEXT = 50;

/**
 * One worker's Chromium: launched lazily by the first {@link RenderBrowser.withPage}, relaunched
 * after a crash. Each render slot keeps one browser context with one page, reused from render to
 * render (a fresh context and page cost about 0.4 s of a page's render on a small machine),
 * emptied (about:blank) after each render, and replaced after a failed render (a page whose script
 * never ends is killed with its context's renderer) or {@link RENDERS_PER_CONTEXT} renders.
 */
export class RenderBrowser {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idle: PageSlot[] = [];
  private closed = false;

  constructor(private readonly options: RenderBrowserOptions) {}

  /**
   * Runs `use` with a page once a render slot is free; the slot goes back to the pool afterwards
   * (or is closed: see {@link PageSlot.reusable}).
   * @throws CodedError RENDER_UNAVAILABLE when Chromium cannot be found or started; RENDER_FAILED when the browser is closing
   */
  async withPage<T>(use: (slot: PageSlot) => Promise<T>): Promise<T> {
    await this.acquire();
    let slot: PageSlot | null = null;
    try {
      slot = this.idle.pop() ?? (await this.newSlot());
      slot.reusable = true;
      slot.served += 1;
      return await use(slot);
    } finally {
      if (slot) await this.release(slot);
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }

  /** Closes Chromium (the worker's shutdown); later renders fail with RENDER_FAILED. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    this.idle.length = 0;
    if (!browser) return;
    await browser.then((b) => withTimeout(b.close(), 5_000)).catch(() => undefined);
  }

  private async acquire(): Promise<void> {
    while (this.active >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
  }

  private async newSlot(): Promise<PageSlot> {
    const browser = await this.launched();
    const context = await browser.newContext({ serviceWorkers: 'block', userAgent: this.options.userAgent, acceptDownloads: false, viewport: { width: 1280, height: 1024 } });
    try {
      const page = await context.newPage();
      const slot: PageSlot = { page, onRequest: null, onWebSocket: null, reusable: true, served: 0 };
      await context.routeWebSocket(/.*/, (socket) => {
        slot.onWebSocket?.();
        void socket.close().catch(() => undefined);
      });
      await context.route('**/*', async (route, request) => {
        const handler = slot.onRequest;
        if (handler) await handler(route, request);
        else await route.abort('blockedbyclient').catch(() => undefined);
      });
      return slot;
    } catch (error) {
      await withTimeout(context.close(), 5_000).catch(() => undefined);
      throw error;
    }
  }

  /** Back to the pool, emptied; or closed (failed render, spent, browser closing). */
  private async release(slot: PageSlot): Promise<void> {
    slot.onRequest = null;
    slot.onWebSocket = null;
    if (slot.reusable && !this.closed && slot.served < RENDERS_PER_CONTEXT && this.browser !== null) {
      const emptied = await withTimeout(slot.page.goto('about:blank'), 2_000).then(
        () => true,
        () => false,
      );
      if (emptied) {
        this.idle.push(slot);
        return;
      }
    }
    await withTimeout(slot.page.context().close(), 5_000).catch(() => undefined);
  }

  private launched(): Promise<Browser> {
    if (this.closed) return Promise.reject(new CodedError('RENDER_FAILED', 'The worker is shutting down: the page was not rendered'));
    if (this.browser) return this.browser;
    const launching = (async () => {
      const executablePath = findChromium(this.options.chromiumPath);
      const { chromium } = await import('playwright-core');
      try {
        const browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS], timeout: LAUNCH_TIMEOUT_MS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
        // A crashed or killed browser is launched again by the next render (its slots are gone with it).
        browser.on('disconnected', () => {
          if (this.browser === launching) {
            this.browser = null;
            this.idle.length = 0;
          }
        });
        return browser;
      } catch (error) {
        throw new CodedError('RENDER_UNAVAILABLE', `Chromium at ${executablePath} could not be started: ${(error as Error).message.split('\n')[0]}`);
      }
    })();
    this.browser = launching;
    // A failed launch is not kept: the next render tries again.
    launching.catch(() => {
      if (this.browser === launching) this.browser = null;
    });
    return launching;
  }
}

/**
 * `promise`, or a rejection after `ms` (the promise itself is not cancelled).
 * @throws Error named TimeoutError when the time runs out
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`timed out after ${Math.round(ms)} ms`), { name: 'TimeoutError' })), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
