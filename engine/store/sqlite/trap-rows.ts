/**
 * The crawl's trap rows in SQLite (migration 0019): suspected traps as the commit batch brings
 * them, the pending URLs a new trap holds, and a trap's state changes (release puts its URLs back
 * to pending). The write half; reads for reports are queries/trap-queries.ts. Runs on the write
 * connection (the scheduler's thread or the store-writer thread), inside the caller's transaction.
 */
import type { Statement } from 'better-sqlite3';
import { TRAP_EXAMPLES, type TrapState } from '../../../shared/types/traps';
import type { TrapSuspicion } from '../../traps/suspicion';
import type { HeldUrl, TrapStateChange } from '../ports';
import type { WritableDB } from './database';

/** The SQL function testing a URL against a trap pattern (registered per connection). */
const MATCH_FUNCTION = 'trap_pattern_matches';

/** Compiled patterns kept per connection (a crawl has few traps). */
const MAX_COMPILED = 1_000;

/** Registers {@link MATCH_FUNCTION} on `db` once: `trap_pattern_matches(pattern, url)` is 1 when the pattern matches. */
function registerMatch(db: WritableDB): void {
  const compiled = new Map<string, RegExp>();
  try {
    db.function(MATCH_FUNCTION, { deterministic: true }, (pattern: unknown, url: unknown) => {
      if (typeof pattern !== 'string' || typeof url !== 'string') return 0;
      let regex = compiled.get(pattern);
      if (regex === undefined) {
        if (compiled.size >= MAX_COMPILED) compiled.clear();
        regex = new RegExp(pattern);
        compiled.set(pattern, regex);
      }
      return regex.test(url) ? 1 : 0;
    });
  } catch (error) {
    // Registered already on this connection (a second TrapRows): the first one serves.
    if (!(error instanceof TypeError)) throw error;
  }
}

/**
 * Sets a trap's state on `db` outside a run (the crawl is not running in this process, and the
 * caller holds the crawl lease), in one transaction: `released` puts its held URLs back to pending,
 * where a resumed run finds them.
 * @returns the change, or null when crawl `crawlId` has no trap `trapId`
 */
export function changeTrapState(db: WritableDB, crawlId: number, trapId: number, state: TrapState, nowMs: number): TrapStateChange | null {
  return db.transaction(() => new TrapRows(db, crawlId).changeState(trapId, state, nowMs)).immediate();
}

/** Writes a crawl's traps and the URLs they hold; callers group the calls in transactions. */
export class TrapRows {
  private readonly insertTrap: Statement;
  private readonly trapByPattern: Statement;
  private readonly examplesOf: Statement;
  private readonly setExamples: Statement;
  private readonly holdPending_: Statement;
  private readonly trapById: Statement;
  private readonly setState: Statement;
  private readonly releaseHeld: Statement;
  /** Trap ids and states by pattern (a crawl has few traps: every one is kept). */
  private readonly known = new Map<string, { id: number; state: TrapState }>();
  /** Examples stored per trap id, once known (so a full list costs no read). */
  private readonly exampleCounts = new Map<number, number>();

  constructor(
    db: WritableDB,
    private readonly crawlId: number,
  ) {
    registerMatch(db);
    this.insertTrap = db.prepare(
      `INSERT INTO traps (crawl_id, host, pattern, template, detector, evidence_json, examples_json, detected_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (crawl_id, pattern) DO NOTHING`,
    );
    this.trapByPattern = db.prepare(`SELECT id, state FROM traps WHERE crawl_id = ? AND pattern = ?`);
    this.examplesOf = db.prepare(`SELECT examples_json FROM traps WHERE id = ?`).pluck();
    this.setExamples = db.prepare(`UPDATE traps SET examples_json = ? WHERE id = ?`);
    // The (crawl_id, host, state, …) index narrows it to the host's pending URLs.
    this.holdPending_ = db.prepare(`UPDATE urls SET state = 'held', trap_id = ? WHERE crawl_id = ? AND host = ? AND state = 'pending' AND ${MATCH_FUNCTION}(?, url) RETURNING id, host, url`);
    this.trapById = db.prepare(`SELECT id, host, pattern, state FROM traps WHERE id = ? AND crawl_id = ?`);
    this.setState = db.prepare(`UPDATE traps SET state = ?, updated_at_ms = ? WHERE id = ?`);
    this.releaseHeld = db.prepare(`UPDATE urls SET state = 'pending' WHERE trap_id = ? AND state = 'held'`);
  }

  /**
   * Stores traps found by the guard; a pattern already stored keeps its row.
   * @returns the traps that are new (hold their pending matches with {@link holdPending} once the batch's candidates are in)
   */
  record(traps: readonly TrapSuspicion[], nowMs: number): TrapSuspicion[] {
    const added: TrapSuspicion[] = [];
    for (const trap of traps) {
      const info = this.insertTrap.run(this.crawlId, trap.host, trap.pattern, trap.template, trap.detector, JSON.stringify(trap.evidence), JSON.stringify([trap.example]), nowMs, nowMs);
      if (info.changes === 0) continue;
      const id = Number(info.lastInsertRowid);
      this.known.set(trap.pattern, { id, state: 'suspected' });
      this.exampleCounts.set(id, 1);
      added.push(trap);
    }
    return added;
  }

  /** Holds every pending URL each trap's pattern matches on its host. @returns the URLs taken from pending to held */
  holdPending(traps: readonly TrapSuspicion[]): HeldUrl[] {
    const held: HeldUrl[] = [];
    for (const trap of traps) {
      const id = this.idOf(trap.pattern);
      if (id === undefined) continue;
      for (const row of this.holdPending_.all(id, this.crawlId, trap.host, trap.pattern) as (HeldUrl & { url: string })[]) {
        held.push({ id: row.id, host: row.host });
        this.addExample(id, row.url);
      }
    }
    return held;
  }

  /** The id of the crawl's trap with `pattern`, or undefined when none is stored. */
  idOf(pattern: string): number | undefined {
    return this.trapOf(pattern)?.id;
  }

  /**
   * The id of the trap with `pattern` when it holds new URLs (suspected or excluded); undefined
   * when none is stored or it was released (a candidate screened before the release reached this
   * writer is stored pending, not held under a released trap).
   */
  holdingIdOf(pattern: string): number | undefined {
    const trap = this.trapOf(pattern);
    return trap === undefined || trap.state === 'released' ? undefined : trap.id;
  }

  private trapOf(pattern: string): { id: number; state: TrapState } | undefined {
    let trap = this.known.get(pattern);
    if (trap === undefined) {
      trap = this.trapByPattern.get(this.crawlId, pattern) as { id: number; state: TrapState } | undefined;
      if (trap !== undefined) this.known.set(pattern, trap);
    }
    return trap;
  }

  /** Adds `url` to the trap's examples while it has fewer than TRAP_EXAMPLES. */
  addExample(trapId: number, url: string): void {
    if ((this.exampleCounts.get(trapId) ?? 0) >= TRAP_EXAMPLES) return;
    const examples = JSON.parse(this.examplesOf.get(trapId) as string) as string[];
    if (examples.length < TRAP_EXAMPLES && !examples.includes(url)) {
      examples.push(url);
      this.setExamples.run(JSON.stringify(examples), trapId);
    }
    this.exampleCounts.set(trapId, examples.length);
  }

  /**
   * Sets trap `trapId`'s state; `released` puts its held URLs back to pending.
   * @returns the change, or null when the crawl has no such trap
   */
  changeState(trapId: number, state: TrapState, nowMs: number): TrapStateChange | null {
    const trap = this.trapById.get(trapId, this.crawlId) as { id: number; host: string; pattern: string; state: TrapState } | undefined;
    if (trap === undefined) return null;
    this.setState.run(state, nowMs, trapId);
    this.known.set(trap.pattern, { id: trap.id, state });
    const released = state === 'released' ? this.releaseHeld.run(trapId).changes : 0;
    return { pattern: trap.pattern, host: trap.host, released };
  }
}
