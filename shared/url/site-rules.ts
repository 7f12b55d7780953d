/**
 * Site rules: structure-aware rewrites for known sites (seed 001: "for certain sites, I have code
 * that can do structure-aware rewrites (like /w/index.php?title=... to /wiki/... for
 * Wikipedia)"), kept as editable JSON data (resources/tld/site-rules.json) and compiled here.
 *
 * A rule matches a URL when its host is listed, its path fits `path` and its query holds the
 * `query` parameters; the canonical URL is then `to` with the captures filled in.
 * - `hosts`: `example.com` matches that host only; `*.example.com` matches it and any subdomain.
 * - `path`: `/`-separated pattern; a segment is literal text, `{name}` (any one segment) or
 *   `{name:int}` (digits only); a final `/**` matches any remaining segments (or none).
 * - `query`: parameter name → `{name}` (capture its encoded value) or a literal required value.
 * - `otherQuery`: `forbid` (do not rewrite when other parameters are present: they may select a
 *   different view, as `action=edit` does) or `drop` (ignore them).
 * - `to`: `/path/{name}` keeps the URL's scheme and host; `https://host/{name}` is absolute.
 * - `spaces` (optional): what `+` and `%20` in captured values become (`_` for MediaWiki titles).
 */
import { err, ok, type Result } from './result';
import { parseWhatwg } from './whatwg-url';

/** One site rule, as stored in JSON. */
export interface SiteRule {
  id: string;
  description: string;
  hosts: string[];
  path: string;
  query?: Record<string, string>;
  otherQuery: 'forbid' | 'drop';
  to: string;
  spaces?: string;
}

/** The JSON document holding site rules. */
export interface SiteRuleSet {
  version: 1;
  rules: SiteRule[];
}

type SegmentPattern = { kind: 'literal'; text: string } | { kind: 'capture'; name: string; digits: boolean };

interface CompiledRule {
  rule: SiteRule;
  exactHosts: ReadonlySet<string>;
  suffixHosts: readonly string[];
  segments: readonly SegmentPattern[];
  rest: boolean;
  query: readonly { name: string; capture: string | null; literal: string }[];
}

/** Site rules compiled by {@link parseSiteRules}. */
export interface CompiledSiteRules {
  readonly rules: readonly CompiledRule[];
}

/** A rewrite that a site rule made. */
export interface SiteRewrite {
  url: string;
  ruleId: string;
}

const CAPTURE = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::(int))?\}$/;

function compileRule(rule: SiteRule, where: string): Result<CompiledRule> {
  const fail = (message: string): Result<CompiledRule> => err('INVALID_SITE_RULES', `${where}: ${message}`);
  if (!rule.path.startsWith('/')) return fail('path must start with "/"');
  const rawSegments = rule.path.split('/').slice(1);
  const rest = rawSegments[rawSegments.length - 1] === '**';
  if (rest) rawSegments.pop();
  const segments: SegmentPattern[] = [];
  const captures = new Set<string>();
  for (const segment of rawSegments) {
    const capture = CAPTURE.exec(segment);
    if (capture !== null) {
      segments.push({ kind: 'capture', name: capture[1]!, digits: capture[2] === 'int' });
      captures.add(capture[1]!);
    } else if (segment.includes('{') || segment.includes('*')) {
      return fail(`path segment "${segment}" must be literal, {name}, {name:int}, or a final /**`);
    } else {
      segments.push({ kind: 'literal', text: segment });
    }
  }
  const query: { name: string; capture: string | null; literal: string }[] = [];
  for (const [name, value] of Object.entries(rule.query ?? {})) {
    if (typeof value !== 'string') return fail(`query.${name} must be a string`);
    const capture = CAPTURE.exec(value);
    query.push({ name, capture: capture === null ? null : capture[1]!, literal: value });
    if (capture !== null) captures.add(capture[1]!);
  }
  for (const match of rule.to.matchAll(/\{([^}]*)\}/g)) {
    if (!captures.has(match[1]!)) return fail(`"to" uses {${match[1]!}}, which the path and query do not capture`);
  }
  if (!rule.to.startsWith('/') && parseWhatwg(rule.to.replaceAll(/\{[^}]*\}/g, 'x')) === null) {
    return fail('"to" must be a path ("/wiki/{title}") or an absolute URL');
  }
  const hosts = rule.hosts.map((host) => host.toLowerCase());
  return ok({
    rule,
    exactHosts: new Set(hosts.filter((host) => !host.startsWith('*.'))),
    suffixHosts: hosts.filter((host) => host.startsWith('*.')).map((host) => host.slice(2)),
    segments,
    rest,
    query,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates and compiles a site-rule document (the JSON in resources/tld/site-rules.json or a
 * user's edited copy).
 * @returns the compiled rules, or INVALID_SITE_RULES naming the rule and field
 * @example parseSiteRules({ version: 1, rules: [{ id: 'x', description: '', hosts: ['a.test'], path: 'q', otherQuery: 'drop', to: '/' }] }) → { ok: false, error: { code: 'INVALID_SITE_RULES', message: 'rules[0] (x): path must start with "/"' } }
 */
export function parseSiteRules(value: unknown): Result<CompiledSiteRules> {
  if (!isRecord(value) || value['version'] !== 1 || !Array.isArray(value['rules'])) {
    return err('INVALID_SITE_RULES', 'site rules must be { "version": 1, "rules": [...] }');
  }
  const compiled: CompiledRule[] = [];
  const ids = new Set<string>();
  for (const [index, candidate] of (value['rules'] as unknown[]).entries()) {
    const where = `rules[${index}]`;
    if (!isRecord(candidate)) return err('INVALID_SITE_RULES', `${where} must be an object`);
    const id = candidate['id'];
    if (typeof id !== 'string' || id === '') return err('INVALID_SITE_RULES', `${where}.id must be a non-empty string`);
    if (ids.has(id)) return err('INVALID_SITE_RULES', `${where}.id "${id}" is used twice`);
    ids.add(id);
    const named = `${where} (${id})`;
    for (const field of ['description', 'path', 'to'] as const) {
      if (typeof candidate[field] !== 'string') return err('INVALID_SITE_RULES', `${named}.${field} must be a string`);
    }
    const hosts = candidate['hosts'];
    if (!Array.isArray(hosts) || hosts.length === 0 || !hosts.every((host) => typeof host === 'string' && host !== '')) {
      return err('INVALID_SITE_RULES', `${named}.hosts must be a non-empty array of host names`);
    }
    if (candidate['otherQuery'] !== 'forbid' && candidate['otherQuery'] !== 'drop') {
      return err('INVALID_SITE_RULES', `${named}.otherQuery must be "forbid" or "drop"`);
    }
    if (candidate['query'] !== undefined && !isRecord(candidate['query'])) return err('INVALID_SITE_RULES', `${named}.query must be an object`);
    if (candidate['spaces'] !== undefined && typeof candidate['spaces'] !== 'string') return err('INVALID_SITE_RULES', `${named}.spaces must be a string`);
    const result = compileRule(candidate as unknown as SiteRule, named);
    if (!result.ok) return result;
    compiled.push(result.value);
  }
  return ok({ rules: compiled });
}

function hostMatches(rule: CompiledRule, host: string): boolean {
  if (rule.exactHosts.has(host)) return true;
  return rule.suffixHosts.some((suffix) => host === suffix || host.endsWith('.' + suffix));
}

function applyOne(rule: CompiledRule, origin: string, host: string, pathname: string, search: string): string | null {
  if (!hostMatches(rule, host)) return null;
  const segments = pathname.split('/').slice(1);
  if (rule.rest ? segments.length < rule.segments.length : segments.length !== rule.segments.length) return null;
  const captured = new Map<string, string>();
  for (const [index, pattern] of rule.segments.entries()) {
    const segment = segments[index]!;
    if (pattern.kind === 'literal') {
      if (segment !== pattern.text) return null;
    } else {
      if (segment === '' || (pattern.digits && !/^\d+$/.test(segment))) return null;
      captured.set(pattern.name, segment);
    }
  }
  const pairs = search === '' ? [] : search.slice(1).split('&').filter((pair) => pair !== '');
  const used = new Set<number>();
  for (const wanted of rule.query) {
    const index = pairs.findIndex((pair) => pair === wanted.name || pair.startsWith(wanted.name + '='));
    if (index === -1) return null;
    used.add(index);
    const value = pairs[index]!.slice(wanted.name.length + 1);
    if (wanted.capture === null) {
      if (value !== wanted.literal) return null;
    } else {
      if (value === '') return null;
      captured.set(wanted.capture, value);
    }
  }
  if (rule.rule.otherQuery === 'forbid' && used.size !== pairs.length) return null;
  const spaces = rule.rule.spaces;
  const filled = rule.rule.to.replaceAll(/\{([^}]*)\}/g, (_, name: string) => {
    const value = captured.get(name) ?? '';
    return spaces === undefined ? value : value.replaceAll('+', spaces).replaceAll('%20', spaces);
  });
  return filled.startsWith('/') ? origin + filled : filled;
}

/**
 * Rewrites a URL with the first site rule that matches it.
 * @returns the rewritten URL and the rule's id, or null when no rule matches (or `url` is not a URL)
 * @example applySiteRules('https://en.wikipedia.org/w/index.php?title=URL_normalization', rules) → { url: 'https://en.wikipedia.org/wiki/URL_normalization', ruleId: 'wikipedia-index-php-title' }
 * @example applySiteRules('https://stackoverflow.com/questions/1732348/regex-match-open-tags', rules) → { url: 'https://stackoverflow.com/questions/1732348', ruleId: 'stackoverflow-question-slug' }
 */
export function applySiteRules(url: string, rules: CompiledSiteRules): SiteRewrite | null {
  if (rules.rules.length === 0) return null;
  const parsed = parseWhatwg(url);
  if (parsed === null) return null;
  const origin = parsed.protocol + '//' + parsed.host;
  for (const rule of rules.rules) {
    const rewritten = applyOne(rule, origin, parsed.hostname, parsed.pathname, parsed.search);
    if (rewritten !== null) return { url: rewritten, ruleId: rule.rule.id };
  }
  return null;
}
