/** The politeness delay (IIR 20.2.3, Heritrix): the one formula for how long a host waits after a fetch. */
import type { CrawlSettings } from '../../shared/types/crawl';

/**
 * The three knobs of the politeness delay, in the settings' own names and units (milliseconds,
 * and a plain factor k); a {@link CrawlSettings} or the frontier's PolitenessPolicy fits as is.
 */
export type PolitenessDelays = Pick<CrawlSettings, 'minDelayMs' | 'maxDelayMs' | 'delayFactor'>;

/**
 * The adaptive part of the politeness delay: max(minDelayMs, k × the last fetch's duration).
 * Without a server's own request (Crawl-delay, Retry-After) this is how long a host waits.
 * @param lastFetchMs how long the host's last fetch took, ms (≥ 0)
 * @returns ms, not capped (see {@link politenessDelayMs})
 * @example adaptiveDelayMs({ minDelayMs: 100, maxDelayMs: 2_000, delayFactor: 5 }, 50) // 250
 */
export function adaptiveDelayMs(policy: PolitenessDelays, lastFetchMs: number): number {
  return Math.max(policy.minDelayMs, policy.delayFactor * lastFetchMs);
}

/**
 * The politeness delay: how long a host waits after a fetch before its next one, the one formula
 * of the frontier, the crawl runner and the worker's robots.txt redirect hops.
 * `min(maxDelayMs, max(minDelayMs, k × lastFetchMs, extraDelayMs))` (IIR 20.2.3: a gap several
 * times the last fetch; Heritrix's delayFactor/minDelayMs/maxDelayMs, k = 5 by default).
 * @param lastFetchMs the host's last fetch duration, ms (≥ 0)
 * @param extraDelayMs a wait the server asked for (robots Crawl-delay, Retry-After), ms; capped too. @default 0
 * @returns the delay in ms, never above `maxDelayMs` (nor below `minDelayMs` unless maxDelayMs is lower)
 * @example politenessDelayMs({ minDelayMs: 100, maxDelayMs: 2_000, delayFactor: 5 }, 50) // 250
 * @example politenessDelayMs({ minDelayMs: 100, maxDelayMs: 2_000, delayFactor: 5 }, 10, 99_999) // 2_000
 */
export function politenessDelayMs(policy: PolitenessDelays, lastFetchMs: number, extraDelayMs = 0): number {
  return Math.min(policy.maxDelayMs, Math.max(adaptiveDelayMs(policy, lastFetchMs), extraDelayMs));
}
