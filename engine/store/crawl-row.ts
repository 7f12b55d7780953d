/**
 * A `crawls` row as both stores keep it (same columns in SQLite and PostgreSQL, migration 0001 of
 * each) and the one mapping from it and its URL counts to the {@link CrawlSummary} every view,
 * export and CLI line shows.
 */
import type { CrawlStatus, CrawlSummary, UrlState } from '../../shared/types/crawl';
import { readStoredCrawlSettings } from '../../shared/types/crawl-settings';

/** The `crawls` table's columns: seeds and settings as JSON text, times as epoch ms. */
export interface CrawlRow {
  id: number;
  seeds_json: string;
  settings_json: string;
  status: CrawlStatus;
  created_at_ms: number;
  finished_at_ms: number | null;
}

/** Every URL state at zero (a crawl with no URLs yet). */
export function noUrlCounts(): Record<UrlState, number> {
  return { pending: 0, in_flight: 0, done: 0, error: 0, blocked: 0, held: 0 };
}

/**
 * The summary of crawl `row` with its URLs by state: fetched = done, queued = pending + in flight.
 * Each setting is read by its schema; a missing or invalid one takes its default (an older database).
 */
export function crawlSummary(row: CrawlRow, counts: Record<UrlState, number>): CrawlSummary {
  return {
    id: row.id,
    seeds: JSON.parse(row.seeds_json) as string[],
    status: row.status,
    createdAtMs: row.created_at_ms,
    finishedAtMs: row.finished_at_ms,
    fetched: counts.done,
    queued: counts.pending + counts.in_flight,
    errors: counts.error,
    blocked: counts.blocked,
    held: counts.held,
    settings: readStoredCrawlSettings(JSON.parse(row.settings_json)),
  };
}
