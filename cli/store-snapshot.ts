/**
 * A PostgreSQL crawl copied into a temporary SQLite file (engine copyCrawlsToSqlite), for the
 * read-side commands (`export`, `serve`) that then read it exactly as they read a --db file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CodedError } from '../shared/types/result';
import { copyCrawlsToSqlite, newestPostgresCrawl, openPostgresStore, postgresCrawlIds } from '../engine';

/** A snapshot in a temporary folder. */
export interface TempSnapshot {
  /** The SQLite crawl database. */
  file: string;
  /** The crawls it holds. */
  crawlIds: number[];
  /** The store URL as messages show it (no password). */
  shownUrl: string;
  /** When the snapshot was taken, epoch ms. */
  takenAtMs: number;
  /** Deletes the file and its folder. Safe to call twice. */
  remove(): void;
}

/**
 * Copies crawl `crawl` of the store at `url` (the newest when undefined; every crawl when `'all'`)
 * into a new SQLite file in a fresh temporary folder.
 * @throws CodedError CRAWL_NOT_FOUND (no such crawl, or a store without crawls), the store's
 *   errors (INVALID_STORE_URL, STORE_UNREACHABLE …) and the copy's (copyCrawlsToSqlite)
 */
export async function snapshotToTempFile(url: string, crawl: number | 'all' | undefined): Promise<TempSnapshot> {
  const store = await openPostgresStore(url, 2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-snapshot-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    let crawlIds: number[];
    if (crawl === 'all') crawlIds = await postgresCrawlIds(store);
    else {
      const id = crawl ?? (await newestPostgresCrawl(store));
      if (id === null) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${store.url}`);
      crawlIds = [id];
    }
    const file = path.join(dir, 'snapshot.db');
    const takenAtMs = Date.now();
    await copyCrawlsToSqlite(store, crawlIds, file);
    return { file, crawlIds, shownUrl: store.url, takenAtMs, remove };
  } catch (error) {
    remove();
    throw error;
  } finally {
    await store.close();
  }
}
