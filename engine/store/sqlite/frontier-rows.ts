/**
 * The frontier's rows in SQLite: the URL-seen test (insert on the unique normalized key) and each
 * URL's state changes. The write half of the frontier; the in-memory back queues that decide what
 * to claim are SqliteFrontier's (frontier.ts). Runs wherever the write connection lives: on the
 * scheduler's thread, or on the store-writer thread (writer-thread.ts).
 */
import type { Statement } from 'better-sqlite3';
import { URL_SOURCE_BITS } from '../../../shared/types/url-sources';
import { seenCache, seenEntry, seenEntryId, seenEntrySources } from '../../dedupe/seen-cache';
import type { ClaimedUrl, Disposition, FrontierCandidate, UrlError } from '../ports';
import type { WritableDB } from './database';

/** What inserting a batch of candidates did. */
export interface InsertResult {
  /** `ids[i]`: the URL id of `candidates[i]`, new or already known. */
  ids: number[];
  /** `entries[i]`: `candidates[i]`'s URL-seen entry after the insert (seen-cache.ts seenEntry: its id and source bits). */
  entries: number[];
  /** The host of each candidate that was new and pending (one entry per new URL, in candidate order). */
  addedHosts: string[];
  /** The index in `candidates` of each candidate that was new, pending or held, in candidate order. */
  added: number[];
  /** New candidates stored held (their `heldBy` trap is known), with their trap ids. */
  held: { id: number; trapId: number; url: string }[];
}

/** A URL's state before "Re-fetch now" queued it again; null when it is not in the crawl. */
export type RefetchRow = { previousState: 'pending' | 'in_flight' | 'done' | 'error' | 'blocked' | 'held'; host: string; queued: boolean } | null;

/** Writes a crawl's URL rows; callers group the calls in transactions. */
export class FrontierRows {
  private readonly insertUrl: Statement;
  private readonly insertHeldUrl: Statement;
  private readonly idByKey: Statement;
  private readonly addSources: Statement;
  private readonly markInFlight: Statement;
  private readonly markDone: Statement;
  private readonly markError: Statement;
  private readonly markBlocked: Statement;
  private readonly markPending: Statement;
  private readonly stateById: Statement;
  private readonly markRefetch: Statement;
  /** Normalized keys already in SQLite, with their ids and source bits (seenEntry; bounded: seen-cache.ts). */
  private readonly seen = seenCache();

  constructor(
    private readonly db: WritableDB,
    private readonly crawlId: number,
  ) {
    this.insertUrl = db.prepare(
      `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, redirect_hops, sources)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?) ON CONFLICT (crawl_id, normalized_key) DO NOTHING`,
    );
    this.insertHeldUrl = db.prepare(
      `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, redirect_hops, sources, trap_id)
       VALUES (?, ?, ?, ?, ?, ?, 'held', ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (crawl_id, normalized_key) DO NOTHING`,
    );
    this.idByKey = db.prepare(`SELECT id, sources FROM urls WHERE crawl_id = ? AND normalized_key = ?`);
    this.addSources = db.prepare(`UPDATE urls SET sources = sources | ? WHERE id = ?`);
    this.markInFlight = db.prepare(`UPDATE urls SET state = 'in_flight', attempts = attempts + 1, claimed_at_ms = ? WHERE id = ?`);
    this.markDone = db.prepare(`UPDATE urls SET state = 'done', fetched_at_ms = ?, http_status = ?, error_code = NULL, error_reason = NULL, committed_at_ms = ? WHERE id = ?`);
    this.markPending = db.prepare(`UPDATE urls SET state = 'pending', retry_reason = coalesce(?, retry_reason), committed_at_ms = ? WHERE id = ?`);
    this.markError = db.prepare(`UPDATE urls SET state = 'error', fetched_at_ms = ?, http_status = ?, error_code = ?, error_reason = ?, committed_at_ms = ? WHERE id = ?`);
    // fetched_at_ms stays null: a blocked URL was never requested.
    this.markBlocked = db.prepare(`UPDATE urls SET state = 'blocked', http_status = NULL, error_code = ?, error_reason = ?, robots_line = ?, committed_at_ms = ? WHERE id = ?`);
    this.stateById = db.prepare(`SELECT state, host FROM urls WHERE id = ? AND crawl_id = ?`);
    // Priority -1 puts it ahead of every discovered URL of its host (priorities are depths, 0 and up).
    this.markRefetch = db.prepare(`UPDATE urls SET state = 'pending', priority = -1, attempts = 0 WHERE id = ?`);
  }

  /** URLs a dead process left in flight go back to pending (a new run's first write). @returns how many */
  resetInFlight(): number {
    return this.db.prepare(`UPDATE urls SET state = 'pending' WHERE crawl_id = ? AND state = 'in_flight'`).run(this.crawlId).changes;
  }

  /**
   * The URL-seen test (IIR 20.2): each candidate is inserted unless its normalized key is known
   * (a bounded cache first, then the unique index). Priority is the depth (breadth-first). The
   * candidate's source bit (shared/types/url-sources.ts) is ORed into the URL's `sources`, new or
   * known; a known URL that has the bit already costs no write. A new candidate whose `heldBy`
   * names a trap `trapIdOf` knows is stored held under it (issue 12).
   */
  insert(candidates: readonly FrontierCandidate[], nowMs: number, trapIdOf?: (pattern: string) => number | undefined): InsertResult {
    const ids: number[] = [];
    const entries: number[] = [];
    const addedHosts: string[] = [];
    const added: number[] = [];
    const held: InsertResult['held'] = [];
    for (const c of candidates) {
      const bit = URL_SOURCE_BITS[c.source ?? (c.discoveredFrom === null ? 'seed' : 'link')];
      const known = this.seen.get(c.normalizedKey);
      if (known !== undefined) {
        const id = seenEntryId(known);
        const sources = seenEntrySources(known);
        if ((sources & bit) === 0) {
          this.addSources.run(bit, id);
          this.seen.set(c.normalizedKey, seenEntry(id, sources | bit));
        }
        ids.push(id);
        entries.push(seenEntry(id, sources | bit));
        continue;
      }
      const trapId = c.heldBy === undefined ? undefined : trapIdOf?.(c.heldBy);
      const info =
        trapId === undefined
          ? this.insertUrl.run(this.crawlId, c.normalizedKey, c.normalized, c.url, c.host, c.registrableDomain, c.depth, c.depth, c.discoveredFrom, nowMs, c.redirectHops ?? 0, bit)
          : this.insertHeldUrl.run(this.crawlId, c.normalizedKey, c.normalized, c.url, c.host, c.registrableDomain, c.depth, c.depth, c.discoveredFrom, nowMs, c.redirectHops ?? 0, bit, trapId);
      let id = Number(info.lastInsertRowid);
      let sources = bit;
      if (info.changes === 0) {
        const row = this.idByKey.get(this.crawlId, c.normalizedKey) as { id: number; sources: number };
        id = row.id;
        sources = row.sources | bit;
        if ((row.sources & bit) === 0) this.addSources.run(bit, id);
      }
      this.seen.set(c.normalizedKey, seenEntry(id, sources));
      ids.push(id);
      entries.push(seenEntry(id, sources));
      if (info.changes === 0) continue;
      added.push(ids.length - 1);
      if (trapId === undefined) addedHosts.push(c.host);
      else held.push({ id, trapId, url: c.url });
    }
    return { ids, entries, addedHosts, added, held };
  }

  /** Marks claimed URLs in flight (one more attempt each), claimed at `nowMs` (epoch ms). */
  claimed(ids: readonly number[], nowMs: number): void {
    for (const id of ids) this.markInFlight.run(nowMs, id);
  }

  /** A claimed URL is done. @param committedAtMs epoch ms the outcome is written */
  done(url: ClaimedUrl, disposition: Disposition, committedAtMs: number): void {
    this.markDone.run(disposition.nowMs, disposition.httpStatus ?? null, committedAtMs, url.id);
  }

  /** A claimed URL failed with `error`. @param committedAtMs epoch ms the outcome is written */
  failed(url: ClaimedUrl, error: UrlError, disposition: Disposition, committedAtMs: number): void {
    this.markError.run(disposition.nowMs, disposition.httpStatus ?? null, error.code, error.message, committedAtMs, url.id);
  }

  /** A claimed URL is blocked by robots.txt (never requested). @param committedAtMs epoch ms the outcome is written */
  blocked(url: ClaimedUrl, reason: UrlError, robotsLine: string | null, committedAtMs: number): void {
    this.markBlocked.run(reason.code, reason.message, robotsLine, committedAtMs, url.id);
  }

  /** A claimed URL goes back to pending; `reason` (the failed try's error) is kept as its retry reason. */
  requeued(url: ClaimedUrl, reason: UrlError | undefined, committedAtMs: number): void {
    this.markPending.run(reason ? `${reason.code}: ${reason.message}` : null, committedAtMs, url.id);
  }

  /** "Re-fetch now": a settled URL goes back to pending, first in its host's queue; pending or in-flight ones are left as they are. */
  refetch(urlId: number): RefetchRow {
    const row = this.stateById.get(urlId, this.crawlId) as { state: NonNullable<RefetchRow>['previousState']; host: string } | undefined;
    if (!row) return null;
    // A held URL waits for its trap's release: "Re-fetch now" does not bypass it.
    if (row.state === 'pending' || row.state === 'in_flight' || row.state === 'held') return { previousState: row.state, host: row.host, queued: false };
    this.markRefetch.run(urlId);
    return { previousState: row.state, host: row.host, queued: true };
  }
}
