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

type Parsed<T> = { ok: true; value: T } | { ok: false; error: { code: 'INVALID_REQUEST_RULE'; message: string } };
const fail = (flag: string, text: string, message: string): { ok: false; error: { code: 'INVALID_REQUEST_RULE'; message: string } } => ({
  ok: false,
  error: { code: 'INVALID_REQUEST_RULE', message: `${flag} ${JSON.stringify(text.slice(0, 80))}: ${message}` },
});

/** `HOST=REST`: the host pattern checked as --resolve checks it. */
function split(flag: string, text: string): Parsed<{ host: string; rest: string }> {
  const equals = text.indexOf('=');
  if (equals <= 0) return fail(flag, text, 'expected HOST=…, HOST an exact host or *.suffix');
  const host = text.slice(0, equals).toLowerCase();
  const problem = overrideHostProblem(host);
  if (problem !== null) return fail(flag, text, `the host must be ${problem}`);
  return { ok: true, value: { host, rest: text.slice(equals + 1) } };
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
 * @returns the rules with the flag applied, or INVALID_REQUEST_RULE naming the flag
 */
export function addRequestFlag(rules: readonly RequestRuleSecrets[], flag: 'header' | 'auth' | 'cookie' | 'proxy', text: string): Parsed<RequestRuleSecrets[]> {
  const parts = split(`--${flag}`, text);
  if (!parts.ok) return parts;
  const { host, rest } = parts.value;
  if (hasControlCharacters(rest)) return fail(`--${flag}`, text, 'no control characters (CR, LF, …): they would split the request');
  const next = rules.map((rule) => ({ ...rule, headers: { ...rule.headers } }));
  let rule = next.find((r) => r.host === host);
  if (!rule) next.push((rule = emptyRule(host)));
  switch (flag) {
    case 'header': {
      const colon = rest.indexOf(':');
      const name = colon < 0 ? '' : rest.slice(0, colon).trim().toLowerCase();
      if (!TOKEN.test(name)) return fail('--header', text, 'expected HOST=Name: value');
      if (RESERVED_HEADERS.has(name)) return fail('--header', text, `the crawler sets ${name} itself`);
      rule.headers[name] = rest.slice(colon + 1).trim();
      break;
    }
    case 'auth': {
      const colon = rest.indexOf(':');
      if (colon <= 0) return fail('--auth', text, 'expected HOST=user:password');
      rule.auth = { username: rest.slice(0, colon), password: rest.slice(colon + 1) };
      break;
    }
    case 'cookie':
      if (rest.trim() === '' || !rest.includes('=')) return fail('--cookie', text, 'expected HOST=name=value[; name2=value2]');
      rule.cookie = rest.trim();
      break;
    case 'proxy': {
      const url = parseWhatwg(rest);
      if (!url) return fail('--proxy', text, 'expected HOST=http://proxy:port');
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('--proxy', text, 'the proxy must be an http: or https: URL');
      rule.proxy = url.href;
      break;
    }
  }
  return { ok: true, value: next };
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
