/**
 * Handles of a crawl database, by what they may do (as Signal Desktop's ReadableDB / WritableDB):
 * openDatabase(file, { readonly: true }) gives a ReadableDB, a read-write open a WritableDB. View
 * and export queries take a ReadableDB; writers (repositories, the frontier, the lease,
 * checkpoints) take a WritableDB, so passing a read handle to a writer is a compile error. A
 * WritableDB may be used wherever a ReadableDB is. Only store/sqlite imports the driver.
 */
import type { Database } from 'better-sqlite3';

export type { Database } from 'better-sqlite3';

declare const readableBrand: unique symbol;
declare const writableBrand: unique symbol;

/** A better-sqlite3 handle that only reads (a read-only open, or any handle lent to a reader). */
export type ReadableDB = Database & { readonly [readableBrand]: true };

/** A better-sqlite3 handle opened read-write, migrated: what writers take. */
export type WritableDB = ReadableDB & { readonly [writableBrand]: true };
