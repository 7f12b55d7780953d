import type { CrawlSettings } from '../../../shared/types/crawl';
import type { ErrorInfo } from '../../../shared/types/result';
import type { LinkKind } from './parse-html';
import type { RedirectHop } from './fetcher';

/**
 * The message protocol between the scheduler (main thread) and fetch/parse workers: discriminated
 * unions with sequence numbers, so every reply names the task it answers (Signal's worker pattern).
 */

/** Settings a worker needs, sent once at start. */
export interface WorkerInit {
  settings: Pick<CrawlSettings, 'userAgent' | 'timeoutMs' | 'maxBodyBytes' | 'maxRedirects' | 'hostOverrides' | 'closedResolver'>;
  /** How many fetches this worker runs at once. */
  concurrency: number;
}

/** Scheduler → worker. */
export type ToWorker = { type: 'fetch'; seq: number; urlId: number; url: string } | { type: 'shutdown' };

/** A link found on a fetched page, resolved to an absolute URL (the raw URL of seed 001). */
export interface DiscoveredLink {
  url: string;
  kind: LinkKind;
}

/** The result of fetching (and, for HTML, parsing) one URL. */
export interface PageResult {
  finalUrl: string;
  status: number;
  contentType: string | null;
  bodyBytes: number;
  truncated: boolean;
  fetchMs: number;
  redirectChain: RedirectHop[];
  title: string | null;
  links: DiscoveredLink[];
  /** Hrefs that could not be resolved to a URL at all (malformed); other schemes are in `links`. */
  unresolvableLinks: number;
  nofollow: boolean;
  noindex: boolean;
  retryAfter: string | null;
}

/** Worker → scheduler. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'page'; seq: number; urlId: number; result: PageResult }
  | { type: 'failed'; seq: number; urlId: number; error: ErrorInfo; fetchMs: number; redirectChain: RedirectHop[] };
