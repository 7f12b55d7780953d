/**
 * Where a crawl's request-rule secrets live (issue 14 part 4): a file of their own beside the
 * database (`crawl.db.secrets.json`, mode 0600: the owner alone reads it), keyed by crawl id, never
 * in the database, so no checkpoint, export, snapshot or settings hash holds them. A resumed crawl
 * reads them back; delete the file to forget them (the crawl then asks for them again).
 */
import path from 'node:path';
import { hasDatabaseFile, readPrivateJson, writePrivateJson, type SecretsDatabase } from './private-json-file';
import { missingSecrets, type RequestRule, type RequestRuleSecrets } from '../../shared/types/request-rules';
import { CodedError } from '../../shared/types/result';

/** The secrets file of database file `dbFile`. */
export function secretsFileOf(dbFile: string): string {
  return `${path.resolve(dbFile)}.secrets.json`;
}

/** Every crawl's rules in a secrets file, by crawl id; {} when the file is missing. @throws CodedError REQUEST_SECRETS_UNREADABLE */
function readAll(file: string): Record<string, RequestRuleSecrets[]> {
  return readPrivateJson(file, 'REQUEST_SECRETS_UNREADABLE', 'fix or delete it, then give --header/--auth/--cookie/--proxy again') as Record<string, RequestRuleSecrets[]>;
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
  writePrivateJson(file, all);
}

/** Memory databases' rules, by connection, then crawl id: they live as long as the connection, never on disk. */
const inMemory = new WeakMap<SecretsDatabase, Map<number, RequestRuleSecrets[]>>();

/**
 * Keeps crawl `crawlId`'s rules with their secrets for a later resume: in `<db>.secrets.json`
 * (mode 0600, {@link saveRequestSecrets}) for a file database, in this process's memory only for a
 * memory database. No rules removes the crawl's kept ones.
 * @throws CodedError REQUEST_SECRETS_UNREADABLE when the secrets file is not one; the file system's error when it cannot be written
 */
export function keepRequestSecrets(db: SecretsDatabase, crawlId: number, rules: readonly RequestRuleSecrets[]): void {
  if (hasDatabaseFile(db)) return saveRequestSecrets(db.name, crawlId, rules);
  let kept = inMemory.get(db);
  if (!kept) inMemory.set(db, (kept = new Map()));
  if (rules.length === 0) kept.delete(crawlId);
  else kept.set(crawlId, [...rules]);
}

/**
 * The rules with secrets kept for crawl `crawlId` ({@link keepRequestSecrets}); [] when none are.
 * @throws CodedError REQUEST_SECRETS_UNREADABLE
 */
export function keptRequestSecrets(db: SecretsDatabase, crawlId: number): RequestRuleSecrets[] {
  if (hasDatabaseFile(db)) return loadRequestSecrets(db.name, crawlId);
  return [...(inMemory.get(db)?.get(crawlId) ?? [])];
}

/**
 * The rules with secrets a crawl needs to resume: its kept ones, checked against the masked rules
 * its settings name (`settings.requestRules`), so that it never goes on without them; a kept rule
 * for a host the settings do not name is left out.
 * @returns the rules to pass as the run's `requestRules` ([] when the crawl has none)
 * @throws CodedError REQUEST_SECRETS_MISSING naming the hosts whose secrets are not kept (the
 *   secrets file is gone or was edited, or the memory database's process ended);
 *   REQUEST_SECRETS_UNREADABLE when the secrets file is not one
 */
export function requestSecretsToResume(db: SecretsDatabase, crawlId: number, masked: readonly RequestRule[]): RequestRuleSecrets[] {
  const kept = keptRequestSecrets(db, crawlId);
  const missing = missingSecrets(masked, kept);
  if (missing.length > 0) {
    const where = hasDatabaseFile(db) ? `in ${secretsFileOf(db.name)}` : 'kept (the database is in memory: they lived only in the process that started the crawl)';
    throw new CodedError(
      'REQUEST_SECRETS_MISSING',
      `Crawl ${crawlId} sends request settings (headers, cookie, Basic auth or proxy) for ${missing.map((rule) => rule.host).join(', ')} whose secrets are not ${where}: it is not resumed without them; start a new crawl with them, or resume it with crawlbench resume and the --header/--auth/--cookie/--proxy flags`,
    );
  }
  // Only what the settings name is sent (kept rules of an older setting, e.g. before a checkpoint rollback, are not).
  const named = new Set(masked.map((rule) => rule.host));
  return kept.filter((rule) => named.has(rule.host));
}
