/**
 * Registrable domains, by seed 000's algorithm ("How domain names are retrieved from URLs") or by
 * the Public Suffix List.
 *
 * Seed mode, exactly as the seed describes it:
 * 1. If the host's last term is in the generic list (`com`), the last two terms are the domain.
 * 2. Otherwise check the whole host against the additional list, then drop the first term and
 *    check again, until a suffix matches (the match plus one more term is the domain) or no
 *    terms remain.
 * 3. With no match, the last two terms are the domain and a DEBUG message is logged:
 *    `Failed to get the domain name for url: <url> using <result> as the default domain name`.
 *
 * PSL mode fills the additional list from the Public Suffix List (ICANN and PRIVATE sections)
 * and keeps step 2's order, but a check honours PSL rule kinds: a wildcard rule `*.kobe.jp`
 * matches any one label, an exception rule `!city.kobe.jp` matches and makes its parent the
 * suffix. Step 1 is NOT a shortcut in PSL mode: the seed's "generic TLD → last two terms" would
 * give `uk.com` for `example.uk.com`, while the PSL (private section) says `uk.com` is itself a
 * suffix. So the generic entries join the additional list as one-label rules and the longest
 * match wins; the trace still shows step 1's check. Checking longest suffix first and stopping
 * at the first match is the PSL's "most labels wins" rule; the PSL also says an exception beats
 * any other rule, which differs from longest-first only if a rule sits below an exception label
 * (the shipped list has none; the resolver follows the PSL when one exists). With no match, the
 * PSL's default rule `*` applies: the last two terms, the same as the seed's fallback, and the
 * same DEBUG message.
 *
 * Either way: IP addresses are their own registrable domain; a host that is itself a suffix
 * (`com`, `co.uk`) has none (null); `localhost` (RFC 6761) is its own domain in PSL mode; hosts
 * with empty labels (`.com`, `a..b`) are invalid. Labels keep the form they came in (Unicode or
 * punycode); hosts from the WHATWG URL parser are punycode.
 */
import { extractHost, fastHost, type ExtractedHost, type HostKind } from './host';
import { matchSuffix, withExtraRules, type PublicSuffixList, type SuffixNode, type SuffixRuleSource } from './psl';
import type { ErrorInfo } from './result';
import { validateTldConfig, type TldConfig } from './tld-config';

/** One step of the domain algorithm, for the GUI's step-by-step view. */
export interface TraceStep {
  step: 'host' | 'ip' | 'special' | 'invalid' | 'generic' | 'check' | 'fallback' | 'result';
  /** One sentence describing the step. */
  text: string;
  /** The term or suffix that was checked. */
  candidate?: string;
  matched?: boolean;
  /** The rule that matched, as written in its list (`co.uk`, `*.kobe.jp`, `!city.kobe.jp`). */
  rule?: string;
  source?: SuffixRuleSource;
}

/** The registrable domain of one host or URL. */
export interface DomainResult {
  input: string;
  /** Lowercase host without port or trailing dot ('' when none was found). */
  host: string;
  kind: HostKind;
  /** The registrable domain (eTLD+1), the IP address for IP hosts, null when there is none. */
  registrableDomain: string | null;
  /** The public suffix the domain was found under, null for IP addresses and invalid hosts. */
  publicSuffix: string | null;
  /** Grouping key that always exists: `registrableDomain ?? host`. */
  site: string;
  /** True when no list matched and the last-two-terms default was used (seed step 3 / PSL `*`). */
  fellBack: boolean;
  /** The seed's DEBUG message when `fellBack`. */
  message?: string;
  /** Why the host is unusable (kind `invalid`): code INVALID_HOST. */
  error?: ErrorInfo;
  /** The algorithm's steps; empty from a resolver made without `trace: true`. */
  trace: TraceStep[];
}

/** Receives the seed's DEBUG message when a lookup falls back to the last two terms. */
export type DomainLogger = (level: 'debug', message: string) => void;

/** Options for {@link createDomainResolver} and {@link registrableDomain}. */
export interface DomainOptions {
  logger?: DomainLogger;
  /** Record the trace (slower; the GUI's explain view). @default false for resolvers */
  trace?: boolean;
  /** Hosts kept per cache generation (two generations, so up to twice this; 0 turns the cache off). @default 4096 */
  cacheSize?: number;
}

type Engine =
  | { mode: 'seed'; generic: ReadonlySet<string>; additional: ReadonlySet<string> }
  | { mode: 'psl'; generic: ReadonlySet<string>; list: PublicSuffixList };

const SOURCE_NAMES: Readonly<Record<SuffixRuleSource, string>> = {
  icann: 'PSL rule (ICANN section)',
  private: 'PSL rule (PRIVATE section)',
  generic: 'generic-list entry',
  additional: 'additional-list entry',
};

/**
 * What to add to the TLD lists so a host stops falling back to its last two terms (the Settings
 * view's readable warning, in place of the seed's DEBUG line): its last term as a generic TLD,
 * or its last two terms as an additional TLD when names are registered under them.
 * @param host a valid host (lowercase labels)
 * @example fallbackAdvice('www.shop.example.zz') → 'No rule matches the suffix ".zz": add "zz" to the generic TLDs, or add "example.zz" to the additional TLDs if names are registered under it.'
 * @example fallbackAdvice('intranet') → 'No rule matches "intranet": add "intranet" to the generic TLDs if it is a top-level domain.'
 */
export function fallbackAdvice(host: string): string {
  const labels = host.split('.');
  const tld = labels[labels.length - 1]!;
  if (labels.length < 2) return `No rule matches "${host}": add "${host}" to the generic TLDs if it is a top-level domain.`;
  const lastTwo = labels.slice(-2).join('.');
  return `No rule matches the suffix ".${tld}": add "${tld}" to the generic TLDs, or add "${lastTwo}" to the additional TLDs if names are registered under it.`;
}

function fallbackMessage(input: string, result: string): string {
  return `Failed to get the domain name for url: ${input} using ${result} as the default domain name`;
}

/** `host` from the start of its `count`-th label from the right, or null when it has fewer labels. */
function lastLabels(host: string, count: number): string | null {
  let start = host.length;
  for (let i = 0; i < count; i++) {
    if (start <= 0) return null;
    start = host.lastIndexOf('.', start - 2) + 1;
    if (start === 0 && i < count - 1) return null;
  }
  return host.slice(start);
}

function makeResult(
  input: string,
  host: string,
  kind: HostKind,
  registrable: string | null,
  suffix: string | null,
  fellBack: boolean,
  trace: TraceStep[],
): DomainResult {
  const result: DomainResult = { input, host, kind, registrableDomain: registrable, publicSuffix: suffix, site: registrable ?? host, fellBack, trace };
  if (fellBack) result.message = fallbackMessage(input, registrable ?? host);
  return result;
}

/** The domain for a host whose public suffix starts at `suffixStart` (0: the host is a suffix). */
function fromSuffixStart(input: string, host: string, suffixStart: number, fellBack: boolean, trace: TraceStep[]): DomainResult {
  const registrable = suffixStart === 0 ? null : host.slice(host.lastIndexOf('.', suffixStart - 2) + 1);
  return makeResult(input, host, 'domain', registrable, host.slice(suffixStart), fellBack, trace);
}

/** Seed mode without a trace (hot path). */
function seedFast(engine: Extract<Engine, { mode: 'seed' }>, input: string, host: string): DomainResult {
  const lastDot = host.lastIndexOf('.');
  if (engine.generic.has(host.slice(lastDot + 1))) return fromSuffixStart(input, host, lastDot + 1, false, []);
  for (let start = 0; ; ) {
    if (engine.additional.has(host.slice(start))) return fromSuffixStart(input, host, start, false, []);
    const dot = host.indexOf('.', start);
    if (dot === -1) break;
    start = dot + 1;
  }
  const registrable = lastLabels(host, 2) ?? host;
  return makeResult(input, host, 'domain', registrable, lastDot === -1 ? null : host.slice(lastDot + 1), true, []);
}

/** PSL mode without a trace (hot path): walks the label trie from the last label. */
function pslFast(engine: Extract<Engine, { mode: 'psl' }>, input: string, host: string): DomainResult {
  if (host === 'localhost') return makeResult(input, host, 'domain', host, null, false, []);
  let node: SuffixNode = engine.list.root;
  let suffixStart = -1;
  let end = host.length;
  for (;;) {
    const dot = host.lastIndexOf('.', end - 1);
    const labelStart = dot + 1;
    const child = node.children.get(host.slice(labelStart, end));
    if (child !== undefined && child.exception !== null) {
      suffixStart = end + 1;
      break;
    }
    if (node.wildcard !== null) suffixStart = labelStart;
    if (child === undefined) break;
    if (child.rule !== null) suffixStart = labelStart;
    node = child;
    if (dot === -1) break;
    end = dot;
  }
  if (suffixStart !== -1) return fromSuffixStart(input, host, suffixStart, false, []);
  return fromSuffixStart(input, host, host.lastIndexOf('.') + 1, true, []);
}

/** Finds the trie node for a suffix given as labels (left to right), or undefined. */
function nodeFor(root: SuffixNode, labels: readonly string[]): SuffixNode | undefined {
  let node: SuffixNode | undefined = root;
  for (let i = labels.length - 1; i >= 0 && node !== undefined; i--) node = node.children.get(labels[i]!);
  return node;
}

/** Both modes with the step-by-step trace (the GUI's view; also the reference for tests). */
function traced(engine: Engine, input: string, host: string): DomainResult {
  const trace: TraceStep[] = [{ step: 'host', text: `Host: ${host}`, candidate: host }];
  const labels = host.split('.');
  const n = labels.length;
  const tld = labels[n - 1]!;
  const inGeneric = engine.generic.has(tld);
  if (engine.mode === 'psl' && host === 'localhost') {
    trace.push({ step: 'special', text: '"localhost" is a special-use name (RFC 6761): it is its own domain' });
    trace.push({ step: 'result', text: 'Registrable domain: localhost' });
    return makeResult(input, host, 'domain', host, null, false, trace);
  }
  if (engine.mode === 'seed') {
    trace.push({
      step: 'generic',
      candidate: tld,
      matched: inGeneric,
      ...(inGeneric ? { rule: tld, source: 'generic' as const } : {}),
      text: inGeneric ? `The generic TLD list contains "${tld}": the last two terms are the domain` : `The generic TLD list does not contain "${tld}"`,
    });
    if (inGeneric) {
      const registrable = n >= 2 ? labels.slice(n - 2).join('.') : null;
      trace.push({ step: 'result', text: registrable === null ? `"${host}" is itself a generic TLD: no registrable domain` : `Registrable domain: ${registrable}` });
      return makeResult(input, host, 'domain', registrable, tld, false, trace);
    }
  } else {
    trace.push({
      step: 'generic',
      candidate: tld,
      matched: inGeneric,
      ...(inGeneric ? { rule: tld, source: 'generic' as const } : {}),
      text: inGeneric
        ? `The generic TLD list contains "${tld}"; in PSL mode it is a one-label rule and a longer PSL rule may still match`
        : `The generic TLD list does not contain "${tld}"`,
    });
  }

  // Step 2: the whole host, then drop the first term, until something matches.
  const prevailing = engine.mode === 'psl' ? matchSuffix(engine.list, labels) : null;
  for (let i = 0; i < n; i++) {
    const candidate = labels.slice(i).join('.');
    let rule: string | null = null;
    let source: SuffixRuleSource | null = null;
    let suffixLabels = n - i;
    if (engine.mode === 'seed') {
      if (engine.additional.has(candidate)) {
        rule = candidate;
        source = 'additional';
      }
    } else {
      const node = nodeFor(engine.list.root, labels.slice(i));
      const parent = i + 1 < n ? nodeFor(engine.list.root, labels.slice(i + 1)) : engine.list.root;
      if (node?.exception != null) {
        rule = '!' + candidate;
        source = node.exception;
        suffixLabels = n - i - 1;
      } else if (node?.rule != null) {
        rule = candidate;
        source = node.rule;
      } else if (parent?.wildcard != null) {
        rule = '*.' + labels.slice(i + 1).join('.');
        source = parent.wildcard;
      }
    }
    const list = engine.mode === 'seed' ? 'the additional list' : 'any rule';
    if (rule === null || source === null) {
      trace.push({ step: 'check', candidate, matched: false, text: `"${candidate}" does not match ${list}` });
      continue;
    }
    if (prevailing !== null && (prevailing.suffixLabels !== suffixLabels || prevailing.rule !== rule)) {
      trace.push({ step: 'check', candidate, matched: true, rule, source, text: `"${candidate}" matches the ${SOURCE_NAMES[source]} "${rule}", but the exception rule "${prevailing.rule}" prevails (PSL)` });
      continue;
    }
    const exception = rule.startsWith('!');
    trace.push({
      step: 'check',
      candidate,
      matched: true,
      rule,
      source,
      text: exception
        ? `"${candidate}" matches the exception ${SOURCE_NAMES[source]} "${rule}": "${labels.slice(i + 1).join('.')}" is the suffix`
        : `"${candidate}" matches the ${SOURCE_NAMES[source]} "${rule}"`,
    });
    const suffixStartLabel = n - suffixLabels;
    const registrable = suffixStartLabel === 0 ? null : labels.slice(suffixStartLabel - 1).join('.');
    trace.push({
      step: 'result',
      text: registrable === null ? `"${host}" is itself a public suffix: no registrable domain` : `Registrable domain: ${registrable} (the match plus one more term)`,
    });
    return makeResult(input, host, 'domain', registrable, labels.slice(suffixStartLabel).join('.'), false, trace);
  }

  // Step 3 / the PSL default rule "*": the last two terms.
  const registrable = n >= 2 ? labels.slice(n - 2).join('.') : engine.mode === 'seed' ? host : null;
  const result = makeResult(input, host, 'domain', registrable, n >= 2 || engine.mode === 'psl' ? tld : null, true, trace);
  trace.push({
    step: 'fallback',
    text:
      (engine.mode === 'psl' ? 'No rule matched; the PSL default rule "*" applies: the last two terms. ' : 'No term matched the additional list: the last two terms. ') +
      (registrable === null ? `"${host}" is a single label: no registrable domain. ` : '') +
      fallbackAdvice(host),
  });
  trace.push({ step: 'result', text: registrable === null ? 'No registrable domain' : `Registrable domain: ${registrable} (the last two terms)` });
  return result;
}

function buildEngine(config: TldConfig, psl: PublicSuffixList | undefined): Engine {
  const valid = validateTldConfig(config);
  if (!valid.ok) throw new TypeError(`Invalid TLD settings: ${valid.error.message}`);
  const generic = new Set(valid.value.generic);
  if (valid.value.mode === 'seed') return { mode: 'seed', generic, additional: new Set(valid.value.additional) };
  if (psl === undefined) throw new TypeError('PSL mode needs a Public Suffix List (parsePublicSuffixList)');
  const extra = [
    ...valid.value.generic.map((rule) => ({ rule, source: 'generic' as const })),
    ...valid.value.additional.map((rule) => ({ rule, source: 'additional' as const })),
  ];
  return { mode: 'psl', generic, list: withExtraRules(psl, extra) };
}

function unusable(input: string, host: string, kind: HostKind, problem: string, withTrace: boolean): DomainResult {
  const result = makeResult(input, host, kind, null, null, false, withTrace ? [{ step: 'invalid', text: `Invalid host: ${problem}` }] : []);
  result.error = { code: 'INVALID_HOST', message: problem };
  return result;
}

function resolveExtracted(engine: Engine, input: string, extracted: ExtractedHost, withTrace: boolean): DomainResult {
  const host = extracted.host;
  if (extracted.kind === 'invalid') return unusable(input, host, 'invalid', extracted.problem ?? 'invalid host', withTrace);
  if (extracted.kind !== 'domain') {
    const trace: TraceStep[] = withTrace ? [{ step: 'ip', text: `"${host}" is an IP address: it is its own registrable domain` }] : [];
    return makeResult(input, host, extracted.kind, host, null, false, trace);
  }
  if (host.startsWith('.') || host.includes('..')) return unusable(input, host, 'invalid', `"${host}" has an empty label`, withTrace);
  if (withTrace) return traced(engine, input, host);
  return engine.mode === 'seed' ? seedFast(engine, input, host) : pslFast(engine, input, host);
}

/** The same result for another input with the same host (a literal, not a spread: hot path). */
function rebind(result: DomainResult, input: string): DomainResult {
  const copy: DomainResult = {
    input,
    host: result.host,
    kind: result.kind,
    registrableDomain: result.registrableDomain,
    publicSuffix: result.publicSuffix,
    site: result.site,
    fellBack: result.fellBack,
    trace: result.trace,
  };
  if (result.fellBack) copy.message = fallbackMessage(input, result.site);
  if (result.error !== undefined) copy.error = result.error;
  return copy;
}

/**
 * Creates a registrable-domain resolver (the crawler's hot path): settings are validated and
 * the PSL merged once, and results are cached per host (two generations of `cacheSize` hosts).
 * Results are shared between calls for the same input: treat them as read-only.
 * @param psl required in PSL mode (parse `resources/tld/public_suffix_list.dat`)
 * @throws TypeError when `config` fails {@link validateTldConfig} or PSL mode has no list
 * @returns hostOrUrl → {@link DomainResult}; the trace is empty unless `options.trace`
 * @example createDomainResolver({ mode: 'seed', generic: ['com'], additional: ['co.uk'] })('http://www.xyz.co.uk/') → { registrableDomain: 'xyz.co.uk', publicSuffix: 'co.uk', … }
 */
export function createDomainResolver(config: TldConfig, psl?: PublicSuffixList, options: DomainOptions = {}): (hostOrUrl: string) => DomainResult {
  const engine = buildEngine(config, psl);
  const withTrace = options.trace === true;
  const logger = options.logger;
  const limit = Math.max(0, options.cacheSize ?? 4096);
  let current = new Map<string, DomainResult>();
  let previous = new Map<string, DomainResult>();
  const remember = (host: string, result: DomainResult): void => {
    if (current.size >= limit) {
      previous = current;
      current = new Map();
    }
    current.set(host, result);
  };
  return (hostOrUrl) => {
    const input = typeof hostOrUrl === 'string' ? hostOrUrl : '';
    // Fast path: a plain host found in one scan, looked up before any other work.
    const quick = limit === 0 ? null : fastHost(input);
    let result = quick === null ? undefined : current.get(quick);
    if (result === undefined) {
      const extracted = extractHost(input);
      // Invalid inputs are not cached: their messages differ while their (empty) hosts do not.
      if (extracted.kind === 'invalid' || limit === 0) {
        result = resolveExtracted(engine, input, extracted, withTrace);
      } else {
        result = previous.get(extracted.host) ?? resolveExtracted(engine, input, extracted, withTrace);
        remember(extracted.host, result);
        if (quick !== null && quick !== extracted.host) remember(quick, result);
      }
    }
    if (result.input !== input) result = rebind(result, input);
    if (result.fellBack && logger !== undefined && result.message !== undefined) logger('debug', result.message);
    return result;
  };
}

const engines = new WeakMap<TldConfig, { psl: PublicSuffixList | undefined; engine: Engine }>();

/**
 * The registrable domain of one host or URL, with the step-by-step trace (seed 000; PSL). The
 * prepared lists are cached per `config` object: treat it as immutable once used (pass a new
 * object after editing the lists, as settings updates do).
 * @param psl required in PSL mode
 * @param options.logger receives the seed's DEBUG message when the lookup falls back
 * @throws TypeError when `config` fails {@link validateTldConfig} or PSL mode has no list
 * @example registrableDomain('http://www.xyz.co.uk', { mode: 'seed', generic: ['com'], additional: ['co.uk'] }).registrableDomain → 'xyz.co.uk'
 * @example registrableDomain('www.xyz.co.uk', { mode: 'seed', generic: ['com'], additional: [] }) → { registrableDomain: 'co.uk', fellBack: true, message: 'Failed to get the domain name for url: www.xyz.co.uk using co.uk as the default domain name', … }
 * @example registrableDomain('a.b.c.kobe.jp', DEFAULT_TLD_CONFIG, psl).registrableDomain → 'b.c.kobe.jp'
 */
export function registrableDomain(hostOrUrl: string | null | undefined, config: TldConfig, psl?: PublicSuffixList, options: Omit<DomainOptions, 'trace' | 'cacheSize'> = {}): DomainResult {
  let cached = engines.get(config);
  if (cached === undefined || cached.psl !== psl) {
    cached = { psl, engine: buildEngine(config, psl) };
    engines.set(config, cached);
  }
  const input = typeof hostOrUrl === 'string' ? hostOrUrl : '';
  const result = resolveExtracted(cached.engine, input, extractHost(input), true);
  if (result.fellBack && options.logger !== undefined && result.message !== undefined) options.logger('debug', result.message);
  return result;
}
