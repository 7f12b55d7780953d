/** Retry policy: whether a finished fetch goes back to pending, and how long its host then waits. */
import type { CrawlSettings } from '../../shared/types/crawl';
import { errorClass } from '../../shared/types/error-codes';
import type { ClaimedUrl, Disposition } from '../store/ports';
import type { PoolMessage } from '../worker/worker-pool';
import { retryAfterMs } from './retry-after';

/** How a fetch ended, as the worker pool reports it. */
export type FetchOutcome = Extract<PoolMessage, { type: 'page' | 'failed' }>;

/** A fetch that ended and waits for its outcome to be committed. */
export interface SettledFetch {
  url: ClaimedUrl;
  message: FetchOutcome;
  /** Host bookkeeping of the fetch, worked out when it ended. */
  disposition: Disposition;
  /** True when the URL goes back to pending for another try (transient failure, 429/503). */
  retry: boolean;
}

/**
 * How a fetch ended, for the frontier: a failure or HTTP status whose error class is `retry`
 * (shared/types/error-codes.ts: transport failures, 429 and 503 — RFC 6585 §4, RFC 9110 §15.6.4)
 * within `maxRetries` goes back to pending, and its host waits the server's
 * Retry-After or an exponential backoff (1 s × 2^attempts, capped at maxDelayMs); anything else is
 * recorded. The robots Crawl-delay (`crawlDelayMs`, ms) is the floor of every host wait.
 * @param nowMs epoch ms the fetch ended
 */
export function settle(url: ClaimedUrl, message: FetchOutcome, nowMs: number, settings: Pick<CrawlSettings, 'maxRetries' | 'maxDelayMs'>, crawlDelayMs: number): SettledFetch {
  const { maxRetries, maxDelayMs } = settings;
  const backoffMs = 1000 * 2 ** url.attempts;
  if (message.type === 'failed') {
    const retry = errorClass(message.error.code) === 'retry' && url.attempts < maxRetries;
    const extraDelayMs = retry ? Math.max(crawlDelayMs, backoffMs) : crawlDelayMs;
    return { url, message, retry, disposition: { fetchMs: message.fetchMs, nowMs, extraDelayMs, ...(retry ? { extraDelayReason: 'Retry-After backoff' } : {}) } };
  }
  const page = message.result;
  if (errorClass(`HTTP_${page.status}`) === 'retry' && url.attempts < maxRetries) {
    const waitMs = Math.min(maxDelayMs, retryAfterMs(page.retryAfter, nowMs) ?? backoffMs);
    return { url, message, retry: true, disposition: { fetchMs: page.fetchMs, nowMs, extraDelayMs: Math.max(waitMs, crawlDelayMs), extraDelayReason: 'Retry-After backoff' } };
  }
  return { url, message, retry: false, disposition: { fetchMs: page.fetchMs, nowMs, httpStatus: page.status, extraDelayMs: crawlDelayMs } };
}
