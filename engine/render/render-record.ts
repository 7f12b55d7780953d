/**
 * The per-page render record (shared/types/render.ts RenderRecord) the store keeps in `page_renders`
 * (SQLite migration 0025, PostgreSQL step 4), built from a render's outcome. Type-only imports:
 * the store's writer thread loads this module.
 * It travels as `PageResult.render` (worker → committer) and `PageWrite.render` (committer → store).
 */
import type { RenderReason, RenderRecord } from '../../shared/types/render';
import type { RenderRequests } from './render-page';

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

export type { RenderRecord };
