import { z } from 'zod';
import { hasControlCharacters } from './text-checks';
import { MAX_DOMAIN_LIST, MAX_HOST_CHARS } from '../ipc/limits';
import { isIpAddress, overrideHostProblem } from '../url/host-override';
import { MAX_PROXY_CHARS, MAX_REQUEST_RULES, MAX_RULE_HEADERS, MAX_USERNAME_CHARS, type RequestRule } from './request-rules';
import { validateProfile } from '../url/profiles';
import { validateTldConfig } from '../url/tld-config';
import { MAX_URL_PATTERNS, urlPatternProblem } from '../url/url-patterns';
import { EXTRACTOR_KINDS, EXTRACTOR_MODES, MAX_EXTRACTORS, extractorText, parseExtractor, type Extractor } from './extraction';
import { CRAWL_MODES, CRAWL_SCOPES, DEFAULT_CRAWL_SETTINGS, RENDER_MODES, SITEMAP_MODES, type CrawlMode, type CrawlScope, type CrawlSettings, type HostOverride } from './crawl';

/**
 * One zod schema per crawl setting: the single definition of a valid value, used by the IPC
 * contract (`crawlSettingsInputSchema`), the CLI flags of `crawl`/`resume`, the crawl form and the
 * Settings view, and settings read back from the database (the `settings` table, `settings_json`).
 * Defaults stay in {@link DEFAULT_CRAWL_SETTINGS}; each entry here carries it for display.
 */

/** What a setting's number or value measures (units live in names too: `…Ms`, `…Bytes`). */
export type SettingUnit = 'ms' | 'bytes' | 'count' | 'factor' | 'ratio' | 'characters' | 'boolean' | 'text' | 'choice' | 'list' | 'config';

/** One setting: its schema, default (from DEFAULT_CRAWL_SETTINGS), unit and a one-line description. */
export interface CrawlSettingSpec<T> {
  schema: z.ZodType<T>;
  default: T;
  unit: SettingUnit;
  description: string;
}

/** A zod schema that defers to one of shared/url's validators (one definition of "valid"). */
function validated<T>(validate: (value: unknown) => { ok: true; value: T } | { ok: false; error: { message: string } }): z.ZodType<T> {
  return z.custom<T>((value) => validate(value).ok, { error: (issue) => { const r = validate(issue.input); return r.ok ? 'invalid' : r.error.message; } });
}

/** A whole number in [min, max] (safe integers only: NaN, ±Infinity, 1.5 and 2^53 are refused). */
const whole = (min: number, max = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max);

export { hasControlCharacters } from './text-checks';

/** One resolver override as the crawler keeps it (the shape shared/url/host-override.ts parses). */
export const hostOverrideSchema: z.ZodType<HostOverride> = z
  .object({
    host: z.string().superRefine((host, context) => {
      const problem = overrideHostProblem(host);
      if (problem !== null) context.addIssue({ code: 'custom', message: problem });
    }),
    address: z.string().max(64).refine(isIpAddress, 'an IPv4 or IPv6 address'),
    port: whole(1, 65_535).optional(),
  })
  .strict() as z.ZodType<HostOverride>;

/** Seed 004's "Ignore Links To" list: lowercase letters and digits without the dot, separated by `|` (no empty entry); '' ignores none. */
export const ignoredExtensionsSchema = z.string().max(10_000).regex(/^[a-z0-9]+(\|[a-z0-9]+)*$|^$/, 'lowercase letters and digits separated by |');

const domainList = z.array(z.string().min(1).max(MAX_HOST_CHARS)).max(MAX_DOMAIN_LIST);

/**
 * A list of URL regular expressions, each checked for length and syntax (shared/url/url-patterns.ts);
 * whether one needs backtracking is checked by the engine at crawl start (INVALID_URL_REGEX).
 */
export const urlPatternListSchema = z
  .array(
    z.string().superRefine((pattern, context) => {
      const problem = urlPatternProblem(pattern);
      if (problem !== null) context.addIssue({ code: 'custom', message: `pattern ${JSON.stringify(pattern.slice(0, 80))}: ${problem}` });
    }),
  )
  .max(MAX_URL_PATTERNS, `at most ${MAX_URL_PATTERNS} patterns`);

/** One extractor (shared/types/extraction.ts): its text form must read back as itself, names unique in the list. */
export const extractorListSchema: z.ZodType<Extractor[]> = z
  .array(
    z
      .object({ name: z.string(), kind: z.enum(EXTRACTOR_KINDS), expression: z.string(), attribute: z.string().optional(), mode: z.enum(EXTRACTOR_MODES) })
      .strict()
      .superRefine((extractor, context) => {
        const parsed = parseExtractor(extractorText(extractor as Extractor));
        if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.error.message });
        else {
          const read = parsed.value;
          const same = read.name === extractor.name && read.kind === extractor.kind && read.expression === extractor.expression && read.attribute === extractor.attribute && read.mode === extractor.mode;
          if (!same) context.addIssue({ code: 'custom', message: `extractor "${extractor.name}" does not read back as itself: ${extractorText(extractor as Extractor)}` });
        }
      }),
  )
  .max(MAX_EXTRACTORS, `at most ${MAX_EXTRACTORS} extractors`)
  .refine((list) => new Set(list.map((e) => e.name)).size === list.length, 'two extractors have the same name') as z.ZodType<Extractor[]>;

/** The masked request rules a crawl's settings keep (shared/types/request-rules.ts RequestRule). */
export const requestRuleListSchema: z.ZodType<RequestRule[]> = z
  .array(
    z
      .object({
        host: z.string().refine((host) => overrideHostProblem(host) === null, 'an exact host or *.suffix'),
        headers: z.array(z.string().regex(/^[!#$%&'*+\-.^_`|~0-9a-z]+$/)).max(MAX_RULE_HEADERS),
        username: z.string().max(MAX_USERNAME_CHARS).nullable(),
        cookie: z.boolean(),
        proxy: z.string().max(MAX_PROXY_CHARS).nullable(),
      })
      .strict(),
  )
  .max(MAX_REQUEST_RULES) as z.ZodType<RequestRule[]>;

type Specs = { [K in keyof CrawlSettings]: Omit<CrawlSettingSpec<CrawlSettings[K]>, 'default'> };

const SPECS = {
  threads: { schema: whole(1, 256), unit: 'count', description: 'Concurrent fetches ("crawler threads", IIR 20.2).' },
  maxPages: { schema: whole(0), unit: 'count', description: 'Stop after this many pages have been fetched (0 = no limit).' },
  maxDepth: { schema: whole(0, 1_000_000), unit: 'count', description: 'Links deeper than this many hops from a seed are not followed (0 = no limit).' },
  scope: { schema: z.enum(CRAWL_SCOPES as [CrawlScope, ...CrawlScope[]]), unit: 'choice', description: 'Which discovered links stay in the crawl: host, domain, directory or any.' },
  minDelayMs: { schema: whole(0, 3_600_000), unit: 'ms', description: 'Lower bound of the politeness delay between two fetches from one host.' },
  maxDelayMs: { schema: whole(0, 3_600_000), unit: 'ms', description: 'Upper bound of the politeness delay (also caps Crawl-delay and Retry-After).' },
  delayFactor: { schema: z.number().min(0).max(100), unit: 'factor', description: 'Politeness factor k: wait k × the last fetch time before the next fetch from that host (Heritrix: 5).' },
  maxInFlightPerHost: { schema: whole(1, 64), unit: 'count', description: 'Requests in flight at once to one host.' },
  userAgent: {
    schema: z
      .string()
      .min(1)
      .max(512)
      .refine((text) => !hasControlCharacters(text), 'printable characters without CR, LF or other control characters')
      .refine((text) => text.trim() !== '', 'not only spaces'),
    unit: 'text',
    description: 'The User-Agent header, and the name robots.txt rules are matched against.',
  },
  obeyRobots: { schema: z.boolean(), unit: 'boolean', description: 'Fetch and obey robots.txt (RFC 9309).' },
  timeoutMs: { schema: whole(100, 600_000), unit: 'ms', description: 'Whole-request timeout of one fetch (connect + headers + body).' },
  maxBodyBytes: { schema: whole(1024, 1024 * 1024 * 1024), unit: 'bytes', description: 'Bodies are cut at this size and recorded as truncated.' },
  maxRedirects: { schema: whole(0, 50), unit: 'count', description: 'Consecutive redirects a URL may be reached through (robots.txt follows at least 5).' },
  hostOverrides: { schema: z.array(hostOverrideSchema).max(1000), unit: 'list', description: 'Resolver overrides (--resolve host=ip:port, or *.suffix=ip:port for every host under suffix) applied to every request.' },
  closedResolver: { schema: z.boolean(), unit: 'boolean', description: 'Refuse every host not in hostOverrides without looking it up (links to them are refused as host-not-mapped).' },
  robotsCacheTtlMs: { schema: whole(0, 30 * 24 * 3_600_000), unit: 'ms', description: 'How long a fetched robots.txt is trusted (RFC 9309 §2.4 suggests at most 24 h).' },
  robotsRetryDelayMs: { schema: whole(0, 3_600_000), unit: 'ms', description: 'First wait before asking again for a robots.txt that answered 5xx or not at all; doubles per failure.' },
  maxCrawlDelayMs: { schema: whole(0, 3_600_000), unit: 'ms', description: 'A robots.txt Crawl-delay longer than this is capped to it.' },
  maxRetries: { schema: whole(0, 10), unit: 'count', description: 'Retries of a URL answered 429/503 or failed in transit before it is an error.' },
  allowedProtocols: { schema: z.array(z.string().regex(/^[a-z][a-z0-9+.-]*$/)).min(1).max(16), unit: 'list', description: 'URL schemes followed (seed 004).' },
  maxUrlLength: { schema: whole(16, 65_536), unit: 'characters', description: 'Longer URLs are refused (seed 004\'s "Max Characters: URL").' },
  crawlMode: { schema: z.enum(CRAWL_MODES as [CrawlMode, ...CrawlMode[]]), unit: 'choice', description: 'spider follows links from the seeds; list fetches the seeds (and their redirects) only, refusing links by list-mode.' },
  followQueryStrings: { schema: z.boolean(), unit: 'boolean', description: 'Follow URLs with a query string (seed 004).' },
  ignoredExtensions: { schema: ignoredExtensionsSchema, unit: 'list', description: 'File extensions never followed, pipe-separated (seed 004\'s "Ignore Links To").' },
  obeyNofollow: { schema: z.boolean(), unit: 'boolean', description: 'Honour meta robots and X-Robots-Tag nofollow (false: seed 004\'s "Rogue" mode).' },
  includeDomains: { schema: domainList, unit: 'list', description: 'Only links to these registrable domains are followed (empty: no filter).' },
  excludeDomains: { schema: domainList, unit: 'list', description: 'Links to these registrable domains are refused.' },
  includeUrlPatterns: { schema: urlPatternListSchema, unit: 'list', description: 'Regular expressions over the URL: when any is given, only links matching one are followed (linear-time matching).' },
  excludeUrlPatterns: { schema: urlPatternListSchema, unit: 'list', description: 'Regular expressions over the URL: links matching any are refused (linear-time matching).' },
  followNofollowLinks: { schema: z.boolean(), unit: 'boolean', description: 'Follow links marked rel="nofollow", "ugc" or "sponsored" (off: refused by link-nofollow).' },
  normalizationProfile: { schema: validated(validateProfile), unit: 'config', description: 'The URL-seen test\'s normalization profile (fixed for the crawl\'s life).' },
  tld: { schema: validated(validateTldConfig), unit: 'config', description: 'Registrable-domain configuration (seed 000 lists or PSL mode).' },
  nearDuplicateThreshold: { schema: z.number().min(0.5).max(1), unit: 'ratio', description: 'Estimated Jaccard similarity from which two pages are near-duplicates (IIR 19.6).' },
  pageTextChars: { schema: whole(0, 1_000_000), unit: 'characters', description: 'Characters of each page\'s visible text kept for near-duplicate diffs (0 keeps none).' },
  trapGuard: { schema: z.boolean(), unit: 'boolean', description: 'Detect crawler traps and hold their URLs (state held) until released (IIR 20.2; Heritrix trap rules).' },
  sitemaps: { schema: z.enum(SITEMAP_MODES), unit: 'choice', description: 'auto: read robots.txt Sitemap: lines and /sitemap.xml of each seed host and crawl the URLs they list; off: no sitemap is fetched.' },
  storeBodies: { schema: z.boolean(), unit: 'boolean', description: 'Keep each fetched body, brotli-compressed, in the crawl store (source view, WARC export, re-analysis without a recrawl).' },
  maxStoredBodyBytes: { schema: whole(1024, 1024 * 1024 * 1024), unit: 'bytes', description: 'A kept body longer than this is cut at it and marked truncated.' },
  maxStoredBodiesBytes: { schema: whole(0, 1024 * 1024 * 1024 * 1024), unit: 'bytes', description: 'Compressed body bytes a crawl keeps in all; later bodies are not kept.' },
  requestRules: { schema: requestRuleListSchema, unit: 'list', description: 'Headers, cookies, Basic auth and proxy per host pattern (--header, --cookie, --auth, --proxy), shown masked; the secrets are kept apart.' },
  http2: { schema: z.boolean(), unit: 'boolean', description: 'Offer HTTP/2 to https servers (ALPN); servers that decline are fetched over HTTP/1.1.' },
  cookieJar: { schema: z.boolean(), unit: 'boolean', description: 'Keep the cookies sites set (Set-Cookie, RFC 6265) and send them back with later fetches; kept apart from the database, as a secret, for resume.' },
  render: { schema: z.enum(RENDER_MODES), unit: 'choice', description: 'JavaScript rendering in Chromium: off; auto renders pages that look script-built (scripts with little text, an empty app root, a noscript asking for JavaScript); always renders every HTML page.' },
  renderTimeoutMs: { schema: whole(500, 300_000), unit: 'ms', description: 'Per-page render budget (navigation, scripts, settling); a page past it fails as RENDER_TIMEOUT.' },
  renderConcurrency: { schema: whole(1, 16), unit: 'count', description: 'Pages each crawl worker renders at once (one Chromium per worker).' },
  chromiumPath: {
    schema: z
      .string()
      .max(4096)
      .refine((text) => !hasControlCharacters(text), 'a path without control characters')
      .refine((text) => text === '' || text.trim() === text, 'no spaces around the path'),
    unit: 'text',
    description: "The Chromium executable used for rendering ('' finds the system chromium: /usr/bin/chromium, chromium-browser or google-chrome).",
  },
  extractors: { schema: extractorListSchema, unit: 'list', description: 'Named extractors run on every HTML page: NAME[:first|all|count]=css:SELECTOR[@attr], regex:PATTERN or schema:TYPE.FIELD.' },
} satisfies Specs;

/** The crawl settings, keyed by setting: schema, default, unit and description of each. */
export const CRAWL_SETTINGS: { readonly [K in keyof CrawlSettings]: CrawlSettingSpec<CrawlSettings[K]> } = Object.fromEntries(
  Object.entries(SPECS).map(([key, spec]) => [key, { ...spec, default: DEFAULT_CRAWL_SETTINGS[key as keyof CrawlSettings] }]),
) as unknown as { [K in keyof CrawlSettings]: CrawlSettingSpec<CrawlSettings[K]> };

/** Every crawl setting's name. */
export const CRAWL_SETTING_KEYS = Object.keys(SPECS) as (keyof CrawlSettings)[];

/** A whole crawl's settings: every field, each by its own schema. */
export const crawlSettingsSchema = z.object(Object.fromEntries(CRAWL_SETTING_KEYS.map((key) => [key, SPECS[key].schema])) as { [K in keyof CrawlSettings]: (typeof SPECS)[K]['schema'] }).strict();

/** Partial crawl settings as a client may send them (IPC `crawl.start`); omitted fields take the defaults; an unknown key is refused. */
export const crawlSettingsInputSchema = crawlSettingsSchema.partial().strict();

/**
 * Validates one setting's value.
 * @returns the value, or INVALID_SETTINGS with the schema's first complaint (the caller names the setting in its own words)
 * @example validateSetting('ignoredExtensions', 'pdf||zip') // { ok: false, error: { code: 'INVALID_SETTINGS', message: 'lowercase letters and digits separated by |' } }
 */
export function validateSetting<K extends keyof CrawlSettings>(key: K, value: unknown): { ok: true; value: CrawlSettings[K] } | { ok: false; error: { code: 'INVALID_SETTINGS'; message: string } } {
  const parsed = SPECS[key].schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data as CrawlSettings[K] };
  return { ok: false, error: { code: 'INVALID_SETTINGS', message: parsed.error.issues[0]?.message ?? 'invalid' } };
}

/** The bounds of a numeric setting's schema, for messages (`from 0 to 256`). */
export function settingBounds(key: keyof CrawlSettings): { min: number; max: number; integer: boolean } {
  const schema = SPECS[key].schema as unknown as z.ZodNumber;
  return { min: schema.minValue ?? -Infinity, max: schema.maxValue ?? Infinity, integer: schema.isInt };
}

/** Every setting whose value is a number (whole or fractional, by its schema). */
export type NumericSettingKey = { [K in keyof CrawlSettings]: CrawlSettings[K] extends number ? K : never }[keyof CrawlSettings];

/**
 * Reads a setting from text (a CLI flag, a form field): a whole-number setting takes decimal
 * digits only (no sign, `0x10`, `1e3`, spaces or empty), a fractional one digits with an optional
 * fraction (`2`, `0.5`, `.5`); then the setting's schema decides.
 * @returns the value, or INVALID_SETTINGS naming the setting
 * @example settingFromText('threads', '8') // { ok: true, value: 8 }
 * @example settingFromText('threads', '1e3') // { ok: false, … }
 */
export function settingFromText<K extends NumericSettingKey>(
  key: K,
  text: string,
): ReturnType<typeof validateSetting<K>> {
  const spelling = settingBounds(key).integer ? /^\d+$/ : /^(\d+(\.\d*)?|\.\d+)$/;
  return validateSetting(key, spelling.test(text) ? Number(text) : NaN);
}

/**
 * Crawl settings read back from storage (`crawls.settings_json`): each field by its schema, a
 * missing or no longer valid field taking its default (never thrown: an old database still opens),
 * unknown fields dropped.
 * @param stored the parsed JSON (anything)
 */
export function readStoredCrawlSettings(stored: unknown): CrawlSettings {
  const record = stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const settings = { ...DEFAULT_CRAWL_SETTINGS } as Record<keyof CrawlSettings, unknown>;
  for (const key of CRAWL_SETTING_KEYS) {
    if (!(key in record)) continue;
    const parsed = SPECS[key].schema.safeParse(record[key]);
    if (parsed.success) settings[key] = parsed.data;
  }
  return settings as unknown as CrawlSettings;
}
