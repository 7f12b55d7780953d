import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { CodedError } from '../../../shared/types/result';
import { migrate } from './migrations';

/**
 * Where an Electron-ABI build of better-sqlite3 may live. Node (CLI, browser mode, tests) uses the
 * package's own build; the Electron app passes this file as `nativeBinding` when it exists, because
 * a build for one ABI crashes the other with a NODE_MODULE_VERSION error.
 */
export const ELECTRON_NATIVE_BINDING = path.join('native', 'electron', 'better_sqlite3.node');

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
  readonly?: boolean;
}

/**
 * Opens (creating if needed) a Crawlbench database in WAL mode and migrates it to the newest schema.
 * @param file path of the SQLite file, or ':memory:'
 * @throws CodedError DB_OPEN_FAILED when the file cannot be created or opened (unwritable folder, not SQLite)
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  let db: Database;
  try {
    // No recursive mkdir here: under procfs it loops forever (ENOENT read as "parent missing").
    // Callers that own a default location create its folder (see createParentFolder).
    if (file !== ':memory:' && !fs.existsSync(path.dirname(path.resolve(file)))) {
      throw new Error(`folder ${path.dirname(path.resolve(file))} does not exist`);
    }
    db = new BetterSqlite3(file, {
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.readonly ? { readonly: true, fileMustExist: true } : {}),
    });
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a killed process loses nothing committed; only power loss can drop the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!options.readonly) migrate(db);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CodedError('DB_OPEN_FAILED', `Cannot open database ${file}: ${reason}`);
  }
  return db;
}
