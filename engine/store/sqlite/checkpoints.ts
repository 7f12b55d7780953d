/** Checkpoints of a crawl database: snapshot, list, restore (under the crawl lease) and delete. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ReadableDB, WritableDB } from './database';
import type { CheckpointRow } from '../../../shared/types/rows';
import { CodedError } from '../../../shared/types/result';
import { openDatabase } from './connection';

/** One named checkpoint of a crawl: the row the Checkpoints view lists, plus its snapshot file. */
export interface CheckpointInfo extends CheckpointRow {
  /** The snapshot database file. */
  file: string;
}

/** Folder of a database's snapshot files: `<db>.checkpoints/`. */
export function checkpointFolder(dbFile: string): string {
  return `${path.resolve(dbFile)}.checkpoints`;
}

/** Short, stable hash of a settings JSON string. */
export function settingsHash(settingsJson: string): string {
  return createHash('sha256').update(settingsJson).digest('hex').slice(0, 16);
}

/**
 * Refuses a checkpoint name that could not be a file name part: 1-64 letters, digits, '.', '-', '_'.
 * @throws CodedError INVALID_CHECKPOINT_NAME
 */
export function checkCheckpointName(name: string): void {
  if (!/^[\w.-]{1,64}$/.test(name)) throw new CodedError('INVALID_CHECKPOINT_NAME', `Checkpoint name "${name}" must be 1-64 letters, digits, '.', '-' or '_'`);
}

/**
 * The URL counts a checkpoint row records, read from a crawl database: pages done, and the
 * frontier (pending and in-flight URLs).
 */
export function checkpointCounts(db: ReadableDB, crawlId: number): { pagesDone: number; frontierSize: number } {
  const counts = db
    .prepare(`SELECT SUM(state = 'done') AS done, SUM(state IN ('pending', 'in_flight')) AS frontier FROM urls WHERE crawl_id = ?`)
    .get(crawlId) as { done: number | null; frontier: number | null };
  return { pagesDone: counts.done ?? 0, frontierSize: counts.frontier ?? 0 };
}

/**
 * Writes a consistent snapshot of the database (SQLite online backup: a point-in-time copy taken
 * between transactions) and records it as checkpoint `name` of the crawl.
 * @throws CodedError INVALID_CHECKPOINT_NAME, CHECKPOINT_EXISTS, CRAWL_NOT_FOUND, CHECKPOINT_FAILED
 */
export async function createCheckpoint(db: WritableDB, crawlId: number, name: string, nowMs = Date.now()): Promise<CheckpointInfo> {
  checkCheckpointName(name);
  if (db.name === ':memory:') throw new CodedError('CHECKPOINT_FAILED', 'An in-memory database cannot be checkpointed to a file');
  const crawl = db.prepare(`SELECT settings_json FROM crawls WHERE id = ?`).get(crawlId) as { settings_json: string } | undefined;
  if (!crawl) throw new CodedError('CRAWL_NOT_FOUND', `No crawl with id ${crawlId}`);
  if (db.prepare(`SELECT 1 FROM checkpoints WHERE crawl_id = ? AND name = ?`).get(crawlId, name)) {
    throw new CodedError('CHECKPOINT_EXISTS', `Crawl ${crawlId} already has a checkpoint named "${name}"`);
  }
  const counts = checkpointCounts(db, crawlId);
  const folder = checkpointFolder(db.name);
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `crawl-${crawlId}-${name}.db`);
  try {
    await db.backup(file);
  } catch (error) {
    fs.rmSync(file, { force: true });
    // The cause keeps the SQLite or errno code (a full disk ends a running crawl: storage-errors.ts).
    throw Object.assign(new CodedError('CHECKPOINT_FAILED', `Cannot write checkpoint ${file}: ${(error as Error).message}`), { cause: error });
  }
  const info: CheckpointInfo = {
    crawlId,
    name,
    createdAtMs: nowMs,
    pagesDone: counts.pagesDone,
    frontierSize: counts.frontierSize,
    settingsHash: settingsHash(crawl.settings_json),
    file,
  };
  db.prepare(`INSERT INTO checkpoints (crawl_id, name, created_at_ms, pages_done, frontier_size, settings_hash, file) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    crawlId,
    name,
    nowMs,
    info.pagesDone,
    info.frontierSize,
    info.settingsHash,
    file,
  );
  return info;
}

/** Checkpoints of one crawl (or all crawls), newest first. */
export function listCheckpoints(db: ReadableDB, crawlId?: number): CheckpointInfo[] {
  const rows = db
    .prepare(
      `SELECT crawl_id AS crawlId, name, created_at_ms AS createdAtMs, pages_done AS pagesDone, frontier_size AS frontierSize,
              settings_hash AS settingsHash, file FROM checkpoints ${crawlId === undefined ? '' : 'WHERE crawl_id = ?'} ORDER BY created_at_ms DESC, id DESC`,
    )
    .all(...(crawlId === undefined ? [] : [crawlId])) as CheckpointInfo[];
  return rows;
}

/**
 * Rolls a database back to a checkpoint through SQLite's online backup into the open database:
 * one write transaction, so other processes reading the file (an export, the app) see the old
 * content or the new, never a torn file, and its WAL stays consistent. The snapshot is first
 * copied beside the database and brought to the newest schema, and the caller's crawl lease row is
 * written into that copy, so the lease stays held across the swap. The caller must hold the crawl
 * lease (db/crawl-lease.ts): a rollback never runs while another process crawls. The snapshot does
 * not list itself (its row is written after the copy), so callers re-record the list they read
 * before with {@link recordCheckpoints}.
 * @param db the open, read-write database to roll back (its connection stays usable)
 * @throws CodedError CHECKPOINT_NOT_FOUND; CHECKPOINT_FAILED (with the SQLite or errno code as cause)
 */
export async function restoreCheckpoint(db: WritableDB, checkpoint: CheckpointInfo): Promise<void> {
  if (!fs.existsSync(checkpoint.file)) throw new CodedError('CHECKPOINT_NOT_FOUND', `Checkpoint file ${checkpoint.file} is missing`);
  const staging = `${path.resolve(db.name)}.restore-${process.pid}-${Date.now()}`;
  let staged: WritableDB | null = null;
  try {
    fs.copyFileSync(checkpoint.file, staging);
    staged = openDatabase(staging);
    const lease = db.prepare(`SELECT * FROM crawl_lease WHERE id = 1`).get() as Record<string, unknown> | undefined;
    staged.transaction(() => {
      staged!.prepare(`DELETE FROM crawl_lease`).run();
      if (lease) {
        const columns = Object.keys(lease);
        staged!.prepare(`INSERT INTO crawl_lease (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...Object.values(lease));
      }
    })();
    await staged.backup(db.name);
  } catch (error) {
    if (error instanceof CodedError) throw error;
    throw Object.assign(new CodedError('CHECKPOINT_FAILED', `Cannot roll back to checkpoint ${checkpoint.name}: ${(error as Error).message}`), { cause: error });
  } finally {
    staged?.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${staging}${suffix}`, { force: true });
  }
}

/** Deletes a checkpoint's row and its snapshot file. */
export function deleteCheckpoint(db: WritableDB, checkpoint: CheckpointInfo): void {
  db.prepare(`DELETE FROM checkpoints WHERE crawl_id = ? AND name = ?`).run(checkpoint.crawlId, checkpoint.name);
  fs.rmSync(checkpoint.file, { force: true });
}

/** Records checkpoint rows that are missing (after a restore); existing names are left alone. */
export function recordCheckpoints(db: WritableDB, checkpoints: readonly CheckpointInfo[]): void {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO checkpoints (crawl_id, name, created_at_ms, pages_done, frontier_size, settings_hash, file) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const c of checkpoints) insert.run(c.crawlId, c.name, c.createdAtMs, c.pagesDone, c.frontierSize, c.settingsHash, c.file);
  })();
}
