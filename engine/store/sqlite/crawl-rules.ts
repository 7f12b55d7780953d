/**
 * Rules promoted into a crawl's normalization (issue 12 part 6, B2) and the re-key of its frontier
 * (migration 0020). Accepting a rule re-keys every URL row of the rule's host under the crawl's
 * identity with the rule added: URLs that now share a normalized key merge (one kept, the queued
 * others removed and recorded as aliases of it, their inlinks repointed), so each merged URL is a
 * fetch saved; fetched URLs that now share a key are counted, not merged (both have pages). Every
 * change is logged so {@link CrawlRuleStore.undo} restores the rows exactly. The crawl must not be
 * running: its in-memory frontier and link-identity cache are built afresh on resume.
 */
import type { ReadableDB, WritableDB } from './database';
import { CodedError, type Result } from '../../../shared/types/result';
import { describeDustRule, validateDustRule, type DustRule } from '../../../shared/url/dust/rule';
import type { AcceptedRule, RekeyOutcome, RuleSource, RuleUndoOutcome } from '../../../shared/types/dust-rules';

export type { AcceptedRule, RekeyOutcome, RuleSource, RuleUndoOutcome } from '../../../shared/types/dust-rules';

/** The crawl's URL identity with the new rule: raw URL → normalized string and key. */
export type RekeyIdentity = (url: string) => Result<{ normalized: string; key: string }>;

interface UrlRow {
  id: number;
  url: string;
  normalized: string;
  key: string;
  state: string;
  depth: number;
  priority: number;
}

interface RekeyChange {
  oldKey: string;
  oldNormalized: string;
  oldDepth: number;
  oldPriority: number;
}

interface MergeChange {
  into: number;
  row: Record<string, unknown>;
  aliases: { raw_url: string; first_seen_from: number | null; fragment_spellings: number }[];
  /** Alias rows the merge added to the URL kept (removed again by an undo). */
  aliasesAdded: string[];
  links: number[];
  /** Inlinks moved to the URL kept, and whether its link_counts row was created for them. */
  inlinks: number;
  outlinks: number;
  countsRowCreated: boolean;
  hadCountsRow: boolean;
  discovered: number[];
}

const QUEUED = new Set(['pending', 'in_flight']);

/**
 * Every rule accepted into a crawl, oldest first (undone ones too: the history), through any handle.
 * @throws CodedError INVALID_DUST_RULE when a stored rule no longer validates
 */
export function readAcceptedRules(db: ReadableDB, crawlId: number): AcceptedRule[] {
  const rows = db
    .prepare(
      `SELECT id, crawl_id AS crawlId, source, rule_json AS ruleJson, description, accepted_at_ms AS acceptedAtMs, undone_at_ms AS undoneAtMs,
              rekeyed, merged, fetched_duplicates AS fetchedDuplicates
       FROM crawl_rules WHERE crawl_id = ? ORDER BY id`,
    )
    .all(crawlId) as (Omit<AcceptedRule, 'rule'> & { ruleJson: string })[];
  return rows.map(({ ruleJson, ...row }) => {
    const rule = validateDustRule(JSON.parse(ruleJson));
    if (!rule.ok) throw new CodedError('INVALID_DUST_RULE', `Stored rule ${row.id} of crawl ${crawlId}: ${rule.error.message}`);
    return { ...row, rule: rule.value };
  });
}

/** The rules in force for a crawl, in acceptance order: what its URL identity applies before the profile. */
export function readActiveRules(db: ReadableDB, crawlId: number): DustRule[] {
  return readAcceptedRules(db, crawlId)
    .filter((rule) => rule.undoneAtMs === null)
    .map((rule) => rule.rule);
}

/** Rules accepted into crawls, the re-key they cause, and its undo. */
export class CrawlRuleStore {
  constructor(private readonly db: WritableDB) {}

  /** Every rule accepted into a crawl, oldest first (undone ones too: the history). */
  list(crawlId: number): AcceptedRule[] {
    return readAcceptedRules(this.db, crawlId);
  }

  /** The rules in force for a crawl, in acceptance order (what its URL identity applies). */
  activeRules(crawlId: number): DustRule[] {
    return readActiveRules(this.db, crawlId);
  }

  /**
   * Accepts `rule` into the crawl and re-keys the URL rows of its host with `identity` (the crawl's
   * identity with every active rule and this one), in one transaction.
   * @throws CodedError INVALID_DUST_RULE, DUST_RULE_EXISTS (the rule is already in force)
   */
  accept(crawlId: number, source: RuleSource, rule: DustRule, identity: RekeyIdentity, nowMs: number): RekeyOutcome {
    const valid = validateDustRule(rule);
    if (!valid.ok) throw new CodedError(valid.error.code, valid.error.message);
    const json = JSON.stringify(valid.value);
    return this.db.transaction(() => {
      const existing = this.db.prepare(`SELECT id FROM crawl_rules WHERE crawl_id = ? AND rule_json = ? AND undone_at_ms IS NULL`).pluck().get(crawlId, json) as number | undefined;
      if (existing !== undefined) throw new CodedError('DUST_RULE_EXISTS', `Crawl ${crawlId} already applies this rule (accepted as rule ${existing}): nothing to do`);
      const ruleId = Number(
        this.db
          .prepare(`INSERT INTO crawl_rules (crawl_id, source, rule_json, description, accepted_at_ms) VALUES (?, ?, ?, ?, ?)`)
          .run(crawlId, source, json, describeDustRule(valid.value), nowMs).lastInsertRowid,
      );
      const outcome = this.rekey(crawlId, ruleId, valid.value.host, identity);
      this.db.prepare(`UPDATE crawl_rules SET rekeyed = ?, merged = ?, fetched_duplicates = ? WHERE id = ?`).run(outcome.rekeyed, outcome.merged, outcome.fetchedDuplicates, ruleId);
      return outcome;
    })();
  }

  /**
   * Takes back the newest rule in force: every URL merged comes back with its aliases and links,
   * every key changed gets its old value. Rules are undone newest first.
   * @returns how many URLs came back and how many keys were restored
   * @throws CodedError DUST_RULE_NOT_FOUND, DUST_UNDO_ORDER (a newer rule is in force), DUST_UNDO_CONFLICT
   */
  undo(crawlId: number, ruleId: number, nowMs: number): RuleUndoOutcome {
    return this.db.transaction(() => {
      const active = this.db.prepare(`SELECT id FROM crawl_rules WHERE crawl_id = ? AND undone_at_ms IS NULL ORDER BY id DESC`).pluck().all(crawlId) as number[];
      if (!active.includes(ruleId)) throw new CodedError('DUST_RULE_NOT_FOUND', `Crawl ${crawlId} has no rule ${ruleId} in force (list them with crawlbench dust --db FILE --rules)`);
      if (active[0] !== ruleId) throw new CodedError('DUST_UNDO_ORDER', `Rule ${active[0]!} was accepted after rule ${ruleId}: undo it first`);
      const changes = this.db.prepare(`SELECT kind, url_id AS urlId, data_json AS dataJson FROM crawl_rule_changes WHERE rule_id = ? ORDER BY seq DESC`).all(ruleId) as {
        kind: 'rekey' | 'merge';
        urlId: number;
        dataJson: string;
      }[];
      let restored = 0;
      let rekeyed = 0;
      try {
        for (const change of changes) {
          if (change.kind === 'rekey') {
            this.undoRekey(change.urlId, JSON.parse(change.dataJson) as RekeyChange);
            rekeyed++;
          } else {
            this.undoMerge(crawlId, change.urlId, JSON.parse(change.dataJson) as MergeChange);
            restored++;
          }
        }
      } catch (error) {
        if (error instanceof Error && /UNIQUE/.test(error.message)) {
          throw new CodedError('DUST_UNDO_CONFLICT', `Rule ${ruleId} cannot be undone: a URL of the crawl now holds a key it would give back (${error.message})`);
        }
        throw error;
      }
      this.db.prepare(`UPDATE crawl_rules SET undone_at_ms = ? WHERE id = ?`).run(nowMs, ruleId);
      return { restored, rekeyed };
    })();
  }

  private rekey(crawlId: number, ruleId: number, host: string, identity: RekeyIdentity): RekeyOutcome {
    const rows = this.db
      .prepare(`SELECT id, url, normalized, normalized_key AS key, state, depth, priority FROM urls WHERE crawl_id = ? AND host = ? ORDER BY id`)
      .all(crawlId, host) as UrlRow[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    const newIdentity = new Map<number, { normalized: string; key: string }>();
    const groups = new Map<string, UrlRow[]>();
    for (const row of rows) {
      const next = identity(row.url);
      const value = next.ok ? next.value : { normalized: row.normalized, key: row.key };
      newIdentity.set(row.id, value);
      const group = groups.get(value.key);
      if (group === undefined) groups.set(value.key, [row]);
      else group.push(row);
    }
    const holderOf = this.db.prepare(`SELECT id, url, normalized, normalized_key AS key, state, depth, priority FROM urls WHERE crawl_id = ? AND normalized_key = ?`);
    let seq = 0;
    const log = this.db.prepare(`INSERT INTO crawl_rule_changes (rule_id, seq, kind, url_id, data_json) VALUES (?, ?, ?, ?, ?)`);
    const outcome: RekeyOutcome = { ruleId, rekeyed: 0, merged: 0, fetchesSaved: 0, fetchedDuplicates: 0, examples: [] };
    const rekeys: { row: UrlRow; key: string; normalized: string; depth: number; priority: number }[] = [];
    for (const [key, members] of groups) {
      const changed = members.some((row) => row.key !== key);
      if (!changed) continue;
      // A URL of another host (a profile folding hosts) may hold the new key already.
      const holder = holderOf.get(crawlId, key) as UrlRow | undefined;
      if (holder !== undefined && !byId.has(holder.id)) {
        members.push(holder);
        newIdentity.set(holder.id, { normalized: holder.normalized, key });
      }
      const fetched = members.filter((row) => !QUEUED.has(row.state));
      const survivor = fetched.find((row) => row.key === key) ?? fetched[0] ?? members.find((row) => row.key === key) ?? members[0]!;
      let depth = survivor.depth;
      let priority = survivor.priority;
      for (const row of members) {
        if (row === survivor) continue;
        if (!QUEUED.has(row.state)) {
          outcome.fetchedDuplicates++;
          continue;
        }
        depth = Math.min(depth, row.depth);
        priority = Math.min(priority, row.priority);
        log.run(ruleId, seq++, 'merge', row.id, JSON.stringify(this.merge(crawlId, row, survivor.id)));
        outcome.merged++;
        if (outcome.examples.length < 5) outcome.examples.push({ from: row.url, into: survivor.url });
      }
      // Only a queued URL takes the shallower place of what merged into it.
      if (!QUEUED.has(survivor.state)) {
        depth = survivor.depth;
        priority = survivor.priority;
      }
      rekeys.push({ row: survivor, key, normalized: newIdentity.get(survivor.id)!.normalized, depth, priority });
    }
    // After the merges freed their keys; a key another row still holds waits for that row to move (a later pass).
    const update = this.db.prepare(`UPDATE OR IGNORE urls SET normalized_key = ?, normalized = ?, depth = ?, priority = ? WHERE id = ?`);
    let waiting = rekeys.filter((entry) => entry.row.key !== entry.key || entry.depth !== entry.row.depth || entry.priority !== entry.row.priority);
    for (let progress = true; progress && waiting.length > 0; ) {
      progress = false;
      const next: typeof waiting = [];
      for (const entry of waiting) {
        if (update.run(entry.key, entry.normalized, entry.depth, entry.priority, entry.row.id).changes === 0) {
          next.push(entry);
          continue;
        }
        progress = true;
        const change: RekeyChange = { oldKey: entry.row.key, oldNormalized: entry.row.normalized, oldDepth: entry.row.depth, oldPriority: entry.row.priority };
        log.run(ruleId, seq++, 'rekey', entry.row.id, JSON.stringify(change));
        if (entry.row.key !== entry.key) outcome.rekeyed++;
      }
      waiting = next;
    }
    outcome.fetchesSaved = outcome.merged;
    return outcome;
  }

  /** Moves a queued URL's aliases, inlinks and counts to `into`, then removes its row; returns the undo record. */
  private merge(crawlId: number, row: UrlRow, into: number): MergeChange {
    const full = this.db.prepare(`SELECT * FROM urls WHERE id = ?`).get(row.id) as Record<string, unknown>;
    const aliases = this.db.prepare(`SELECT raw_url, first_seen_from, fragment_spellings FROM url_aliases WHERE url_id = ?`).all(row.id) as MergeChange['aliases'];
    const addAlias = this.db.prepare(`INSERT OR IGNORE INTO url_aliases (url_id, raw_url, first_seen_from, fragment_spellings) VALUES (?, ?, ?, ?)`);
    const aliasesAdded: string[] = [];
    const spellings = aliases.some((alias) => alias.raw_url === row.url) ? aliases : [...aliases, { raw_url: row.url, first_seen_from: null, fragment_spellings: 0 }];
    for (const alias of spellings) {
      if (addAlias.run(into, alias.raw_url, alias.first_seen_from, alias.fragment_spellings).changes > 0) aliasesAdded.push(alias.raw_url);
    }
    const links = this.db.prepare(`SELECT id FROM links WHERE crawl_id = ? AND to_url_id = ?`).pluck().all(crawlId, row.id) as number[];
    this.db.prepare(`UPDATE links SET to_url_id = ? WHERE crawl_id = ? AND to_url_id = ?`).run(into, crawlId, row.id);
    const counts = this.db.prepare(`SELECT inlinks, outlinks FROM link_counts WHERE url_id = ?`).get(row.id) as { inlinks: number; outlinks: number } | undefined;
    let countsRowCreated = false;
    if (counts !== undefined && counts.inlinks > 0) {
      const updated = this.db.prepare(`UPDATE link_counts SET inlinks = inlinks + ? WHERE url_id = ?`).run(counts.inlinks, into);
      if (updated.changes === 0) {
        this.db.prepare(`INSERT INTO link_counts (url_id, crawl_id, inlinks, outlinks) VALUES (?, ?, ?, 0)`).run(into, crawlId, counts.inlinks);
        countsRowCreated = true;
      }
    }
    const discovered = this.db.prepare(`SELECT id FROM urls WHERE discovered_from = ?`).pluck().all(row.id) as number[];
    this.db.prepare(`DELETE FROM urls WHERE id = ?`).run(row.id);
    return {
      into,
      row: full,
      aliases,
      aliasesAdded,
      links,
      inlinks: counts?.inlinks ?? 0,
      outlinks: counts?.outlinks ?? 0,
      countsRowCreated,
      hadCountsRow: counts !== undefined,
      discovered,
    };
  }

  private undoRekey(urlId: number, change: RekeyChange): void {
    this.db.prepare(`UPDATE urls SET normalized_key = ?, normalized = ?, depth = ?, priority = ? WHERE id = ?`).run(change.oldKey, change.oldNormalized, change.oldDepth, change.oldPriority, urlId);
  }

  private undoMerge(crawlId: number, urlId: number, change: MergeChange): void {
    const columns = (this.db.prepare(`SELECT name FROM pragma_table_info('urls')`).pluck().all() as string[]).filter((name) => name in change.row);
    this.db.prepare(`INSERT INTO urls (${columns.map((name) => `"${name}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((name) => change.row[name]));
    const removeAlias = this.db.prepare(`DELETE FROM url_aliases WHERE url_id = ? AND raw_url = ?`);
    for (const raw of change.aliasesAdded) removeAlias.run(change.into, raw);
    const addAlias = this.db.prepare(`INSERT OR IGNORE INTO url_aliases (url_id, raw_url, first_seen_from, fragment_spellings) VALUES (?, ?, ?, ?)`);
    for (const alias of change.aliases) addAlias.run(urlId, alias.raw_url, alias.first_seen_from, alias.fragment_spellings);
    const repoint = this.db.prepare(`UPDATE links SET to_url_id = ? WHERE id = ? AND crawl_id = ?`);
    for (const id of change.links) repoint.run(urlId, id, crawlId);
    if (change.inlinks > 0) {
      if (change.countsRowCreated) this.db.prepare(`DELETE FROM link_counts WHERE url_id = ?`).run(change.into);
      else this.db.prepare(`UPDATE link_counts SET inlinks = inlinks - ? WHERE url_id = ?`).run(change.inlinks, change.into);
    }
    if (change.hadCountsRow) this.db.prepare(`INSERT OR REPLACE INTO link_counts (url_id, crawl_id, inlinks, outlinks) VALUES (?, ?, ?, ?)`).run(urlId, crawlId, change.inlinks, change.outlinks);
    const rediscover = this.db.prepare(`UPDATE urls SET discovered_from = ? WHERE id = ? AND discovered_from IS NULL`);
    for (const id of change.discovered) rediscover.run(urlId, id);
  }
}
