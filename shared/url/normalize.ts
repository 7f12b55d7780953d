/**
 * URL normalization (seed 002, RFC 3986 §6) under a profile: parse once, run the profile's rules
 * in {@link RULE_ORDER}, serialize once, derive the UUIDv5 key. `createNormalizer` precompiles a
 * profile and is the crawler's hot path; `normalizeUrl` is the convenient one-off form.
 */
import { normalizedKey } from './key';
import { parseUrlParts, parseUrlPartsFast, serializeUrlParts } from './parse';
import { compileRuleContext, PROFILES, validateProfile, type NormalizationProfile } from './profiles';
import type { ErrorInfo, Result } from './result';
import { RULE_FUNCTIONS, RULE_ORDER, type NormalizationRuleName, type RuleContext, type RuleFiring, type RuleFunction } from './rules';

/** A normalized URL: the normalized string, its key, and (when explained) the rules that fired. */
export interface NormalizedUrl {
  /** The normalized "URL" (seed 001: a perceptual hash that looks like a URL; ASCII). */
  normalized: string;
  /** UUIDv5 of `normalized` under NORMALIZED_KEY_NAMESPACE (key.ts). */
  key: string;
  /** With `explain`: each rule that changed the URL, in order, with the URL before and after. */
  rules?: RuleFiring[];
}

/** Options for {@link normalizeUrl} and {@link createNormalizer}. */
export interface NormalizeOptions {
  /** Record which rules fired, with before/after strings. @default false */
  explain?: boolean;
  /**
   * createNormalizer only: normalized strings whose keys are remembered, per cache generation
   * (two generations; 0 turns the cache off). @default 8192
   */
  keyCacheSize?: number;
}

interface CompiledProfile {
  names: NormalizationRuleName[];
  functions: RuleFunction[];
  context: RuleContext;
}

const compiled = new WeakMap<NormalizationProfile, CompiledProfile>();

function compile(profile: NormalizationProfile): CompiledProfile {
  const cached = compiled.get(profile);
  if (cached !== undefined) return cached;
  const valid = validateProfile(profile);
  if (!valid.ok) throw new TypeError(`Invalid normalization profile "${String((profile as { name?: unknown }).name)}": ${valid.error.message}`);
  const names = RULE_ORDER.filter((name) => valid.value.rules[name]);
  const result: CompiledProfile = { names, functions: names.map((name) => RULE_FUNCTIONS[name]), context: compileRuleContext(valid.value) };
  compiled.set(profile, result);
  return result;
}

/** Normalizes to a string, or returns the parse error; fills `firings` when given. */
function run(input: string, program: CompiledProfile, firings: RuleFiring[] | null): string | ErrorInfo {
  if (typeof input !== 'string') return { code: 'INVALID_URL', message: 'A URL must be a string' };
  let parts = parseUrlPartsFast(input);
  if (parts === null) {
    const parsed = parseUrlParts(input);
    if (!parsed.ok) return parsed.error;
    parts = parsed.value;
  }
  const { functions, context } = program;
  if (firings === null) {
    for (let i = 0; i < functions.length; i++) functions[i]!(parts, context);
    return serializeUrlParts(parts);
  }
  let before = serializeUrlParts(parts);
  for (let i = 0; i < functions.length; i++) {
    if (!functions[i]!(parts, context)) continue;
    const after = serializeUrlParts(parts);
    firings.push({ rule: program.names[i]!, before, after });
    before = after;
  }
  return before;
}

function finish(normalized: string | ErrorInfo, firings: RuleFiring[] | null, key: (normalized: string) => string): Result<NormalizedUrl> {
  if (typeof normalized !== 'string') return { ok: false, error: normalized };
  return { ok: true, value: firings === null ? { normalized, key: key(normalized) } : { normalized, key: key(normalized), rules: firings } };
}

/**
 * A two-generation cache in front of {@link normalizedKey}: many raw URLs share one normalized
 * string (every `page.html#anchor` link of a page), and the SHA-1 behind a key costs more than
 * the normalization itself.
 */
function cachedKeys(size: number): (normalized: string) => string {
  if (size <= 0) return normalizedKey;
  let current = new Map<string, string>();
  let previous = new Map<string, string>();
  return (normalized) => {
    let key = current.get(normalized);
    if (key !== undefined) return key;
    key = previous.get(normalized) ?? normalizedKey(normalized);
    if (current.size >= size) {
      previous = current;
      current = new Map();
    }
    current.set(normalized, key);
    return key;
  };
}

/**
 * Precompiles `profile` and returns a normalizer: raw URL → normalized string + UUIDv5 key.
 * The returned function is safe to call millions of times (the crawler's hot path); keys of
 * recently seen normalized strings are cached (`options.keyCacheSize`), which changes nothing
 * but speed: many raw URLs share a normalized string and the SHA-1 costs more than normalizing.
 * @throws TypeError when `profile` fails {@link validateProfile} (checked once, here)
 * @returns for each input a Result: the normalized URL, or an error with code MISSING_SCHEME,
 *   INVALID_HOST, INVALID_PORT or INVALID_URL
 * @example createNormalizer(PROFILES.standard)('HTTP://Example.com:80/a/./b/index.html?utm_source=x#top') → ok({ normalized: 'http://example.com/a/b/', key: '…' })
 */
export function createNormalizer(profile: NormalizationProfile, options: NormalizeOptions = {}): (input: string) => Result<NormalizedUrl> {
  const program = compile(profile);
  const explain = options.explain === true;
  const key = cachedKeys(options.keyCacheSize ?? 8192);
  return (input) => {
    const firings = explain ? [] : null;
    return finish(run(input, program, firings), firings, key);
  };
}

/**
 * Like {@link createNormalizer} but returns only the normalized string (no key): for grouping in
 * memory, display, or measuring normalization alone.
 * @throws TypeError when `profile` fails {@link validateProfile}
 * @example createStringNormalizer(PROFILES.safe)('http://a/b/%7e') → ok('http://a/b/~')
 */
export function createStringNormalizer(profile: NormalizationProfile): (input: string) => Result<string> {
  const program = compile(profile);
  return (input) => {
    const normalized = run(input, program, null);
    return typeof normalized === 'string' ? { ok: true, value: normalized } : { ok: false, error: normalized };
  };
}

/**
 * Normalizes one URL under a profile. Compiled profiles are cached per profile object, so treat
 * a profile as immutable once used: after editing one, pass a new object (as settings updates do).
 * @param profile @default PROFILES.standard
 * @throws TypeError when `profile` fails {@link validateProfile}
 * @returns the normalized URL, or an error (MISSING_SCHEME, INVALID_HOST, INVALID_PORT, INVALID_URL)
 * @example normalizeUrl('https://example.com/document/index.aspx', PROFILES.aggressive) → ok({ normalized: 'http://example.com/document', key: '…' })
 * @example normalizeUrl('http://www.example.com/display?lang=en&article=fred') → ok({ normalized: 'http://www.example.com/display?article=fred&lang=en', key: '…' })
 */
export function normalizeUrl(input: string, profile: NormalizationProfile = PROFILES.standard, options: NormalizeOptions = {}): Result<NormalizedUrl> {
  const firings = options.explain === true ? [] : null;
  return finish(run(input, compile(profile), firings), firings, normalizedKey);
}
