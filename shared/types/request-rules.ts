/**
 * Request settings per host pattern (issue 14 part 4): extra headers, a Cookie header, HTTP Basic
 * credentials (RFC 7617) and an HTTP(S) proxy for the hosts a pattern names (an exact host, or
 * `*.suffix` for every host under it, as `--resolve`). Their values are secrets: a crawl's settings
 * (and so its settings hash, exports, logs and checkpoints) keep only the masked {@link RequestRule};
 * the {@link RequestRuleSecrets} live in a file of their own beside the database
 * (app/services/request-secrets.ts) and reach the fetch workers in memory.
 */
import { overrideHostProblem } from '../url/host-override';
import { parseWhatwg } from '../url/whatwg-url';
import { hasControlCharacters } from './text-checks';

/** What a crawl's settings say of a rule: no secret, only what is set. */
export interface RequestRule {
  /** The host pattern: `example.com`, or `*.example.com` for every host under it. */
  host: string;
  /** Names of the extra headers sent (lower case); their values are secret. */
  headers: string[];
  /** The Basic auth user name, when credentials are sent (the password is secret). */
  username: string | null;
  /** True when a Cookie header is sent (its value is secret). */
  cookie: boolean;
  /** The proxy's URL without credentials (`http://proxy.example:3128`), when requests go through one. */
  proxy: string | null;
}

/** A rule with its secrets, as the fetcher applies it. */
export interface RequestRuleSecrets {
  host: string;
  /** Extra request headers, lower-case names. */
  headers: Record<string, string>;
  auth: { username: string; password: string } | null;
  /** The Cookie header's value (`a=1; b=2`). */
  cookie: string | null;
  /** The proxy URL (http: or https:), credentials included when it needs them. */
  proxy: string | null;
}

/** Request headers a rule may not set: the fetcher's own, and those of the connection (RFC 9110 §7.6.1). */
const RESERVED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'upgrade', 'te', 'keep-alive', 'proxy-connection', 'accept-encoding']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Most rules one crawl may have (one per host pattern; the masked list in crawl-settings.ts has the same bound). */
export const MAX_REQUEST_RULES = 100;
/** Most extra headers one rule may send (the masked list's bound too). */
export const MAX_RULE_HEADERS = 64;
/** Longest host pattern, in characters (`*.` included), as `--resolve` takes (shared/url/host-override.ts OVERRIDE_HOST). */
export const MAX_RULE_HOST_CHARS = 253;
/** Longest header name, in characters. */
export const MAX_HEADER_NAME_CHARS = 256;
/** Longest header value or Cookie value, in characters (8 KiB: servers commonly refuse longer header lines). */
export const MAX_REQUEST_VALUE_CHARS = 8192;
/** Longest Basic auth user name, in characters (the masked settings keep it). */
export const MAX_USERNAME_CHARS = 256;
/** Longest Basic auth password, in characters. */
export const MAX_PASSWORD_CHARS = 1024;
/** Longest proxy URL, in characters, as given and as parsed (the masked settings keep it without credentials). */
export const MAX_PROXY_CHARS = 2048;
/**
 * Most characters of one crawl's rules together: hosts, header names and values, user names,
 * passwords, cookies and proxies (1 Mi). Bounds an IPC `crawl.start` (shared/ipc/limits.ts).
 */
export const MAX_REQUEST_RULES_CHARS = 1024 * 1024;

/** A field's value read, or why it cannot be one (words for a message, never the value itself). */
type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };
const problem = (text: string): { ok: false; problem: string } => ({ ok: false, problem: text });
const NO_CONTROLS = 'no control characters (CR, LF, …): they would split the request';

/**
 * A host pattern, lower-cased: an exact host or `*.suffix`, checked as `--resolve` checks it
 * (shared/url/host-override.ts).
 */
function readRuleHost(host: string): Checked<string> {
  const lower = host.toLowerCase();
  const why = overrideHostProblem(lower);
  return why === null ? { ok: true, value: lower } : problem(`expected an exact host or *.suffix: ${why}`);
}

/** One extra header: a token name (lower-cased, not one the crawler sets) and a value without control characters, both trimmed. */
function readHeader(name: string, value: string): Checked<[string, string]> {
  const lower = name.trim().toLowerCase();
  if (lower.length > MAX_HEADER_NAME_CHARS) return problem(`a header name may be at most ${MAX_HEADER_NAME_CHARS} characters`);
  if (!TOKEN.test(lower)) return problem('a header name is letters, digits and !#$%&\'*+-.^_`|~ only (RFC 9110 token)');
  if (RESERVED_HEADERS.has(lower)) return problem(`the crawler sets ${lower} itself`);
  if (hasControlCharacters(value)) return problem(NO_CONTROLS);
  if (value.length > MAX_REQUEST_VALUE_CHARS) return problem(`a header value may be at most ${MAX_REQUEST_VALUE_CHARS} characters`);
  return { ok: true, value: [lower, value.trim()] };
}

/** HTTP Basic credentials (RFC 7617): a user name without `:`, a password (may be empty); no control characters. */
function readAuth(username: string, password: string): Checked<{ username: string; password: string }> {
  if (username === '') return problem('a user name is needed');
  if (username.includes(':')) return problem('the user name may not contain ":" (RFC 7617)');
  if (hasControlCharacters(username) || hasControlCharacters(password)) return problem(NO_CONTROLS);
  if (username.length > MAX_USERNAME_CHARS) return problem(`the user name may be at most ${MAX_USERNAME_CHARS} characters`);
  if (password.length > MAX_PASSWORD_CHARS) return problem(`the password may be at most ${MAX_PASSWORD_CHARS} characters`);
  return { ok: true, value: { username, password } };
}

/** A Cookie header's value, trimmed: `name=value[; name2=value2]`, no control characters. */
function readCookie(cookie: string): Checked<string> {
  if (hasControlCharacters(cookie)) return problem(NO_CONTROLS);
  const trimmed = cookie.trim();
  if (trimmed === '' || !trimmed.includes('=')) return problem('expected name=value[; name2=value2]');
  if (trimmed.length > MAX_REQUEST_VALUE_CHARS) return problem(`the cookie may be at most ${MAX_REQUEST_VALUE_CHARS} characters`);
  return { ok: true, value: trimmed };
}

/** A proxy URL, as the WHATWG parser writes it: http: or https:, credentials allowed, no control characters. */
function readProxy(proxy: string): Checked<string> {
  if (hasControlCharacters(proxy)) return problem(NO_CONTROLS);
  const url = proxy.length > MAX_PROXY_CHARS ? null : parseWhatwg(proxy);
  if (!url) return problem(proxy.length > MAX_PROXY_CHARS ? `the proxy URL may be at most ${MAX_PROXY_CHARS} characters` : 'expected http://proxy:port');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return problem('the proxy must be an http: or https: URL');
  if (url.href.length > MAX_PROXY_CHARS) return problem(`the proxy URL may be at most ${MAX_PROXY_CHARS} characters`);
  return { ok: true, value: url.href };
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: { code: 'INVALID_REQUEST_RULE'; message: string } };
/** A flag's error: the flag, what it names before any secret (`HOST=…`, a header's name), and the problem. */
const fail = (flag: string, shown: string, message: string): { ok: false; error: { code: 'INVALID_REQUEST_RULE'; message: string } } => ({
  ok: false,
  error: { code: 'INVALID_REQUEST_RULE', message: `${flag}${shown === '' ? '' : ` ${JSON.stringify(shown.slice(0, 80))}`}: ${message}` },
});

/** `HOST=REST`: the host pattern checked as --resolve checks it. */
function split(flag: string, text: string): Parsed<{ host: string; rest: string }> {
  const equals = text.indexOf('=');
  if (equals <= 0) return fail(flag, '', 'expected HOST=…, HOST an exact host or *.suffix');
  const host = readRuleHost(text.slice(0, equals));
  if (!host.ok) return fail(flag, `${text.slice(0, equals)}=…`, host.problem);
  return { ok: true, value: { host: host.value, rest: text.slice(equals + 1) } };
}

/** An empty rule for `host`, to add secrets to. */
export function emptyRule(host: string): RequestRuleSecrets {
  return { host, headers: {}, auth: null, cookie: null, proxy: null };
}

/**
 * Adds one `--header`, `--auth`, `--cookie` or `--proxy` flag to the rules (one rule per host
 * pattern; a later flag for the same thing replaces the earlier):
 * - `--header 'HOST=Name: value'` (not Host, Connection, Accept-Encoding … nor control characters)
 * - `--auth 'HOST=user:password'` (HTTP Basic, RFC 7617: the user name has no `:`)
 * - `--cookie 'HOST=name=value; name2=value2'`
 * - `--proxy 'HOST=http://[user:password@]proxy:port'` (http: or https:)
 * Each value is checked by the same field checks as {@link validateRequestRules}.
 * @returns the rules with the flag applied, or INVALID_REQUEST_RULE naming the flag (and the host,
 *   and a header's name; never a secret value)
 */
export function addRequestFlag(rules: readonly RequestRuleSecrets[], flag: 'header' | 'auth' | 'cookie' | 'proxy', text: string): Parsed<RequestRuleSecrets[]> {
  const name = `--${flag}`;
  const parts = split(name, text);
  if (!parts.ok) return parts;
  const { host, rest } = parts.value;
  const shown = `${host}=…`;
  const next = rules.map((rule) => ({ ...rule, headers: { ...rule.headers } }));
  let rule = next.find((r) => r.host === host);
  if (!rule) next.push((rule = emptyRule(host)));
  switch (flag) {
    case 'header': {
      const colon = rest.indexOf(':');
      if (colon < 0) return fail(name, shown, 'expected HOST=Name: value');
      const header = readHeader(rest.slice(0, colon), rest.slice(colon + 1));
      if (!header.ok) return fail(name, `${host}=${rest.slice(0, colon).trim()}: …`, header.problem);
      // fromEntries defines the name as an own property (a `__proto__` header stays a header).
      rule.headers = { ...rule.headers, ...Object.fromEntries([header.value]) };
      break;
    }
    case 'auth': {
      const colon = rest.indexOf(':');
      if (colon <= 0) return fail(name, shown, 'expected HOST=user:password');
      const auth = readAuth(rest.slice(0, colon), rest.slice(colon + 1));
      if (!auth.ok) return fail(name, shown, auth.problem);
      rule.auth = auth.value;
      break;
    }
    case 'cookie': {
      const cookie = readCookie(rest);
      if (!cookie.ok) return fail(name, shown, cookie.problem);
      rule.cookie = cookie.value;
      break;
    }
    case 'proxy': {
      const proxy = readProxy(rest);
      if (!proxy.ok) return fail(name, shown, proxy.problem);
      rule.proxy = proxy.value;
      break;
    }
  }
  return { ok: true, value: next };
}

/**
 * A rule as a client gives it (IPC `crawl.start`'s `requestRules`, the crawl form): like
 * {@link RequestRuleSecrets}, the headers as a record or as `[name, value]` pairs (a form's rows,
 * where a name may repeat).
 */
export interface RequestRuleInput {
  host: string;
  headers: Readonly<Record<string, string>> | readonly (readonly [string, string])[];
  auth: { username: string; password: string } | null;
  cookie: string | null;
  proxy: string | null;
}

/** The part of a rule a problem is in: the list as a whole (`rule` null), a field, or the rule (it sets nothing). */
export type RequestRuleField = 'rules' | 'rule' | 'host' | 'headers' | 'auth' | 'cookie' | 'proxy';

/** Why a list of rules is refused, and where: `rule` (0-based) and, for a header, its position in the rule's headers. */
export interface RequestRuleError {
  code: 'INVALID_REQUEST_RULE';
  /** Names the rule (number and host) and the field; never a secret value. */
  message: string;
  rule: number | null;
  field: RequestRuleField;
  header?: number;
}

/** The characters a rule holds in all: host, header names and values, user, password, cookie, proxy (what {@link MAX_REQUEST_RULES_CHARS} bounds). */
export function requestRuleChars(rule: RequestRuleInput): number {
  const headers = Array.isArray(rule.headers) ? (rule.headers as readonly (readonly [string, string])[]) : Object.entries(rule.headers);
  let chars = rule.host.length + (rule.cookie?.length ?? 0) + (rule.proxy?.length ?? 0) + (rule.auth ? rule.auth.username.length + rule.auth.password.length : 0);
  for (const [name, value] of headers) chars += name.length + value.length;
  return chars;
}

/**
 * Validates rules a client sends (the crawl form, IPC `crawl.start`) with the checks of the CLI's
 * flags ({@link addRequestFlag}): each host pattern as `--resolve` (lower-cased), header names a
 * token the crawler does not set itself, no control characters anywhere (CR/LF would split the
 * request), a user name without `:`, a cookie `name=value[; …]`, an http:/https: proxy; and the
 * list's bounds: at most {@link MAX_REQUEST_RULES} rules, one per host pattern, each setting
 * something, at most {@link MAX_RULE_HEADERS} headers each with no name twice, values and
 * cookies of at most {@link MAX_REQUEST_VALUE_CHARS} characters, {@link MAX_REQUEST_RULES_CHARS}
 * in all. Header names and values and the cookie are trimmed, the proxy URL normalized.
 * @returns the rules as the fetcher applies them (in the given order; an empty list is fine), or
 *   the first problem: INVALID_REQUEST_RULE with a message naming the rule and field, e.g.
 *   `Request rule 1 (private.test), header "x-a": no control characters (CR, LF, …): they would split the request`
 */
export function validateRequestRules(rules: readonly RequestRuleInput[]): { ok: true; value: RequestRuleSecrets[] } | { ok: false; error: RequestRuleError } {
  const refuse = (rule: number | null, field: RequestRuleField, message: string, header?: number): { ok: false; error: RequestRuleError } => ({
    ok: false,
    error: { code: 'INVALID_REQUEST_RULE', message, rule, field, ...(header === undefined ? {} : { header }) },
  });
  if (rules.length > MAX_REQUEST_RULES) return refuse(null, 'rules', `At most ${MAX_REQUEST_RULES} request rules (one per host pattern), not ${rules.length}`);
  const total = rules.reduce((sum, rule) => sum + requestRuleChars(rule), 0);
  if (total > MAX_REQUEST_RULES_CHARS) return refuse(null, 'rules', `The request rules together may be at most ${MAX_REQUEST_RULES_CHARS} characters, not ${total}`);
  const out: RequestRuleSecrets[] = [];
  const hosts = new Map<string, number>();
  for (const [index, input] of rules.entries()) {
    const where = (what: string) => `Request rule ${index + 1}${what}`;
    const host = readRuleHost(input.host);
    if (!host.ok) return refuse(index, 'host', `${where('')}, host: ${host.problem}`);
    const named = (what: string) => where(` (${host.value})${what}`);
    const earlier = hosts.get(host.value);
    if (earlier !== undefined) return refuse(index, 'host', `${named(', host')}: rule ${earlier + 1} is for ${host.value} already (one rule per host pattern)`);
    hosts.set(host.value, index);
    const pairs = Array.isArray(input.headers) ? (input.headers as readonly (readonly [string, string])[]) : Object.entries(input.headers);
    if (pairs.length > MAX_RULE_HEADERS) return refuse(index, 'headers', `${named(', headers')}: at most ${MAX_RULE_HEADERS}, not ${pairs.length}`);
    const headers = new Map<string, string>();
    for (const [position, [name, value]] of pairs.entries()) {
      const header = readHeader(name, value);
      const shown = JSON.stringify(name.trim().slice(0, 80).toLowerCase());
      if (!header.ok) return refuse(index, 'headers', `${named(`, header ${shown}`)}: ${header.problem}`, position);
      if (headers.has(header.value[0])) return refuse(index, 'headers', `${named(`, header ${shown}`)}: given twice`, position);
      headers.set(header.value[0], header.value[1]);
    }
    let auth: RequestRuleSecrets['auth'] = null;
    if (input.auth !== null) {
      const read = readAuth(input.auth.username, input.auth.password);
      if (!read.ok) return refuse(index, 'auth', `${named(', Basic auth')}: ${read.problem}`);
      auth = read.value;
    }
    let cookie: string | null = null;
    if (input.cookie !== null) {
      const read = readCookie(input.cookie);
      if (!read.ok) return refuse(index, 'cookie', `${named(', cookie')}: ${read.problem}`);
      cookie = read.value;
    }
    let proxy: string | null = null;
    if (input.proxy !== null) {
      const read = readProxy(input.proxy);
      if (!read.ok) return refuse(index, 'proxy', `${named(', proxy')}: ${read.problem}`);
      proxy = read.value;
    }
    if (headers.size === 0 && auth === null && cookie === null && proxy === null) {
      return refuse(index, 'rule', `${named('')} sets nothing: give it a header, a cookie, Basic auth or a proxy, or remove it`);
    }
    out.push({ host: host.value, headers: Object.fromEntries(headers), auth, cookie, proxy });
  }
  return { ok: true, value: out };
}

/** A proxy URL without its credentials, for display. */
function proxyShown(proxy: string): string {
  const url = parseWhatwg(proxy);
  return url === null ? '' : `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * The masked form a crawl's settings keep: header names, the user name, whether a cookie is sent,
 * the proxy without credentials. Sorted by host, so equal rules make equal settings.
 */
export function maskRequestRules(rules: readonly RequestRuleSecrets[]): RequestRule[] {
  return [...rules]
    .sort((a, b) => a.host.localeCompare(b.host))
    .map((rule) => ({ host: rule.host, headers: Object.keys(rule.headers).sort(), username: rule.auth?.username ?? null, cookie: rule.cookie !== null, proxy: rule.proxy === null ? null : proxyShown(rule.proxy) }));
}

/**
 * The rules whose secrets are missing from `secrets` (a resumed crawl whose secrets file is gone):
 * each masked rule must have a secret rule for its host with the same header names, user, cookie and proxy.
 */
export function missingSecrets(masked: readonly RequestRule[], secrets: readonly RequestRuleSecrets[]): RequestRule[] {
  const shown = new Map(maskRequestRules(secrets).map((rule) => [rule.host, JSON.stringify(rule)]));
  return masked.filter((rule) => shown.get(rule.host) !== JSON.stringify(rule));
}
