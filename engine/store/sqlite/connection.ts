/** Opening a crawl database: refuse what is not one, WAL, busy timeout, migrations; read-only opens write nothing. */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { CodedError } from '../../../shared/types/result';
import type { ReadableDB, WritableDB } from './database';
import { migrate, MIGRATIONS } from './migrations';

/**
 * Where an Electron-ABI build of better-sqlite3 may live. Node (CLI, browser mode, tests) uses the
 * package's own build; the Electron app passes this file as `nativeBinding` when it exists, because
 * a build for one ABI crashes the other with a NODE_MODULE_VERSION error.
 */
export const ELECTRON_NATIVE_BINDING = path.join('native', 'electron', 'better_sqlite3.node');

/** How long a write waits for another connection's write lock before SQLITE_BUSY, ms. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Creates the folder of an app-owned database path (e.g. ~/.local/share/crawlbench/), one level at
 * a time from the nearest existing ancestor, so an impossible path fails instead of looping.
 * @throws Error when a level cannot be created
 */
export function createParentFolder(file: string): void {
  const missing: string[] = [];
  let dir = path.dirname(path.resolve(file));
  while (!fs.existsSync(dir)) {
    missing.unshift(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const level of missing) fs.mkdirSync(level);
}

export interface OpenDatabaseOptions {
  /** Path to a better_sqlite3.node built for the running ABI (Electron); default: the package's own. */
  nativeBinding?: string;
  /**
   * Read-only: the file must exist and be a Crawlbench database; nothing is written to it (no
   * switch to WAL, no migration). For `export`, `checkpoints` (listing) and other readers.
   */
  readonly?: boolean;
  /**
   * Create the file when it is missing, and initialise an empty one (0 bytes, or SQLite with no
   * tables). @default true for read-write opens (`crawl`, the app); `resume` passes false.
   */
  create?: boolean;
}

/** What a database file holds, as {@link inspectDatabaseFile} found it. */
export interface DatabaseFileInfo {
  /** `missing`: no such file; `empty`: 0 bytes or SQLite without tables; `crawlbench`: ours. */
  kind: 'missing' | 'empty' | 'crawlbench';
  /** PRAGMA user_version (0 for missing and empty files). */
  version: number;
}

/**
 * Looks at a database file without changing it (a read-only connection, closed before returning;
 * a file in rollback-journal mode gets no -wal or -shm file).
 * @throws CodedError NOT_A_CRAWL_DB (another program's SQLite database, or not SQLite at all),
 *   SCHEMA_TOO_NEW (written by a newer Crawlbench), DB_OPEN_FAILED (a folder, unreadable)
 */
export function inspectDatabaseFile(file: string, options: Pick<OpenDatabaseOptions, 'nativeBinding'> = {}): DatabaseFileInfo {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing', version: 0 };
    throw new CodedError('DB_OPEN_FAILED', `Cannot open database ${file}: ${(error as Error).message}`);
  }
  if (!stat.isFile()) throw new CodedError('DB_OPEN_FAILED', `Cannot open database ${file}: not a regular file`);
  if (stat.size === 0) return { kind: 'empty', version: 0 };
  let probe: Database | null = null;
  let version: number;
  let tables: string[];
  try {
    probe = new BetterSqlite3(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    probe.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    version = probe.pragma('user_version', { simple: true }) as number;
    tables = probe.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).pluck().all() as string[];
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new CodedError('NOT_A_CRAWL_DB', `${file} is not a SQLite database (left unchanged; give a new file name, or a database made by crawlbench crawl)`);
    }
    throw new CodedError('DB_OPEN_FAILED', `Cannot open database ${file}: ${(error as Error).message}`);
  } finally {
    probe?.close();
  }
  const newest = MIGRATIONS.at(-1)?.version ?? 0;
  if (version > newest) {
    throw new CodedError('SCHEMA_TOO_NEW', `${file} has schema version ${version}, newer than this Crawlbench supports (${newest}); open it with a newer Crawlbench (left unchanged)`);
  }
  if (version === 0 && tables.length === 0) return { kind: 'empty', version: 0 };
  if (version >= 1 && tables.includes('crawls') && tables.includes('urls')) return { kind: 'crawlbench', version };
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', …' : '');
  throw new CodedError(
    'NOT_A_CRAWL_DB',
    `${file} is another program's SQLite database (tables: ${shown || 'none'}; user_version ${version}), not a Crawlbench database (left unchanged; give a new file name, or a database made by crawlbench crawl)`,
  );
}

/**
 * Opens a Crawlbench database: a {@link WritableDB} read-write, a {@link ReadableDB} with
 * `readonly: true` (see database.ts). Read-write (the default): creates the file if needed (unless
 * `create: false`), switches it to WAL and migrates it to the newest schema. Read-only: opens it
 * as it is. Either way a file that is not a Crawlbench database, or comes from a newer Crawlbench,
 * is refused before anything is written to it.
 * @param file path of the SQLite file, or ':memory:'
 * @throws CodedError DB_NOT_FOUND (missing file, read-only or `create: false`), NOT_A_CRAWL_DB,
 *   SCHEMA_TOO_NEW, DB_OPEN_FAILED (unwritable folder, a write refused while migrating)
 */
export function openDatabase(file: string, options: OpenDatabaseOptions & { readonly: true }): ReadableDB;
export function openDatabase(file: string, options?: OpenDatabaseOptions & { readonly?: false }): WritableDB;
export function openDatabase(file: string, options?: OpenDatabaseOptions): ReadableDB | WritableDB;
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): ReadableDB | WritableDB {
  const readonly = options.readonly ?? false;
  const create = !readonly && (options.create ?? true);
  if (file !== ':memory:') {
    // No recursive mkdir here: under procfs it loops forever (ENOENT read as "parent missing").
    // Callers that own a default location create its folder (see createParentFolder).
    const info = inspectDatabaseFile(file, options);
    if (info.kind === 'missing' && !create) throw new CodedError('DB_NOT_FOUND', `No database at ${file} (check the path; crawlbench crawl creates one)`);
    if (info.kind === 'empty' && !create) {
      throw new CodedError('NOT_A_CRAWL_DB', `${file} is empty, not a Crawlbench database (left unchanged; crawl into it with crawlbench crawl first)`);
    }
    if (info.kind === 'missing' && !fs.existsSync(path.dirname(path.resolve(file)))) {
      throw new CodedError('DB_OPEN_FAILED', `Cannot open database ${file}: folder ${path.dirname(path.resolve(file))} does not exist`);
    }
  }
  let db: Database;
  try {
    db = new BetterSqlite3(file, {
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(readonly ? { readonly: true, fileMustExist: true } : {}),
    });
  } catch (error) {
    throw new CodedError('DB_OPEN_FAILED', `Cannot open database ${file}: ${(error as Error).message}`);
  }
  try {
    // First, so that switching to WAL and migrating wait for another process's write instead of failing.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode: a killed process loses nothing committed; only power loss can drop the last commits.
      db.pragma('synchronous = NORMAL');
      migrate(db);
    }
  } catch (error) {
    db.close();
    if (error instanceof CodedError) throw error;
    const code = (error as { code?: string }).code;
    const reason = error instanceof Error ? error.message : String(error);
    throw new CodedError(code === 'SQLITE_FULL' ? 'DISK_FULL' : 'DB_OPEN_FAILED', `Cannot open database ${file}: ${reason}`);
  }
  return readonly ? (db as ReadableDB) : (db as WritableDB);
}
