/** The PostgreSQL robots store (store/ports.ts RobotsStore, issue 13): table robots_txt, unique per (crawl_id, origin). */
import type { RobotsStore, StoredRobots } from '../ports';
import { postgresError, type PostgresStore } from './pool';

/**
 * One crawl's stored robots.txt files, shared by every crawler process of the crawl. `save` is one
 * autocommit upsert on (crawl_id, origin) (its own small transaction, not the commit batch's: see
 * RobotsStore), so two processes saving one origin leave the later one; `load` one read for any
 * number of origins (`origin = ANY($3)`, over the unique index).
 */
export class PostgresRobotsStore implements RobotsStore {
  constructor(
    private readonly store: PostgresStore,
    private readonly crawlId: number,
  ) {}

  /** @throws a storage error in plain words (pool.ts postgresError: STORE_UNREACHABLE, …) */
  async load(origins: readonly string[], nowMs: number): Promise<StoredRobots[]> {
    if (origins.length === 0) return [];
    try {
      const { rows } = await this.store.pool.query<StoredRobots>(
        `SELECT origin, status, error_code AS "errorCode", body, fetched_at_ms AS "fetchedAtMs", expires_at_ms AS "expiresAtMs"
         FROM robots_txt WHERE crawl_id = $1 AND expires_at_ms > $2 AND origin = ANY($3::text[])`,
        [this.crawlId, nowMs, [...new Set(origins)]],
      );
      return rows;
    } catch (error) {
      throw postgresError(error, this.store.url);
    }
  }

  /** @throws a storage error in plain words (DISK_FULL, STORE_UNREACHABLE, …) */
  async save(entry: StoredRobots): Promise<void> {
    try {
      await this.store.pool.query(
        `INSERT INTO robots_txt (crawl_id, origin, status, error_code, body, fetched_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (crawl_id, origin) DO UPDATE SET status = EXCLUDED.status, error_code = EXCLUDED.error_code,
           body = EXCLUDED.body, fetched_at_ms = EXCLUDED.fetched_at_ms, expires_at_ms = EXCLUDED.expires_at_ms`,
        [this.crawlId, entry.origin, entry.status, entry.errorCode, entry.body, entry.fetchedAtMs, entry.expiresAtMs],
      );
    } catch (error) {
      throw postgresError(error, this.store.url);
    }
  }
}
