/**
 * The crawl's trap rows in PostgreSQL (issue 13), as store/sqlite/trap-rows.ts writes them in
 * SQLite: suspected traps as the commit batch brings them, the pending URLs a new trap holds, its
 * examples, and a trap's state changes (release puts its URLs back to pending). Runs inside the
 * caller's transaction (READ COMMITTED) on its client. `url_counts` follows the state changes by
 * its triggers, and the `hosts` rows keep no pending count, so moving URLs between pending and
 * held needs no other bookkeeping.
 */
import type { Pool, PoolClient } from 'pg';
import { TRAP_EXAMPLES, type TrapState } from '../../../shared/types/traps';
import type { TrapSuspicion } from '../../traps/suspicion';
import type { HeldUrl, TrapStateChange } from '../ports';
import { inTransaction, type PostgresStore } from './pool';

/** The largest bounded repeat (`{n}`, `{n,m}`) PostgreSQL's regular expressions accept (RE_DUP_MAX). */
const POSTGRES_MAX_REPEAT = 255;

/** Compiled patterns kept for the patterns PostgreSQL cannot run (a crawl has few traps). */
const MAX_COMPILED = 1_000;

/**
 * True when PostgreSQL's `~` (its advanced regular expressions) reads `pattern`, a JavaScript
 * RegExp source without flags, as JavaScript does on a stored URL (ASCII: WHATWG serialized): it is
 * built only of what the trap detectors write (engine/traps/url-shape.ts): literals, escaped
 * punctuation, `\d`, bracket expressions without escapes or ranges, `(?:…)` and plain groups,
 * alternation, anchors, and repeats bounded by at most 255. Anything else (a longer bound, a
 * lookaround, a class escape) is tested in JavaScript instead.
 * @example runsInPostgres('^https?://a\\.test(?::\\d+)?/calendar/\\d+/\\d+$') // true
 * @example runsInPostgres('^https?://a\\.test(?::\\d+)?/(?:a/){300}') // false (a path-depth trap 300 levels deep)
 */
export function runsInPostgres(pattern: string): boolean {
  for (let i = 0; i < pattern.length; ) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || !(next === 'd' || /[\\^$.*+?()[\]{}|/-]/.test(next))) return false;
      i += 2;
    } else if (char === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      const start = j;
      if (pattern[j] === ']') return false;
      for (; j < pattern.length && pattern[j] !== ']'; j += 1) {
        const member = pattern[j];
        if (member === '\\' || member === '[' || (member === '-' && j !== start && pattern[j + 1] !== ']')) return false;
      }
      if (j >= pattern.length) return false;
      i = j + 1;
    } else if (char === '(') {
      if (pattern.startsWith('(?:', i)) i += 3;
      else if (pattern[i + 1] === '?') return false;
      else i += 1;
    } else if (char === '{') {
      const repeat = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i));
      if (!repeat || Number(repeat[1]) > POSTGRES_MAX_REPEAT || (repeat[2] !== undefined && repeat[2] !== '' && Number(repeat[2]) > POSTGRES_MAX_REPEAT)) return false;
      i += repeat[0].length;
    } else i += 1;
  }
  return true;
}

/** A trap of the batch to hold pending URLs with, in batch order. */
interface HoldingTrap {
  id: number;
  host: string;
  pattern: string;
}

/**
 * Sets a trap's state outside a run (no crawler process of this one runs it, or the caller holds
 * the crawl's lease), in one transaction: `released` puts its held URLs back to pending, where a
 * running or resumed crawler claims them (the frontier's host rows need no wake: eligibility is a time).
 * @returns the change, or null when crawl `crawlId` has no trap `trapId`
 * @throws a storage error in plain words (pool.ts postgresError)
 */
export async function changeTrapState(store: PostgresStore, crawlId: number, trapId: number, state: TrapState, nowMs: number): Promise<TrapStateChange | null> {
  return inTransaction(store, (client) => new PostgresTrapRows(crawlId).changeState(client, trapId, state, nowMs));
}

/** The crawl's stored traps (host, pattern, state) in the order found, for a resumed run's trap guard (CrawlWriter.knownTraps). */
export async function storedTraps(db: Pool | PoolClient, crawlId: number): Promise<{ host: string; pattern: string; state: TrapState }[]> {
  const { rows } = await db.query<{ host: string; pattern: string; state: TrapState }>(`SELECT host, pattern, state FROM traps WHERE crawl_id = $1 ORDER BY id`, [crawlId]);
  return rows;
}

/**
 * Writes one crawl's traps and the URLs they hold, inside the caller's transactions. Trap ids and
 * states are kept by pattern (a crawl has few traps) so that {@link holdingIdOf} answers without a
 * round trip; since other processes change traps too, a writer calls {@link load} with the batch's
 * `heldBy` patterns before storing its candidates: that reads their rows and locks them (FOR KEY
 * SHARE) until the commit, so a release in another transaction ({@link changeState}, which locks the
 * row FOR UPDATE) comes wholly before or after the batch, and never leaves a URL held under a
 * released trap.
 */
export class PostgresTrapRows {
  /** Trap ids and states by pattern, as last read or written by this process. */
  private readonly known = new Map<string, { id: number; state: TrapState }>();
  /** Examples stored per trap id, once known (a full list costs no statement). */
  private readonly exampleCounts = new Map<number, number>();
  /** Compiled patterns for the JavaScript test ({@link runsInPostgres} false). */
  private readonly compiled = new Map<string, RegExp>();

  constructor(private readonly crawlId: number) {}

  /**
   * Reads the rows of the crawl's traps with `patterns` (every trap of the crawl when absent) into
   * the cache {@link holdingIdOf} answers from, locking them FOR KEY SHARE until the transaction
   * ends (a state change waits for it). One statement; none when `patterns` is empty.
   */
  async load(client: PoolClient, patterns?: readonly string[]): Promise<void> {
    if (patterns !== undefined && patterns.length === 0) return;
    const { rows } = await client.query<{ id: number; pattern: string; state: TrapState }>(
      `SELECT id, pattern, state FROM traps WHERE crawl_id = $1 AND ($2::text[] IS NULL OR pattern = ANY($2::text[])) ORDER BY id FOR KEY SHARE`,
      [this.crawlId, patterns === undefined ? null : [...new Set(patterns)]],
    );
    for (const row of rows) this.known.set(row.pattern, { id: row.id, state: row.state });
  }

  /**
   * Stores traps found by the guard, in one statement; a pattern already stored (by this process
   * or another) keeps its row, and its id and state are cached too.
   * @param nowMs epoch ms (detected and updated time)
   * @returns the traps that are new, in batch order (hold their pending matches with {@link holdPending} once the batch's candidates are in)
   */
  async record(client: PoolClient, traps: readonly TrapSuspicion[], nowMs: number): Promise<TrapSuspicion[]> {
    const patterns = new Set<string>();
    // A pattern twice in the batch: the first stands (as SQLite's insert, which skips the second).
    const firsts = traps.filter((trap) => !patterns.has(trap.pattern) && patterns.add(trap.pattern));
    if (firsts.length === 0) return [];
    const { rows } = await client.query<{ id: number; pattern: string; state: TrapState; added: boolean }>(
      `WITH input AS (
         SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS t(host, pattern, template, detector, evidence_json, examples_json, ord)
       ), added AS (
         INSERT INTO traps (crawl_id, host, pattern, template, detector, evidence_json, examples_json, detected_at_ms, updated_at_ms)
         SELECT $1, host, pattern, template, detector, evidence_json, examples_json, $8, $8 FROM input ORDER BY ord
         ON CONFLICT (crawl_id, pattern) DO NOTHING
         RETURNING id, pattern, state
       )
       SELECT id, pattern, state, true AS added FROM added
       UNION ALL
       SELECT t.id, t.pattern, t.state, false FROM traps t JOIN input i ON t.pattern = i.pattern
       WHERE t.crawl_id = $1 AND t.pattern NOT IN (SELECT pattern FROM added)`,
      [
        this.crawlId,
        firsts.map((trap) => trap.host),
        firsts.map((trap) => trap.pattern),
        firsts.map((trap) => trap.template),
        firsts.map((trap) => trap.detector),
        firsts.map((trap) => JSON.stringify(trap.evidence)),
        firsts.map((trap) => JSON.stringify([trap.example])),
        nowMs,
      ],
    );
    const added = new Set<string>();
    for (const row of rows) {
      this.known.set(row.pattern, { id: row.id, state: row.state });
      if (!row.added) continue;
      added.add(row.pattern);
      this.exampleCounts.set(row.id, 1);
    }
    // A pattern another transaction committed after this statement began: neither inserted nor seen.
    const missing = firsts.filter((trap) => !this.known.has(trap.pattern)).map((trap) => trap.pattern);
    if (missing.length > 0) await this.load(client, missing);
    return firsts.filter((trap) => added.has(trap.pattern));
  }

  /**
   * Holds every pending URL of the crawl on each trap's host that its pattern matches (a URL two
   * traps match goes to the first), and adds the first ones met to the traps' examples: one
   * statement when PostgreSQL can run every pattern ({@link runsInPostgres}), else the hosts'
   * pending URLs are read and tested in JavaScript; one more for the examples. A URL claimed
   * meanwhile by another process is left to it.
   * @returns the URLs taken from pending to held, by trap then in the hosts' queue order
   */
  async holdPending(client: PoolClient, traps: readonly TrapSuspicion[]): Promise<HeldUrl[]> {
    const holding: HoldingTrap[] = [];
    for (const trap of traps) {
      const id = this.idOf(trap.pattern);
      if (id !== undefined && !holding.some((other) => other.id === id)) holding.push({ id, host: trap.host, pattern: trap.pattern });
    }
    if (holding.length === 0) return [];
    const rows = holding.every((trap) => runsInPostgres(trap.pattern)) ? await this.holdInPostgres(client, holding) : await this.holdInJavaScript(client, holding);
    const order = new Map(holding.map((trap, index) => [trap.id, index]));
    rows.sort((a, b) => order.get(a.trap_id)! - order.get(b.trap_id)! || a.priority - b.priority || a.id - b.id);
    await this.addExamples(client, rows.map((row) => ({ trapId: row.trap_id, url: row.url })));
    return rows.map((row) => ({ id: row.id, host: row.host }));
  }

  private async holdInPostgres(client: PoolClient, traps: readonly HoldingTrap[]): Promise<HeldRow[]> {
    const { rows } = await client.query<HeldRow>(
      `WITH t AS (
         SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS t(id, host, pattern, ord)
       ), matched AS (
         SELECT DISTINCT ON (u.id) u.id AS url_id, t.id AS trap_id
         FROM t JOIN urls u ON u.crawl_id = $1 AND u.host = t.host AND u.state = 'pending' AND u.url ~ t.pattern
         ORDER BY u.id, t.ord
       )
       UPDATE urls u SET state = 'held', trap_id = m.trap_id FROM matched m
       WHERE u.id = m.url_id AND u.state = 'pending'
       RETURNING u.id, u.host, u.url, u.priority, m.trap_id`,
      [this.crawlId, traps.map((trap) => trap.id), traps.map((trap) => trap.host), traps.map((trap) => trap.pattern)],
    );
    return rows;
  }

  private async holdInJavaScript(client: PoolClient, traps: readonly HoldingTrap[]): Promise<HeldRow[]> {
    const { rows: pending } = await client.query<{ id: number; host: string; url: string }>(`SELECT id, host, url FROM urls WHERE crawl_id = $1 AND host = ANY($2::text[]) AND state = 'pending'`, [
      this.crawlId,
      [...new Set(traps.map((trap) => trap.host))],
    ]);
    const urlIds: number[] = [];
    const trapIds: number[] = [];
    for (const url of pending) {
      const trap = traps.find((candidate) => candidate.host === url.host && this.regex(candidate.pattern).test(url.url));
      if (trap === undefined) continue;
      urlIds.push(url.id);
      trapIds.push(trap.id);
    }
    if (urlIds.length === 0) return [];
    const { rows } = await client.query<HeldRow>(
      `UPDATE urls u SET state = 'held', trap_id = m.trap_id FROM unnest($2::bigint[], $3::bigint[]) AS m(url_id, trap_id)
       WHERE u.id = m.url_id AND u.crawl_id = $1 AND u.state = 'pending'
       RETURNING u.id, u.host, u.url, u.priority, m.trap_id`,
      [this.crawlId, urlIds, trapIds],
    );
    return rows;
  }

  private regex(pattern: string): RegExp {
    let regex = this.compiled.get(pattern);
    if (regex === undefined) {
      if (this.compiled.size >= MAX_COMPILED) this.compiled.clear();
      regex = new RegExp(pattern);
      this.compiled.set(pattern, regex);
    }
    return regex;
  }

  /** The id of the crawl's trap with `pattern`, or undefined when this process has not read or written it. */
  idOf(pattern: string): number | undefined {
    return this.known.get(pattern)?.id;
  }

  /**
   * The id of the trap with `pattern` when it holds new URLs (suspected or excluded); undefined
   * when not known to this process ({@link load} it first) or released (a candidate screened
   * before the release reached this process is stored pending, not held under a released trap).
   */
  holdingIdOf(pattern: string): number | undefined {
    const trap = this.known.get(pattern);
    return trap === undefined || trap.state === 'released' ? undefined : trap.id;
  }

  /** Adds `url` to the trap's examples while it has fewer than TRAP_EXAMPLES ({@link addExamples} of one). */
  async addExample(client: PoolClient, trapId: number, url: string): Promise<void> {
    await this.addExamples(client, [{ trapId, url }]);
  }

  /**
   * Adds each URL to its trap's examples, in order, while the trap has fewer than TRAP_EXAMPLES
   * and the URL is not among them: one statement for the batch (none when every trap named is
   * known full). The lists are merged in the UPDATE itself, so two processes adding examples to one
   * trap at once both count.
   */
  async addExamples(client: PoolClient, examples: readonly { trapId: number; url: string }[]): Promise<void> {
    const wanted = examples.filter((example) => (this.exampleCounts.get(example.trapId) ?? 0) < TRAP_EXAMPLES);
    if (wanted.length === 0) return;
    const { rows } = await client.query<{ id: number; examples: number }>(
      `UPDATE traps t SET examples_json = (
         SELECT '[' || string_agg(to_json(kept.url)::text, ',' ORDER BY kept.at) || ']' FROM (
           SELECT url, min(at) AS at FROM (
             SELECT old.url, old.at FROM json_array_elements_text(t.examples_json::json) WITH ORDINALITY AS old(url, at)
             UNION ALL
             SELECT n.url, ${TRAP_EXAMPLES} + n.at FROM unnest($2::bigint[], $3::text[]) WITH ORDINALITY AS n(trap_id, url, at) WHERE n.trap_id = t.id
           ) AS listed GROUP BY url ORDER BY at LIMIT ${TRAP_EXAMPLES}
         ) AS kept
       )
       WHERE t.crawl_id = $1 AND t.id = ANY($2::bigint[]) AND json_array_length(t.examples_json::json) < ${TRAP_EXAMPLES}
       RETURNING t.id, json_array_length(t.examples_json::json) AS examples`,
      [this.crawlId, wanted.map((example) => example.trapId), wanted.map((example) => example.url)],
    );
    // A trap not updated was full already (or is not the crawl's): nothing more to add to it.
    for (const example of wanted) this.exampleCounts.set(example.trapId, TRAP_EXAMPLES);
    for (const row of rows) this.exampleCounts.set(row.id, row.examples);
  }

  /**
   * Sets trap `trapId`'s state (its updated time `nowMs`, epoch ms); `released` puts its held URLs
   * back to pending. Two statements: the trap row locked FOR UPDATE (it waits for the batches that
   * loaded it), then the change, whose fresh snapshot sees every URL those batches held.
   * @returns the change, or null when the crawl has no such trap
   */
  async changeState(client: PoolClient, trapId: number, state: TrapState, nowMs: number): Promise<TrapStateChange | null> {
    const { rows } = await client.query<{ host: string; pattern: string }>(`SELECT host, pattern FROM traps WHERE id = $1 AND crawl_id = $2 FOR UPDATE`, [trapId, this.crawlId]);
    const trap = rows[0];
    if (trap === undefined) return null;
    const { rows: changed } = await client.query<{ released: number }>(
      `WITH changed AS (
         UPDATE traps SET state = $2, updated_at_ms = $3 WHERE id = $1
       ), released AS (
         UPDATE urls SET state = 'pending' WHERE $2 = 'released' AND trap_id = $1 AND state = 'held' RETURNING 1
       )
       SELECT count(*) AS released FROM released`,
      [trapId, state, nowMs],
    );
    this.known.set(trap.pattern, { id: trapId, state });
    return { pattern: trap.pattern, host: trap.host, released: Number(changed[0]!.released) };
  }
}

/** A URL a trap took from pending to held, with its queue order and the trap. */
interface HeldRow {
  id: number;
  host: string;
  url: string;
  priority: number;
  trap_id: number;
}
