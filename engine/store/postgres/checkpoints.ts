/**
 * Checkpoints of a PostgreSQL crawl (issue 13): a checkpoint is a snapshot of the crawl copied
 * into a SQLite file (postgres/snapshot.ts), recorded as a `checkpoints` row in PostgreSQL, so
 * `crawlbench checkpoints --store URL` lists them like a SQLite database's. Rolling a PostgreSQL
 * crawl back to one is not supported (STORE_UNSUPPORTED); the file is a crawl database that
 * `resume --db FILE` continues.
 */
import fs from 'node:fs';
import { CodedError } from '../../../shared/types/result';
import { checkCheckpointName, checkpointCounts, settingsHash, type CheckpointInfo } from '../sqlite/checkpoints';
import { openDatabase } from '../sqlite/connection';
import { postgresError, type PostgresStore } from './pool';
import { copyCrawlToSqlite } from './snapshot';

/**
 * Copies crawl `crawlId` into the new SQLite file `file` and records it as checkpoint `name` of
 * the crawl in PostgreSQL. Pages done and frontier size are counted in the copy (the snapshot's
 * moment; in-flight URLs count as frontier). The copy does not list itself.
 * @throws CodedError INVALID_CHECKPOINT_NAME, CHECKPOINT_EXISTS (checked before the copy, and
 *   again when recording: the file is then removed), CRAWL_NOT_FOUND, SNAPSHOT_EXISTS, and the
 *   copy's errors (copyCrawlToSqlite)
 */
export async function createPostgresCheckpoint(store: PostgresStore, crawlId: number, name: string, file: string, nowMs = Date.now()): Promise<CheckpointInfo> {
  checkCheckpointName(name);
  const exists = async (): Promise<boolean> => {
    try {
      return (await store.pool.query('SELECT 1 FROM checkpoints WHERE crawl_id = $1 AND name = $2', [crawlId, name])).rowCount !== 0;
    } catch (error) {
      throw postgresError(error, store.url);
    }
  };
  if (await exists()) throw new CodedError('CHECKPOINT_EXISTS', `Crawl ${crawlId} already has a checkpoint named "${name}"`);
  await copyCrawlToSqlite(store, crawlId, file);
  try {
    // Read-write (nothing is written): its close removes the -wal and -shm files a read-only handle leaves beside the file.
    const db = openDatabase(file, { create: false });
    let info: CheckpointInfo;
    try {
      const settings = db.prepare(`SELECT settings_json FROM crawls WHERE id = ?`).pluck().get(crawlId) as string;
      info = { crawlId, name, createdAtMs: nowMs, ...checkpointCounts(db, crawlId), settingsHash: settingsHash(settings), file };
    } finally {
      db.close();
    }
    let recorded;
    try {
      recorded = await store.pool.query(
        `INSERT INTO checkpoints (crawl_id, name, created_at_ms, pages_done, frontier_size, settings_hash, file) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (crawl_id, name) DO NOTHING`,
        [crawlId, name, nowMs, info.pagesDone, info.frontierSize, info.settingsHash, file],
      );
    } catch (error) {
      throw postgresError(error, store.url);
    }
    if (recorded.rowCount === 0) throw new CodedError('CHECKPOINT_EXISTS', `Crawl ${crawlId} got a checkpoint named "${name}" from another process during the copy`);
    return info;
  } catch (error) {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
    throw error;
  }
}

/** Checkpoints of one crawl of the store (or of all), newest first, as sqlite/checkpoints.ts listCheckpoints. */
export async function listPostgresCheckpoints(store: PostgresStore, crawlId?: number): Promise<CheckpointInfo[]> {
  try {
    const result = await store.pool.query<CheckpointInfo>(
      `SELECT crawl_id AS "crawlId", name, created_at_ms AS "createdAtMs", pages_done AS "pagesDone", frontier_size AS "frontierSize",
              settings_hash AS "settingsHash", file FROM checkpoints WHERE $1::bigint IS NULL OR crawl_id = $1 ORDER BY created_at_ms DESC, id DESC`,
      [crawlId ?? null],
    );
    return result.rows;
  } catch (error) {
    throw postgresError(error, store.url);
  }
}
