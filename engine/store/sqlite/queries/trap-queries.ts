/** Read queries of crawler traps (migration 0019): the traps of a crawl with their evidence and held counts, and the held URLs of one trap. */
import type { TrapDetector, TrapEvidence, TrapRow, TrapState } from '../../../../shared/types/traps';
import type { ReadableDB } from '../database';

interface StoredTrap {
  id: number;
  crawlId: number;
  host: string;
  pattern: string;
  template: string;
  detector: string;
  evidenceJson: string;
  examplesJson: string;
  heldCount: number;
  state: string;
  detectedAtMs: number;
  updatedAtMs: number;
}

const TRAP_COLUMNS = `t.id, t.crawl_id AS crawlId, t.host, t.pattern, t.template, t.detector, t.evidence_json AS evidenceJson, t.examples_json AS examplesJson,
  (SELECT COUNT(*) FROM urls u WHERE u.trap_id = t.id AND u.state = 'held') AS heldCount, t.state, t.detected_at_ms AS detectedAtMs, t.updated_at_ms AS updatedAtMs`;

function trapRow(row: StoredTrap): TrapRow {
  return {
    id: row.id,
    crawlId: row.crawlId,
    host: row.host,
    pattern: row.pattern,
    template: row.template,
    detector: row.detector as TrapDetector,
    evidence: JSON.parse(row.evidenceJson) as TrapEvidence,
    examples: JSON.parse(row.examplesJson) as string[],
    heldCount: row.heldCount,
    state: row.state as TrapState,
    detectedAtMs: row.detectedAtMs,
    updatedAtMs: row.updatedAtMs,
  };
}

/**
 * Every trap of crawl `crawlId`, in the order found (held counts from urls: the partial index
 * urls_held_by_trap). A database from before migration 0019 has none.
 */
export function listTraps(db: ReadableDB, crawlId: number): TrapRow[] {
  return (db.prepare(`SELECT ${TRAP_COLUMNS} FROM traps t WHERE t.crawl_id = ? ORDER BY t.id`).all(crawlId) as StoredTrap[]).map(trapRow);
}

/** Trap `trapId` of crawl `crawlId`, or null. */
export function getTrap(db: ReadableDB, crawlId: number, trapId: number): TrapRow | null {
  const row = db.prepare(`SELECT ${TRAP_COLUMNS} FROM traps t WHERE t.crawl_id = ? AND t.id = ?`).get(crawlId, trapId) as StoredTrap | undefined;
  return row === undefined ? null : trapRow(row);
}

/** The stored traps' host, pattern and state (for a resumed run's trap guard). */
export function storedTraps(db: ReadableDB, crawlId: number): { host: string; pattern: string; state: TrapState }[] {
  return db.prepare(`SELECT host, pattern, state FROM traps WHERE crawl_id = ? ORDER BY id`).all(crawlId) as { host: string; pattern: string; state: TrapState }[];
}

/** One held URL with the trap and detector holding it. */
export interface HeldUrlRow {
  urlId: number;
  url: string;
  host: string;
  trapId: number;
  detector: TrapDetector;
  pattern: string;
}

/** The held URLs of crawl `crawlId` (of one trap when `trapId` is given), in id order, at most `limit`. */
export function listHeldUrls(db: ReadableDB, crawlId: number, options: { trapId?: number; limit?: number } = {}): HeldUrlRow[] {
  const byTrap = options.trapId === undefined ? '' : 'AND u.trap_id = ?';
  const parameters: number[] = [crawlId];
  if (options.trapId !== undefined) parameters.push(options.trapId);
  parameters.push(options.limit ?? -1);
  return db
    .prepare(
      `SELECT u.id AS urlId, u.url, u.host, u.trap_id AS trapId, t.detector, t.pattern FROM urls u JOIN traps t ON t.id = u.trap_id
       WHERE u.crawl_id = ? AND u.state = 'held' ${byTrap} ORDER BY u.id LIMIT ?`,
    )
    .all(...parameters) as HeldUrlRow[];
}
