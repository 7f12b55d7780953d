/**
 * Normalization profiles: plain JSON data (a name, an on/off switch per rule and the lists some
 * rules read) so the app can keep custom profiles in its settings. Three are built in: `safe`,
 * `standard` (the default) and `aggressive`.
 */
import { err, ok, type Result } from './result';
import { RULE_INFO, RULE_ORDER, type NormalizationRuleName, type RuleContext } from './rules';

/** A normalization profile (JSON-serialisable; validate untrusted data with {@link validateProfile}). */
export interface NormalizationProfile {
  /** Shown in the GUI and written to exports; not used for lookups. */
  name: string;
  /** Which rules run; every rule of {@link RULE_ORDER} must be present. */
  rules: Record<NormalizationRuleName, boolean>;
  /** File names `removeDirectoryIndex` strips from the end of a path (compared case-insensitively). */
  directoryIndexes: string[];
  /** Query names `removeQueryParams` removes; `name*` matches a prefix; case-insensitive. */
  removeQueryParams: string[];
  /** `name=value` pairs `removeDefaultQueryParams` removes (value compared exactly, '' for `name=`). */
  defaultQueryParams: string[];
  /** Extensions without the dot that `removeFileExtension` strips (`html`). */
  fileExtensions: string[];
}

/** Names of the built-in profiles. */
export type BuiltInProfileName = 'safe' | 'standard' | 'aggressive';

/** Default directory index names (seed 002 lists index.html and default.asp; the rest are the common server defaults). */
export const DEFAULT_DIRECTORY_INDEXES: readonly string[] = [
  'index.html',
  'index.htm',
  'index.shtml',
  'index.php',
  'index.asp',
  'index.aspx',
  'index.jsp',
  'index.cfm',
  'default.asp',
  'default.aspx',
  'default.htm',
  'default.html',
];

/**
 * Default query names removed by `removeQueryParams`: campaign/click trackers (Google Analytics
 * `utm_*`, Google Ads `gclid`/`gclsrc`/`dclid`/`gbraid`/`wbraid`, Facebook `fbclid`, Microsoft
 * `msclkid`, Mailchimp `mc_cid`/`mc_eid`, Yandex `yclid`, HubSpot `_hsenc`/`_hsmi`, Marketo
 * `mkt_tok`, Instagram `igshid`, GA linker `_ga`/`_gl`) and session identifiers (PHP `PHPSESSID`,
 * Java `jsessionid`, ASP.NET `aspsessionid*`, ColdFusion `cfid`/`cftoken`, `sid`, `sessionid`).
 */
export const DEFAULT_REMOVED_QUERY_PARAMS: readonly string[] = [
  'utm_*',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  'yclid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'igshid',
  '_ga',
  '_gl',
  'phpsessid',
  'jsessionid',
  'aspsessionid*',
  'cfid',
  'cftoken',
  'sid',
  'sessionid',
  'session_id',
];

/** Default extensions stripped by `removeFileExtension` (seed 001: ".html", ".aspx"). */
export const DEFAULT_FILE_EXTENSIONS: readonly string[] = ['html', 'htm', 'shtml', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'cfm'];

function switches(on: readonly NormalizationRuleName[]): Record<NormalizationRuleName, boolean> {
  const rules = {} as Record<NormalizationRuleName, boolean>;
  for (const name of RULE_ORDER) rules[name] = on.includes(name);
  return rules;
}

const SAFE_RULES: readonly NormalizationRuleName[] = RULE_ORDER.filter((name) => RULE_INFO[name].semanticsPreserving);
const STANDARD_RULES: readonly NormalizationRuleName[] = [
  ...SAFE_RULES,
  'removeFragment',
  'removeDirectoryIndex',
  'removeQueryParams',
  'sortQueryParams',
  'removeEmptyQuery',
];
const AGGRESSIVE_RULES: readonly NormalizationRuleName[] = [...STANDARD_RULES, 'removeWww', 'foldHttpsToHttp', 'removeFileExtension', 'removeTrailingSlash'];

function builtIn(name: BuiltInProfileName, on: readonly NormalizationRuleName[]): NormalizationProfile {
  return Object.freeze({
    name,
    rules: Object.freeze(switches(on)),
    directoryIndexes: Object.freeze([...DEFAULT_DIRECTORY_INDEXES]) as string[],
    removeQueryParams: Object.freeze([...DEFAULT_REMOVED_QUERY_PARAMS]) as string[],
    defaultQueryParams: Object.freeze([]) as unknown as string[],
    fileExtensions: Object.freeze([...DEFAULT_FILE_EXTENSIONS]) as string[],
  });
}

/**
 * The built-in profiles (frozen):
 * - `safe`: only semantics-preserving rules (RFC 3986 §6.2.2-6.2.3): lowercase scheme and host,
 *   uppercase escapes, decode unreserved escapes, remove default port, remove dot-segments,
 *   add `/` to an empty path.
 * - `standard` (the default): safe + remove fragment, directory index, tracking/session query
 *   variables, sort query variables, remove an empty `?`.
 * - `aggressive`: standard + remove `www.`, fold https into http, strip the file extension and a
 *   trailing slash: seed 001's "perceptual hash", under which
 *   https://example.com/document/index.aspx, http://www.example.com/document.html and
 *   http://example.com/document/?utm_source=ref all become http://example.com/document.
 */
export const PROFILES: Readonly<Record<BuiltInProfileName, NormalizationProfile>> = Object.freeze({
  safe: builtIn('safe', SAFE_RULES),
  standard: builtIn('standard', STANDARD_RULES),
  aggressive: builtIn('aggressive', AGGRESSIVE_RULES),
});

/**
 * Makes an editable custom profile from a built-in one (deep copy, so it can be changed freely).
 * @example customProfile('mine', 'standard', { removeWww: true }).rules.removeWww → true
 */
export function customProfile(name: string, base: BuiltInProfileName, rules: Partial<Record<NormalizationRuleName, boolean>> = {}): NormalizationProfile {
  const from = PROFILES[base];
  return {
    name,
    rules: { ...from.rules, ...rules },
    directoryIndexes: [...from.directoryIndexes],
    removeQueryParams: [...from.removeQueryParams],
    defaultQueryParams: [...from.defaultQueryParams],
    fileExtensions: [...from.fileExtensions],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type ListField = 'directoryIndexes' | 'removeQueryParams' | 'defaultQueryParams' | 'fileExtensions';

/** Checks one list entry; returns why it is wrong, or null. */
function entryProblem(field: ListField, entry: string): string | null {
  if (entry.trim() !== entry || entry === '') return 'is empty or has surrounding spaces';
  switch (field) {
    case 'directoryIndexes':
      return /[/?#]/.test(entry) ? 'must be a file name (no "/", "?" or "#")' : null;
    case 'removeQueryParams': {
      if (entry === '*') return 'would remove every query variable (a lone "*")';
      const star = entry.indexOf('*');
      return /[&=#]/.test(entry) || (star !== -1 && star !== entry.length - 1)
        ? 'must be a query name, optionally ending in "*" (no "&", "=", "#")'
        : null;
    }
    case 'defaultQueryParams':
      return !entry.includes('=') || entry.startsWith('=') || entry.includes('&') ? 'must be "name=value" (value may be empty: "name=")' : null;
    case 'fileExtensions':
      return /^[a-z0-9]+$/.test(entry) ? null : 'must be lowercase letters and digits without the dot ("html")';
    default: {
      const exhaustive: never = field;
      return exhaustive;
    }
  }
}

/**
 * Checks that `value` is a complete, well-formed {@link NormalizationProfile} (for custom
 * profiles read from settings or typed in the GUI).
 * @returns the profile (a fresh copy), or INVALID_PROFILE with a message naming the field, e.g.
 *   `rules.removeWww must be true or false` or `removeQueryParams[2] "a=b" must be a query name…`
 * @example validateProfile({ name: 'x' }) → { ok: false, error: { code: 'INVALID_PROFILE', message: 'rules must be an object with one true/false switch per rule' } }
 */
export function validateProfile(value: unknown): Result<NormalizationProfile> {
  const fail = (message: string): Result<NormalizationProfile> => err('INVALID_PROFILE', message);
  if (!isRecord(value)) return fail('a profile must be an object');
  if (typeof value['name'] !== 'string' || value['name'].trim() === '') return fail('name must be a non-empty string');
  const rules = value['rules'];
  if (!isRecord(rules)) return fail('rules must be an object with one true/false switch per rule');
  for (const key of Object.keys(rules)) {
    if (!(RULE_ORDER as readonly string[]).includes(key)) return fail(`rules.${key} is not a rule (known rules: ${RULE_ORDER.join(', ')})`);
  }
  const switchesCopy = {} as Record<NormalizationRuleName, boolean>;
  for (const name of RULE_ORDER) {
    const on = rules[name];
    if (typeof on !== 'boolean') return fail(`rules.${name} must be true or false`);
    switchesCopy[name] = on;
  }
  const lists = {} as Record<ListField, string[]>;
  for (const field of ['directoryIndexes', 'removeQueryParams', 'defaultQueryParams', 'fileExtensions'] as const) {
    const list = value[field];
    if (!Array.isArray(list)) return fail(`${field} must be an array of strings`);
    for (const [index, entry] of list.entries()) {
      if (typeof entry !== 'string') return fail(`${field}[${index}] must be a string`);
      const problem = entryProblem(field, entry);
      if (problem !== null) return fail(`${field}[${index}] "${entry}" ${problem}`);
    }
    lists[field] = [...(list as string[])];
  }
  return ok({ name: value['name'], rules: switchesCopy, ...lists });
}

/**
 * Compiles a profile's lists into the lookup structures the rules read.
 * @example compileRuleContext(PROFILES.standard).removeParamPrefixes → ['utm_', 'aspsessionid']
 */
export function compileRuleContext(profile: NormalizationProfile): RuleContext {
  const removeParamNames = new Set<string>();
  const removeParamPrefixes: string[] = [];
  for (const entry of profile.removeQueryParams) {
    const lower = entry.toLowerCase();
    if (lower.endsWith('*')) removeParamPrefixes.push(lower.slice(0, -1));
    else removeParamNames.add(lower);
  }
  const defaultParams = new Map<string, Set<string>>();
  for (const entry of profile.defaultQueryParams) {
    const equals = entry.indexOf('=');
    const name = entry.slice(0, equals).toLowerCase();
    const values = defaultParams.get(name) ?? new Set<string>();
    values.add(entry.slice(equals + 1));
    defaultParams.set(name, values);
  }
  const directoryIndexes = new Set(profile.directoryIndexes.map((name) => name.toLowerCase()));
  const longest = Math.max(0, ...[...directoryIndexes].map((name) => name.length));
  const directoryIndexLengths = new Uint8Array(longest + 1);
  const directoryIndexFirstChars = new Uint8Array(128);
  for (const name of directoryIndexes) {
    directoryIndexLengths[name.length] = 1;
    const first = name.charCodeAt(0);
    // Non-ASCII first letters cannot use the table: mark every slot so nothing is rejected early.
    if (first < 128) directoryIndexFirstChars[first | 0x20] = 1;
    else directoryIndexFirstChars.fill(1);
  }
  return {
    directoryIndexes,
    directoryIndexLengths,
    directoryIndexFirstChars,
    removeParamNames,
    removeParamPrefixes,
    defaultParams,
    fileExtensions: new Set(profile.fileExtensions.map((extension) => extension.toLowerCase())),
  };
}
