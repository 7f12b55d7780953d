/**
 * A PostgreSQL crawl as a SQLite crawl database (issue 13): every view, export and read-side CLI
 * command of the SQLite store works on a PostgreSQL crawl by reading a copy of it. The copy is one
 * `REPEATABLE READ READ ONLY` transaction on one pooled connection, so it is one consistent
 * snapshot of the crawl while other processes go on writing (a commit batch is in it whole or not
 * at all), read table by table through a server-side cursor (`FETCH` in chunks: memory holds two
 * chunks, never a table) into a new file made by sqlite/connection.ts `openDatabase` (the newest
 * SQLite schema), with crawl ids and URL ids kept, column for column. In-flight URLs are copied as
 * pending, as a resumed SQLite crawl would see them: a snapshot is a resumable state. The file is
 * written under a temporary name and takes its name only when complete. Measured on the
 * development machine (2 shared cores, a local cluster): 20,000 URLs, 45,000 links and 15,000
 * pages with text (an 82 MB file) in 1.4-2.0 s; 100,000 URLs and 225,000 links (411 MB) in
 * 5.6-6.2 s, the process's RSS flat at about 190 MB.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { CodedError } from '../../../shared/types/result';
import { openDatabase } from '../sqlite/connection';
import type { WritableDB } from '../sqlite/database';
import { refreshLinkRanges } from '../sqlite/link-ranges';
import { LinkCounts } from '../sqlite/queries/link-counts';
import { lowLevelCode, storageErrorInfo } from '../sqlite/storage-errors';
import { VersionIndex } from '../sqlite/version-index';
import { postgresError, type PostgresStore } from './pool';

/** One table as the snapshot copies it. */
export interface TableCopy {
  table: string;
  /** The PostgreSQL filter on the crawl (`$CRAWLS` stands for the crawl id list). */
  where: string;
  /** ORDER BY of the cursor: the SQLite primary key's order, so SQLite appends B-tree pages. */
  orderBy: string;
  /** PostgreSQL expressions replacing a column (by SQLite column name). */
  expressions?: Record<string, string>;
  /** Rows per FETCH (tables whose rows carry page bodies' text fetch fewer). @default FETCH_ROWS */
  fetchRows?: number;
}

/** Rows per `FETCH` of the cursor. */
export const FETCH_ROWS = 5000;
/** Rows per SQLite transaction while copying. */
const COMMIT_ROWS = 50_000;

/**
 * The tables of a crawl in dependency order (a row's references come before it, except
 * `urls.discovered_from`, which may point forward: foreign keys are off during the copy and
 * checked after it). PostgreSQL-only tables (hosts, processes, host_slots, url_counts) are not
 * copied; PostgreSQL-only columns (urls.owner; the crawl_id of tables that have none in SQLite)
 * are left out because only the columns both schemas have are copied.
 */
export const SNAPSHOT_TABLES: readonly TableCopy[] = [
  { table: 'crawls', where: 'id IN ($CRAWLS)', orderBy: 'id' },
  { table: 'traps', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id' },
  // A URL in flight in PostgreSQL is pending in the copy (sqlite/frontier-rows.ts resets them the same way on resume).
  { table: 'urls', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id', expressions: { state: `CASE WHEN state = 'in_flight' THEN 'pending' ELSE state END` } },
  { table: 'pages', where: 'crawl_id IN ($CRAWLS)', orderBy: 'url_id', fetchRows: 1000 },
  { table: 'page_texts', where: 'crawl_id IN ($CRAWLS)', orderBy: 'url_id', fetchRows: 200 },
  { table: 'page_bodies', where: 'crawl_id IN ($CRAWLS)', orderBy: 'url_id', fetchRows: 100 },
  { table: 'page_extractions', where: 'crawl_id IN ($CRAWLS)', orderBy: 'url_id', fetchRows: 1000 },
  { table: 'page_renders', where: 'crawl_id IN ($CRAWLS)', orderBy: 'url_id', fetchRows: 1000 },
  { table: 'links', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id' },
  { table: 'url_aliases', where: 'crawl_id IN ($CRAWLS)', orderBy: 'url_id, raw_url' },
  { table: 'content_groups', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id' },
  { table: 'content_group_members', where: 'crawl_id IN ($CRAWLS)', orderBy: 'group_id, url_id' },
  { table: 'minhash_bands', where: 'crawl_id IN ($CRAWLS)', orderBy: 'crawl_id, band, bucket, url_id' },
  { table: 'robots_txt', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id' },
  { table: 'sitemaps', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id' },
  { table: 'sitemap_urls', where: 'crawl_id IN ($CRAWLS)', orderBy: 'url_id, sitemap_id' },
  { table: 'crawl_runs', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id' },
  { table: 'checkpoints', where: 'crawl_id IN ($CRAWLS)', orderBy: 'id' },
];

export interface SnapshotOptions {
  /**
   * Called after each chunk a table's copy stored, with the table's rows copied so far; the copy
   * waits for a returned promise. A throw ends the copy (nothing is left on disk).
   */
  onProgress?(table: string, rows: number): void | Promise<void>;
}

/** What a copy wrote. */
export interface SnapshotResult {
  /** Rows copied, by table name (every table of {@link SNAPSHOT_TABLES}, 0 when empty). */
  rows: Record<string, number>;
  /** Size of the finished SQLite file, bytes. */
  bytes: number;
}

/**
 * Copies one crawl of a PostgreSQL store into a new SQLite crawl database `file`, as one
 * consistent snapshot (see the module comment), then builds the SQLite-only derived tables the
 * views read (the version index: sqlite/version-index.ts; link counts: queries/link-counts.ts).
 * @param file the new database's path; it must not exist (its folder must)
 * @throws CodedError CRAWL_NOT_FOUND; SNAPSHOT_EXISTS (`file` exists); SNAPSHOT_FAILED (the copy
 *   broke a reference); STORE_UNREACHABLE, DB_BUSY … from PostgreSQL (pool.ts postgresError);
 *   DISK_FULL, DB_IO_ERROR … from the SQLite file. On any failure no file is left.
 */
export async function copyCrawlToSqlite(store: PostgresStore, crawlId: number, file: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
  return copyCrawlsToSqlite(store, [crawlId], file, options);
}

/**
 * {@link copyCrawlToSqlite} for several crawls into one file, all in the same snapshot (`serve
 * --store` copies every crawl of the store).
 * @param crawlIds the crawls to copy (each must exist); none makes a database with no crawl
 */
export async function copyCrawlsToSqlite(store: PostgresStore, crawlIds: readonly number[], file: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
  for (const id of crawlIds) if (!Number.isSafeInteger(id) || id < 1) throw new CodedError('CRAWL_NOT_FOUND', `No crawl with id ${id} in ${store.url}`);
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new CodedError('SNAPSHOT_EXISTS', `${target} exists already: the copy of a PostgreSQL crawl goes to a new file (choose another name)`);
  if (!fs.existsSync(path.dirname(target))) throw new CodedError('DB_OPEN_FAILED', `Cannot create ${target}: folder ${path.dirname(target)} does not exist`);
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.partial`);
  let client: pg.PoolClient;
  try {
    client = await store.pool.connect();
  } catch (error) {
    throw postgresError(error, store.url);
  }
  // A connection the server ends while it is checked out emits 'error' on the client (the pool
  // handles only idle ones): without a listener that would crash the process; the pending query fails instead.
  // That error (57P01, ECONNRESET) says why; the failed query only says the client is broken.
  let connectionError: unknown = null;
  const onConnectionError = (error: unknown): void => {
    connectionError ??= error;
  };
  client.on('error', onConnectionError);
  let broken = false;
  let db: WritableDB | null = null;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const found = (await client.query<{ id: number }>('SELECT id FROM crawls WHERE id = ANY($1::bigint[])', [crawlIds])).rows.map((row) => row.id);
    const missing = crawlIds.filter((id) => !found.includes(id));
    if (missing.length > 0) throw new CodedError('CRAWL_NOT_FOUND', `No crawl with id ${missing.join(', ')} in ${store.url}`);
    db = openDatabase(staging);
    const rows = await copyTables(client, db, crawlIds, options);
    await client.query('COMMIT');
    finishCopy(db, crawlIds, staging);
    db.close();
    db = null;
    publish(staging, target);
    return { rows, bytes: fs.statSync(target).size };
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    if (error instanceof CodedError) throw error;
    if (lowLevelCode(error)?.startsWith('SQLITE_') || storageErrorInfo(error)) {
      const info = storageErrorInfo(error);
      const words = info?.message ?? (error as Error).message;
      throw Object.assign(new CodedError(info?.code ?? 'SNAPSHOT_FAILED', `Cannot write the copy ${target}: ${words} (no file was left; PostgreSQL is unchanged)`), { cause: error });
    }
    throw postgresError(connectionError ?? error, store.url);
  } finally {
    client.off('error', onConnectionError);
    client.release(broken);
    db?.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${staging}${suffix}`, { force: true });
  }
}

/** The newest crawl of a store (the highest id), or null when it has none. */
export async function newestPostgresCrawl(store: PostgresStore): Promise<number | null> {
  try {
    return (await store.pool.query<{ id: number | null }>('SELECT max(id) AS id FROM crawls')).rows[0]?.id ?? null;
  } catch (error) {
    throw postgresError(error, store.url);
  }
}

/** Every crawl id of a store, ascending. */
export async function postgresCrawlIds(store: PostgresStore): Promise<number[]> {
  try {
    return (await store.pool.query<{ id: number }>('SELECT id FROM crawls ORDER BY id')).rows.map((row) => row.id);
  } catch (error) {
    throw postgresError(error, store.url);
  }
}

/**
 * Streams every table of {@link SNAPSHOT_TABLES} through a cursor into `db`, foreign keys off
 * (turned back on and checked by {@link finishCopy}).
 */
async function copyTables(client: pg.PoolClient, db: WritableDB, crawlIds: readonly number[], options: SnapshotOptions): Promise<Record<string, number>> {
  const pgColumns = await postgresColumns(client, SNAPSHOT_TABLES.map((t) => t.table));
  const crawlList = crawlIds.length > 0 ? crawlIds.map((id) => String(id)).join(', ') : 'NULL';
  db.pragma('foreign_keys = OFF');
  // A failed copy is deleted: no fsync while loading (the file is synced once, when it is complete).
  db.pragma('synchronous = OFF');
  const counts: Record<string, number> = {};
  for (const spec of SNAPSHOT_TABLES) {
    const sqliteColumns = (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).pluck().all(spec.table) as string[]).filter((name) => pgColumns.get(spec.table)?.has(name));
    if (sqliteColumns.length === 0) throw new CodedError('SNAPSHOT_FAILED', `Table ${spec.table} has no column in both the PostgreSQL and the SQLite schema`);
    const select = sqliteColumns.map((name) => (spec.expressions?.[name] ? `${spec.expressions[name]} AS ${name}` : name)).join(', ');
    const insert = db.prepare(`INSERT INTO ${spec.table} (${sqliteColumns.join(', ')}) VALUES (${sqliteColumns.map(() => '?').join(', ')})`);
    const fetchRows = spec.fetchRows ?? FETCH_ROWS;
    await client.query(`DECLARE snapshot_rows NO SCROLL CURSOR FOR SELECT ${select} FROM ${spec.table} WHERE ${spec.where.replace('$CRAWLS', crawlList)} ORDER BY ${spec.orderBy}`);
    const fetch = () => client.query<unknown[]>({ text: `FETCH ${fetchRows} FROM snapshot_rows`, rowMode: 'array' });
    let copied = 0;
    let uncommitted = 0;
    db.exec('BEGIN');
    try {
      let next = fetch();
      for (;;) {
        const chunk = (await next).rows;
        if (chunk.length === 0) break;
        // The next chunk travels while this one is written.
        next = chunk.length === fetchRows ? fetch() : Promise.resolve({ rows: [] as unknown[][] } as unknown as pg.QueryResult<unknown[]>);
        // When this chunk's write fails the prefetch is never awaited: its failure must not be an unhandled rejection.
        next.catch(() => undefined);
        for (const row of chunk) insert.run(row);
        copied += chunk.length;
        uncommitted += chunk.length;
        if (uncommitted >= COMMIT_ROWS) {
          db.exec('COMMIT');
          db.exec('BEGIN');
          uncommitted = 0;
        }
        await options.onProgress?.(spec.table, copied);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
    await client.query('CLOSE snapshot_rows');
    counts[spec.table] = copied;
  }
  return counts;
}

/** Column names of each PostgreSQL table, in one query. */
async function postgresColumns(client: pg.PoolClient, tables: readonly string[]): Promise<Map<string, Set<string>>> {
  const result = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
    [tables],
  );
  const columns = new Map<string, Set<string>>();
  for (const row of result.rows) {
    if (!columns.has(row.table_name)) columns.set(row.table_name, new Set());
    columns.get(row.table_name)!.add(row.column_name);
  }
  return columns;
}

/**
 * After the rows: foreign keys back on and checked (a reference the snapshot broke would be a bug
 * here, never accepted silently), the derived tables built, the file synced and its WAL folded in.
 * @throws CodedError SNAPSHOT_FAILED when a reference is broken
 */
function finishCopy(db: WritableDB, crawlIds: readonly number[], file: string): void {
  db.pragma('foreign_keys = ON');
  const broken = db.prepare(`SELECT "table", rowid, parent FROM pragma_foreign_key_check LIMIT 5`).all() as { table: string; rowid: number; parent: string }[];
  if (broken.length > 0) {
    const shown = broken.map((row) => `${row.table} row ${row.rowid} → ${row.parent}`).join('; ');
    throw new CodedError('SNAPSHOT_FAILED', `The copy into ${file} has rows whose reference is missing (${shown}); nothing was kept: report this, it is a bug`);
  }
  const counts = new LinkCounts(db);
  for (const crawlId of crawlIds) {
    // URL rows name their outlinks by id range in SQLite (link-ranges.ts); PostgreSQL has no such columns.
    refreshLinkRanges(db, crawlId);
    new VersionIndex(db, crawlId).catchUp();
    counts.refresh(crawlId);
  }
  db.pragma('synchronous = FULL');
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/** Gives the finished file its name, never over a file that appeared meanwhile (a hard link fails with EEXIST). */
function publish(staging: string, target: string): void {
  try {
    fs.linkSync(staging, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CodedError('SNAPSHOT_EXISTS', `${target} appeared during the copy; the copy was not kept (choose another name)`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
    if (fs.existsSync(target)) throw new CodedError('SNAPSHOT_EXISTS', `${target} appeared during the copy; the copy was not kept (choose another name)`);
    fs.renameSync(staging, target);
  }
}
