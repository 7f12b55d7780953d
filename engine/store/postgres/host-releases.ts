/**
 * Host releases of a PostgreSQL frontier (issue 13): a fetch that is over gives its host's request
 * slot back and starts the host's politeness delay, crawl-wide (`hosts.in_flight`,
 * `hosts.next_eligible_at_ms`). FrontierStore.releaseHost is synchronous, so releases are queued
 * here and written in one statement per flush: soon after (setImmediate), and at the start of the
 * next claim or commit transaction, so a claim never sees a slot this process already freed as busy.
 */
import type pg from 'pg';
import { adaptiveDelayMs, politenessDelayMs } from '../../schedule/politeness';
import type { Disposition, HostWaitReason, PolitenessPolicy } from '../ports';

/** One host release: a claimed URL's slot (`urlId`) or a sitemap's slot (`slotId`: `host_slots.id`), and when its host may be fetched again. */
export interface HostRelease {
  /** The claimed URL whose slot is given back; null for a sitemap slot. */
  urlId: number | null;
  /** The `host_slots` row given back; null for a URL's slot. */
  slotId: number | null;
  host: string;
  /** Epoch ms the host may next be fetched from (the disposition's end + the politeness delay), a whole ms rounded up. */
  eligibleAtMs: number;
  /** Why the host waits until then, as the Frontier view shows it. */
  reason: HostWaitReason;
}

/**
 * The release of `host` after a fetch that ended as `disposition` says: eligible again at
 * `nowMs + politenessDelayMs` (schedule/politeness.ts, the one formula), waiting for the server's
 * own request (Crawl-delay, Retry-After) when that is longer than the adaptive delay.
 */
export function hostRelease(policy: PolitenessPolicy, host: string, disposition: Disposition, ids: { urlId: number | null; slotId: number | null }): HostRelease {
  // Whole ms for the bigint column, rounded up: never before the formula's time.
  const eligibleAtMs = Math.ceil(disposition.nowMs + politenessDelayMs(policy, disposition.fetchMs, disposition.extraDelayMs ?? 0));
  const reason: HostWaitReason = (disposition.extraDelayMs ?? 0) > adaptiveDelayMs(policy, disposition.fetchMs) ? (disposition.extraDelayReason ?? 'robots Crawl-delay') : 'politeness delay';
  return { ...ids, host, eligibleAtMs, reason };
}

/**
 * Writes releases in one statement: each URL whose slot is still held (`urls.slot_held`, migration
 * 0003) and each sitemap slot still in `host_slots` takes one off its host's `in_flight` (so a
 * release sent twice counts once), and each host's `next_eligible_at_ms` moves to the latest
 * eligibility among its releases if that is later (a wait already longer is kept), with its reason.
 * Hosts are updated in host order, as every multi-host statement of the store, against deadlocks.
 * $1 crawl id, $2 URL ids, $3 slot ids, $4 hosts, $5 eligible-at epoch ms, $6 reasons.
 */
const RELEASE_SQL = `
WITH input AS (
  SELECT * FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::text[]) AS t(url_id, slot_id, host, eligible_at, reason)
), freed_urls AS (
  UPDATE urls u SET slot_held = false
  WHERE u.crawl_id = $1 AND u.id IN (SELECT url_id FROM input WHERE url_id IS NOT NULL) AND u.slot_held
  RETURNING u.id
), freed_slots AS (
  DELETE FROM host_slots s WHERE s.crawl_id = $1 AND s.id IN (SELECT slot_id FROM input WHERE slot_id IS NOT NULL)
  RETURNING s.id
), per_host AS (
  SELECT i.host, count(DISTINCT fu.id) + count(DISTINCT fs.id) AS freed, max(i.eligible_at) AS eligible_at,
         (array_agg(i.reason ORDER BY i.eligible_at DESC))[1] AS reason
  FROM input i LEFT JOIN freed_urls fu ON fu.id = i.url_id LEFT JOIN freed_slots fs ON fs.id = i.slot_id
  GROUP BY i.host ORDER BY i.host
)
UPDATE hosts h SET in_flight = h.in_flight - p.freed,
  wait_reason = CASE WHEN p.eligible_at > h.next_eligible_at_ms THEN p.reason ELSE h.wait_reason END,
  next_eligible_at_ms = greatest(h.next_eligible_at_ms, p.eligible_at)
FROM per_host p WHERE h.crawl_id = $1 AND h.host = p.host`;

/** Writes `releases` of crawl `crawlId` on `client` (inside the caller's transaction), or on a pool (alone: one statement is atomic). */
export async function writeHostReleases(client: pg.ClientBase | pg.Pool, crawlId: number, releases: readonly HostRelease[]): Promise<void> {
  if (releases.length === 0) return;
  await client.query(RELEASE_SQL, [
    crawlId,
    releases.map((r) => r.urlId),
    releases.map((r) => r.slotId),
    releases.map((r) => r.host),
    releases.map((r) => r.eligibleAtMs),
    releases.map((r) => r.reason),
  ]);
}

/**
 * The releases this process has queued and not yet written. {@link take} hands them to a
 * transaction; when it fails they are {@link putBack} (a rolled-back release did not happen).
 */
export class HostReleaseQueue {
  private queued: HostRelease[] = [];
  /** Claimed URL ids released since their claim: a second releaseHost of one claim is a no-op. */
  private readonly released = new Set<number>();

  /** Queues `release`. @returns false when the URL's slot was released already (idempotent per claim) */
  add(release: HostRelease): boolean {
    if (release.urlId !== null) {
      if (this.released.has(release.urlId)) return false;
      this.released.add(release.urlId);
    }
    this.queued.push(release);
    return true;
  }

  /** The claims of these URLs are over (their outcomes are committed): a new claim of one may be released again. */
  forget(urlIds: readonly number[]): void {
    for (const id of urlIds) this.released.delete(id);
  }

  /** Every queued release, leaving the queue empty. */
  take(): HostRelease[] {
    const taken = this.queued;
    this.queued = [];
    return taken;
  }

  /** Releases a failed transaction did not write: queued again, ahead of newer ones. */
  putBack(releases: readonly HostRelease[]): void {
    if (releases.length > 0) this.queued = [...releases, ...this.queued];
  }

  get size(): number {
    return this.queued.length;
  }
}
