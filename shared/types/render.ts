/**
 * What a crawl records of a page's JavaScript rendering (issue 14 part 3; engine/render/): one
 * `page_renders` row (SQLite migration 0025, PostgreSQL step 4), shown in the URL inspector.
 */

/** Why a page is rendered: `always` (the crawl renders every HTML page), or the `auto` signal that fired first (engine/render/render-mode.ts). */
export type RenderReason = 'always' | 'app-root' | 'noscript' | 'document-write' | 'little-text';

/** One rendered page's record. */
export interface RenderRecord {
  /** Why the page was rendered. */
  reason: RenderReason;
  /** Wall time of the render (context, navigation, scripts, settling, reading the DOM), ms. */
  renderMs: number;
  /** Requests fetched for the page through the crawler (robots.txt fetches not counted). */
  requests: number;
  /** Requests refused: closed mode, robots.txt, method, scheme, navigation, per-page cap, WebSockets. */
  blockedRequests: number;
  /** Images, media and fonts not loaded (they add no links or text). */
  skippedRequests: number;
  /** Links the rendered DOM has that the static HTML did not (stored with kind `rendered`, at most the page's link cap). */
  renderedLinks: number;
  /** Words of the rendered page's visible text (document.body.innerText). */
  renderedWords: number;
}
