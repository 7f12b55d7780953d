/**
 * The per-page render record (issue 14 part 3) the store keeps in `page_renders` (SQLite
 * migration 0025, PostgreSQL step 4). Type-only imports: the store's writer thread loads this module.
 * It travels as `PageResult.render` (worker → committer) and `PageWrite.render` (committer → store).
 */
import type { RenderReason } from './render-mode';
import type { RenderRequests } from './render-page';

/** One rendered page's record (a `page_renders` row). */
export interface RenderRecord {
  /** Why the page was rendered (render-mode.ts RenderReason). */
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

/** The record of a successful render. */
export function renderRecord(reason: RenderReason, outcome: { renderMs: number; words: number; requests: RenderRequests }, renderedLinks: number): RenderRecord {
  return {
    reason,
    renderMs: outcome.renderMs,
    requests: outcome.requests.fetched,
    blockedRequests: outcome.requests.blocked,
    skippedRequests: outcome.requests.skipped,
    renderedLinks,
    renderedWords: outcome.words,
  };
}
