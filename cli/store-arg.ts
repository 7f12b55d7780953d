/**
 * Which store a command's `--db FILE` / `--store VALUE` names (issue 13): a SQLite crawl database
 * file, or a PostgreSQL store URL. The one place that decides it, for every command.
 */
import { CodedError } from '../shared/types/result';
import { isPostgresUrl, redactStoreUrl } from '../engine';

/** A store as the command line names it. `url` keeps its password (for connecting; show it through redactStoreUrl). */
export type StoreArg = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/**
 * The store named by `--store` or `--db`: a `postgres://` or `postgresql://` value of `--store`
 * is a PostgreSQL store (USER[:PASSWORD]@HOST[:PORT]/DB, a host and a database name required);
 * any other `--store` value is a SQLite file path, as `--db` always is.
 * @returns null when neither flag is given
 * @throws CodedError INVALID_STORE_URL for a malformed postgres URL, for a postgres URL given to
 *   `--db` (it takes files), and for `--db` and `--store` naming different stores
 */
export function parseStoreArg(args: { db?: string | undefined; store?: string | undefined }): StoreArg | null {
  const { db, store } = args;
  if (db !== undefined && isPostgresUrl(db)) throw new CodedError('INVALID_STORE_URL', `--db takes a SQLite file; give the PostgreSQL store as --store ${redactStoreUrl(db)}`);
  if (db !== undefined && store !== undefined && db !== store) throw new CodedError('INVALID_STORE_URL', 'Give --db FILE or --store URL|FILE, not both');
  const value = store ?? db;
  if (value === undefined) return null;
  if (value === '') throw new CodedError('INVALID_STORE_URL', `${store !== undefined ? '--store' : '--db'} is empty: give a postgres://USER@HOST:PORT/DB URL or a SQLite file path`);
  if (!isPostgresUrl(value)) return { kind: 'sqlite', file: value };
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new CodedError('INVALID_STORE_URL', `${redactStoreUrl(value)} is not a valid URL: write postgres://USER@HOST:PORT/DB`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!parsed.hostname) throw new CodedError('INVALID_STORE_URL', `${redactStoreUrl(value)} names no host: write postgres://USER@HOST:PORT/DB`);
  if (!database || database.includes('/')) throw new CodedError('INVALID_STORE_URL', `${redactStoreUrl(value)} names no database (or a path): write postgres://USER@HOST:PORT/DB`);
  return { kind: 'postgres', url: value };
}
