/**
 * DUST rules (Bar-Yossef, Keidar, Schonfeld 2007, "Do not crawl in the DUST"; seed 002,
 * "Normalization based on URL lists"): rewrites, learnt from one crawl, that send different URLs of
 * one host with similar text (DUST) to one spelling before normalization, so the URL-seen test
 * sees them as one URL. Two kinds:
 * - `substitution`: DustBuster's substring substitution on the path and query. One piece
 *   (`/print/` → `/`) or two pieces around a value that is carried over (`/story?id={v}` →
 *   `/story_{v}.html`: the id moves, the text around it changes); `endAnchored` ties the last
 *   piece to the end of the path and query (DustBuster's `$`).
 * - `parameter`: a query parameter whose values never change the content (`ref`), removed.
 * Rules are plain JSON (stored per crawl: crawl_rules, migration 0020); validate untrusted ones
 * with {@link validateDustRule}.
 */
import { err, ok, type Result } from '../result';

/** A substring-substitution rule (DustBuster's α → β), on one host's path and query. */
export interface SubstitutionRule {
  kind: 'substitution';
  /** The host it applies to (lowercase, as URLs are stored). */
  host: string;
  /** The pieces replaced, in order (1 or 2); between two pieces lies a carried-over value. */
  from: string[];
  /** What each piece becomes (same count as `from`). */
  to: string[];
  /** The last piece ends the path and query (DustBuster's `$`). */
  endAnchored: boolean;
}

/** A parameter rule: query parameter `name` (exact, case-sensitive as servers read it) is removed on `host`. */
export interface ParameterRule {
  kind: 'parameter';
  host: string;
  name: string;
}

/** A DUST rule, as mined and as stored with a crawl. */
export type DustRule = SubstitutionRule | ParameterRule;

/** Characters a carried-over value (between two pieces) may not hold: it is one value, not a path. */
const VALUE_STOP = /[/?&#=]/;

/** Longest piece accepted (characters): DustBuster's rules are short substrings. */
export const MAX_PIECE_CHARS = 64;

/** Splits an absolute URL into origin (`http://host:port`), host and path+query (no fragment); null when not a URL. */
export function splitUrl(url: string): { origin: string; host: string; pathAndQuery: string } | null {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*)([^#]*)/.exec(url);
  if (match === null) return null;
  const authority = match[2]!;
  const at = authority.lastIndexOf('@');
  const hostPort = at === -1 ? authority : authority.slice(at + 1);
  const host = (hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : hostPort.replace(/:\d*$/, '')).toLowerCase();
  const pathAndQuery = match[3] === '' ? '/' : match[3]!;
  return { origin: match[1]! + authority, host, pathAndQuery };
}

/** Applies a substitution to a path+query; null when the rule does not match it. */
function substitute(pathAndQuery: string, from: readonly string[], to: readonly string[], endAnchored: boolean): string | null {
  if (from.length === 1) {
    const piece = from[0]!;
    if (endAnchored) {
      if (!pathAndQuery.endsWith(piece)) return null;
      return pathAndQuery.slice(0, pathAndQuery.length - piece.length) + to[0]!;
    }
    if (piece === '') return null;
    const at = pathAndQuery.indexOf(piece);
    if (at === -1) return null;
    return pathAndQuery.slice(0, at) + to[0]! + pathAndQuery.slice(at + piece.length);
  }
  const [first, second] = from as [string, string];
  const at = pathAndQuery.indexOf(first);
  if (at === -1) return null;
  const valueStart = at + first.length;
  let valueEnd: number;
  if (endAnchored) {
    if (!pathAndQuery.endsWith(second) || pathAndQuery.length - second.length <= valueStart) return null;
    valueEnd = pathAndQuery.length - second.length;
  } else {
    valueEnd = pathAndQuery.indexOf(second, valueStart + 1);
    if (valueEnd === -1 || second === '') return null;
  }
  const value = pathAndQuery.slice(valueStart, valueEnd);
  if (value === '' || VALUE_STOP.test(value)) return null;
  return pathAndQuery.slice(0, at) + to[0]! + value + to[1]! + pathAndQuery.slice(valueEnd + second.length);
}

/** Removes every `name` / `name=value` pair from a path+query; null when none is there. */
function removeParameter(pathAndQuery: string, name: string): string | null {
  const question = pathAndQuery.indexOf('?');
  if (question === -1) return null;
  const pairs = pathAndQuery.slice(question + 1).split('&');
  const kept = pairs.filter((pair) => pair !== name && !pair.startsWith(name + '='));
  if (kept.length === pairs.length) return null;
  const query = kept.filter((pair) => pair !== '').join('&');
  return pathAndQuery.slice(0, question) + (query === '' ? '' : '?' + query);
}

/**
 * Applies one DUST rule to an absolute URL (its fragment is dropped when the rule fires).
 * @returns the rewritten URL, or null when the rule does not match (another host, piece absent)
 * @example applyDustRule('http://news.test/story?id=7', { kind: 'substitution', host: 'news.test', from: ['/story?id=', ''], to: ['/story_', '.html'], endAnchored: true }) → 'http://news.test/story_7.html'
 * @example applyDustRule('http://news.test/print/story_7.html', { kind: 'substitution', host: 'news.test', from: ['/print/'], to: ['/'], endAnchored: false }) → 'http://news.test/story_7.html'
 * @example applyDustRule('http://news.test/a?ref=home&x=1', { kind: 'parameter', host: 'news.test', name: 'ref' }) → 'http://news.test/a?x=1'
 */
export function applyDustRule(url: string, rule: DustRule): string | null {
  const parts = splitUrl(url);
  if (parts === null || parts.host !== rule.host) return null;
  const rewritten = rule.kind === 'parameter' ? removeParameter(parts.pathAndQuery, rule.name) : substitute(parts.pathAndQuery, rule.from, rule.to, rule.endAnchored);
  return rewritten === null ? null : parts.origin + rewritten;
}

/**
 * Applies rules in order, each at most once (DustBuster's canonization, one pass): the URL the
 * crawl's identity normalizes. Unchanged when none matches.
 * @example applyDustRules('http://news.test/print/story_7.html', [printRule]) → 'http://news.test/story_7.html'
 */
export function applyDustRules(url: string, rules: readonly DustRule[]): string {
  let current = url;
  for (const rule of rules) current = applyDustRule(current, rule) ?? current;
  return current;
}

/**
 * How a rule reads for people: `news.test: /story?id={v}$ → /story_{v}.html$`, `news.test: drop ?ref=`.
 * @example describeDustRule({ kind: 'substitution', host: 'a.test', from: ['/print/'], to: ['/'], endAnchored: false }) → 'a.test: /print/ → /'
 */
export function describeDustRule(rule: DustRule): string {
  if (rule.kind === 'parameter') return `${rule.host}: drop ?${rule.name}=`;
  const side = (pieces: readonly string[]) => pieces.join('{v}') + (rule.endAnchored ? '$' : '');
  return `${rule.host}: ${side(rule.from)} → ${side(rule.to)}`;
}

/** A stable identity of a rule (for counting support and refusing duplicates). */
export function dustRuleKey(rule: DustRule): string {
  return rule.kind === 'parameter' ? `p\u0000${rule.host}\u0000${rule.name}` : `s\u0000${rule.host}\u0000${rule.from.join('\u0001')}\u0000${rule.to.join('\u0001')}\u0000${rule.endAnchored ? 1 : 0}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPieceList(value: unknown): value is string[] {
  return Array.isArray(value) && (value.length === 1 || value.length === 2) && value.every((piece) => typeof piece === 'string' && piece.length <= MAX_PIECE_CHARS && !piece.includes('#'));
}

/**
 * Checks an untrusted DUST rule (a stored row, a CLI or IPC argument).
 * @returns a fresh copy, or INVALID_DUST_RULE naming the field
 * @example validateDustRule({ kind: 'parameter', host: 'a.test', name: '' }) → { ok: false, error: { code: 'INVALID_DUST_RULE', message: 'name must be a query parameter name (no "&", "=", "#")' } }
 */
export function validateDustRule(value: unknown): Result<DustRule> {
  const fail = (message: string): Result<DustRule> => err('INVALID_DUST_RULE', message);
  if (!isRecord(value)) return fail('a DUST rule must be an object');
  const host = value['host'];
  if (typeof host !== 'string' || host === '' || host !== host.toLowerCase() || /[/?#@\s]/.test(host)) return fail('host must be a lowercase host name');
  if (value['kind'] === 'parameter') {
    const name = value['name'];
    if (typeof name !== 'string' || name === '' || /[&=#\s]/.test(name)) return fail('name must be a query parameter name (no "&", "=", "#")');
    return ok({ kind: 'parameter', host, name });
  }
  if (value['kind'] !== 'substitution') return fail('kind must be "substitution" or "parameter"');
  const { from, to, endAnchored } = value;
  if (!isPieceList(from) || !isPieceList(to)) return fail(`from and to must be lists of 1 or 2 pieces of at most ${MAX_PIECE_CHARS} characters without "#"`);
  if (from.length !== to.length) return fail('from and to must have as many pieces');
  if (typeof endAnchored !== 'boolean') return fail('endAnchored must be true or false');
  if (from.join('\u0001') === to.join('\u0001')) return fail('from and to are the same: the rule would change nothing');
  if (from[0] === '' || to[0] === '') return fail('the first piece of from and to must not be empty (it says where the rule applies)');
  if (!endAnchored && (from[1] === '' || to[1] === '')) return fail('an empty second piece must be anchored at the end (endAnchored)');
  return ok({ kind: 'substitution', host, from: [...from], to: [...to], endAnchored });
}
