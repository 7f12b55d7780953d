import { validateRequestRules, type RequestRule, type RequestRuleError, type RequestRuleInput, type RequestRuleSecrets } from '../../../../shared/types/request-rules';

/**
 * The crawl form's "Request settings per host" as typed: one row per host pattern, checked by the
 * CLI's own checks (shared/types/request-rules.ts `validateRequestRules`, which IPC `crawl.start`
 * runs again in main). The secrets typed here go to main with the start and nowhere else: not into
 * the remembered form values (localStorage), not into the store.
 */

/** One extra header as typed. */
export interface HeaderRow {
  name: string;
  value: string;
}

/** One rule as typed; `key` tells React's list rows apart (never sent). */
export interface RequestRuleRow {
  key: number;
  /** An exact host (`example.com`) or `*.suffix`. */
  host: string;
  headers: HeaderRow[];
  /** The Cookie header's value, `name=value; name2=value2` ('' sends none). */
  cookie: string;
  /** HTTP Basic user name and password ('' and '' send no credentials). */
  username: string;
  password: string;
  /** `http://[user:password@]proxy:port` ('' fetches directly). */
  proxy: string;
}

/** A new, empty rule row with React key `key`. */
export function newRuleRow(key: number): RequestRuleRow {
  return { key, host: '', headers: [], cookie: '', username: '', password: '', proxy: '' };
}

/**
 * The rules as IPC takes them: the host and proxy trimmed, header rows with a name or a value (as
 * `[name, value]` pairs, so a name typed twice is found), the cookie when not blank, Basic auth
 * when a user name or password is typed (the password is sent as typed: spaces are part of it).
 */
export function ruleInputsOf(rows: readonly RequestRuleRow[]): RequestRuleInput[] {
  return rows.map((row) => ({
    host: row.host.trim(),
    headers: row.headers.filter((header) => header.name.trim() !== '' || header.value !== '').map((header) => [header.name, header.value] as const),
    auth: row.username === '' && row.password === '' ? null : { username: row.username, password: row.password },
    cookie: row.cookie.trim() === '' ? null : row.cookie,
    proxy: row.proxy.trim() === '' ? null : row.proxy.trim(),
  }));
}

/**
 * Reads the rows with the shared checks.
 * @returns the rules with their secrets (none for no rows), or the first problem: its rule (index
 *   into `rows`), field and, for a header, the index of its row in `row.headers`, with a message
 *   naming rule and field (never a secret)
 * @example readRuleRows([{ …, host: '*.', cookie: 'a=1' }]) → { ok: false, error: { rule: 0, field: 'host', message: 'Request rule 1, host: expected an exact host or *.suffix: "*" may only be …' } }
 */
export function readRuleRows(rows: readonly RequestRuleRow[]): { ok: true; rules: RequestRuleSecrets[] } | { ok: false; error: RequestRuleError } {
  const read = validateRequestRules(ruleInputsOf(rows));
  if (read.ok) return { ok: true, rules: read.value };
  const { error } = read;
  // The validator counts the header pairs sent; map that back to the typed row (blank rows are skipped).
  if (error.rule !== null && error.header !== undefined) {
    const row = rows[error.rule];
    const typed = row ? row.headers.map((header, index) => ({ header, index })).filter(({ header }) => header.name.trim() !== '' || header.value !== '') : [];
    const index = typed[error.header]?.index;
    return { ok: false, error: index === undefined ? error : { ...error, header: index } };
  }
  return { ok: false, error };
}

/**
 * One masked rule in words, as a crawl's stored settings show it (header names, the user name,
 * whether a cookie is sent, the proxy without credentials; no secret is in a masked rule).
 * @example maskedRuleText({ host: 'private.test', headers: ['x-api-key'], username: 'crawler', cookie: true, proxy: null }) → 'private.test: headers x-api-key; Basic auth user crawler; cookie: set'
 */
export function maskedRuleText(rule: RequestRule): string {
  const parts = [
    rule.headers.length > 0 ? `header${rule.headers.length === 1 ? '' : 's'} ${rule.headers.join(', ')}` : '',
    rule.username !== null ? `Basic auth user ${rule.username}` : '',
    rule.cookie ? 'cookie: set' : '',
    rule.proxy !== null ? `proxy ${rule.proxy}` : '',
  ].filter(Boolean);
  return `${rule.host}: ${parts.length > 0 ? parts.join('; ') : 'nothing set'}`;
}
