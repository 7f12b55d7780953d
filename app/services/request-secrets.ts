/**
 * Where a crawl's request-rule secrets live (issue 14 part 4): a file of their own beside the
 * database (`crawl.db.secrets.json`, mode 0600: the owner alone reads it), keyed by crawl id, never
 * in the database, so no checkpoint, export, snapshot or settings hash holds them. A resumed crawl
 * reads them back; delete the file to forget them (the crawl then asks for them again).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RequestRuleSecrets } from '../../shared/types/request-rules';
import { CodedError } from '../../shared/types/result';

/** The secrets file of database file `dbFile`. */
export function secretsFileOf(dbFile: string): string {
  return `${path.resolve(dbFile)}.secrets.json`;
}

/** Every crawl's rules in a secrets file, by crawl id; {} when the file is missing. @throws CodedError REQUEST_SECRETS_UNREADABLE */
function readAll(file: string): Record<string, RequestRuleSecrets[]> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CodedError('REQUEST_SECRETS_UNREADABLE', `Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, RequestRuleSecrets[]>;
  } catch (error) {
    throw new CodedError('REQUEST_SECRETS_UNREADABLE', `${file} is not a Crawlbench secrets file (${(error as Error).message}): fix or delete it, then give --header/--auth/--cookie/--proxy again`);
  }
}

/** The request rules with secrets of crawl `crawlId` of database `dbFile` ([] when none were kept). */
export function loadRequestSecrets(dbFile: string, crawlId: number): RequestRuleSecrets[] {
  return readAll(secretsFileOf(dbFile))[String(crawlId)] ?? [];
}

/**
 * Keeps the rules of crawl `crawlId` (replacing its earlier ones; none removes its entry), written
 * to a temporary file with mode 0600 and renamed over the old, so a reader never sees half a file.
 */
export function saveRequestSecrets(dbFile: string, crawlId: number, rules: readonly RequestRuleSecrets[]): void {
  const file = secretsFileOf(dbFile);
  const all = readAll(file);
  if (rules.length === 0) {
    if (!(String(crawlId) in all)) return;
    delete all[String(crawlId)];
  } else all[String(crawlId)] = [...rules];
  const staging = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(staging, JSON.stringify(all), { mode: 0o600 });
  fs.chmodSync(staging, 0o600);
  fs.renameSync(staging, file);
}
