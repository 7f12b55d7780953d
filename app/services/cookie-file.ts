/**
 * Where a crawl's cookie jar lives between runs (issue 14 part 4): a file of its own beside the
 * database (`crawl.db.cookies.json`, mode 0600), keyed by crawl id, never in the database, so no
 * checkpoint, export or snapshot holds a session cookie. A resumed crawl reads its jar back;
 * delete the file to forget every crawl's cookies.
 */
import path from 'node:path';
import { readPrivateJson, writePrivateJson } from './private-json-file';

const UNREADABLE_HINT = 'fix or delete it (the crawls then start with empty cookie jars)';

/** The cookies file of database file `dbFile`. */
export function cookiesFileOf(dbFile: string): string {
  return `${path.resolve(dbFile)}.cookies.json`;
}

/**
 * The kept cookie jar of crawl `crawlId` (CrawlCookieJar.serialize's JSON), or null when none was kept.
 * @throws CodedError COOKIE_JAR_UNREADABLE when the file cannot be read or is not a cookies file
 */
export function loadCookieJar(dbFile: string, crawlId: number): string | null {
  const kept = readPrivateJson(cookiesFileOf(dbFile), 'COOKIE_JAR_UNREADABLE', UNREADABLE_HINT)[String(crawlId)];
  return kept === undefined ? null : JSON.stringify(kept);
}

/**
 * Keeps crawl `crawlId`'s jar (`serialized`: CrawlCookieJar.serialize's JSON), replacing its earlier one.
 * @throws CodedError COOKIE_JAR_UNREADABLE (the file holds something else); the file system's
 *   error when it cannot be written (ENOSPC …)
 */
export function saveCookieJar(dbFile: string, crawlId: number, serialized: string): void {
  const file = cookiesFileOf(dbFile);
  const all = readPrivateJson(file, 'COOKIE_JAR_UNREADABLE', UNREADABLE_HINT);
  all[String(crawlId)] = JSON.parse(serialized) as unknown;
  writePrivateJson(file, all);
}
