/** The SQLite robots store (store/ports.ts RobotsStore): table robots_txt, migration 0015. */
import type { Statement } from 'better-sqlite3';
import type { RobotsStore, StoredRobots } from '../ports';
import type { WritableDB } from './database';
import { placeholderRows } from './placeholders';

/** Origins read per statement: well under SQLite's 32,766 bound parameters. */
const LOAD_CHUNK = 500;

/**
 * One crawl's stored robots.txt files. `save` is one autocommit statement (its own small
 * transaction, not the commit batch's: see RobotsStore); `load` one indexed read per
 * LOAD_CHUNK origins over the (crawl_id, origin) unique index.
 */
export class SqliteRobotsStore implements RobotsStore {
  private readonly upsert: Statement;
  private readonly selects = new Map<number, Statement>();

  constructor(
    private readonly db: WritableDB,
    private readonly crawlId: number,
  ) {
    this.upsert = db.prepare(`
      INSERT INTO robots_txt (crawl_id, origin, status, error_code, body, fetched_at_ms, expires_at_ms)
      VALUES (@crawlId, @origin, @status, @errorCode, @body, @fetchedAtMs, @expiresAtMs)
      ON CONFLICT (crawl_id, origin) DO UPDATE SET status = excluded.status, error_code = excluded.error_code,
        body = excluded.body, fetched_at_ms = excluded.fetched_at_ms, expires_at_ms = excluded.expires_at_ms`);
  }

  async load(origins: readonly string[], nowMs: number): Promise<StoredRobots[]> {
    const found: StoredRobots[] = [];
    for (let start = 0; start < origins.length; start += LOAD_CHUNK) {
      const chunk = origins.slice(start, start + LOAD_CHUNK);
      found.push(...(this.select(chunk.length).all(this.crawlId, nowMs, ...chunk) as StoredRobots[]));
    }
    return found;
  }

  async save(entry: StoredRobots): Promise<void> {
    this.upsert.run({ crawlId: this.crawlId, ...entry });
  }

  private select(count: number): Statement {
    let statement = this.selects.get(count);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT origin, status, error_code AS errorCode, body, fetched_at_ms AS fetchedAtMs, expires_at_ms AS expiresAtMs
         FROM robots_txt WHERE crawl_id = ? AND expires_at_ms > ? AND origin IN ${placeholderRows(1, count)}`,
      );
      this.selects.set(count, statement);
    }
    return statement;
  }
}
