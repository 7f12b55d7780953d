import { readHostOverride } from '../../../../shared/url/host-override';
import { extractorText, parseExtractor } from '../../../../shared/types/extraction';
import { CRAWL_SCOPES, RENDER_MODES, SITEMAP_MODES, type CrawlSettings, type HostOverride } from '../../../../shared/types/crawl';
import { hasControlCharacters, settingBounds, settingFromText, validateSetting, type NumericSettingKey } from '../../../../shared/types/crawl-settings';

/**
 * Every crawl setting the crawl form edits: all of them but the normalization profile and the TLD
 * configuration, which the Settings view edits (with their own editors) and which reach the form
 * through the app's effective defaults, and the request rules, whose secrets must not travel in
 * crawl settings nor be remembered: the form's "Request settings per host" (request-rules-editor.tsx)
 * sends them beside the settings, as `crawl.start`'s `requestRules`, and main keeps them beside the
 * database as the CLI's --header/--auth/--cookie/--proxy do.
 */
export type FormSettingKey = Exclude<keyof CrawlSettings, 'normalizationProfile' | 'tld' | 'requestRules'>;

/** Settings the crawl form leaves out (see {@link FormSettingKey}). */
export const NOT_ON_FORM: readonly (keyof CrawlSettings)[] = ['normalizationProfile', 'tld', 'requestRules'];

/** Fields of the crawl form: the seeds and every {@link FormSettingKey}. */
export type CrawlFormField = 'seeds' | FormSettingKey;

/** Field-level errors of the crawl form, keyed by field. */
export type FormErrors = Partial<Record<CrawlFormField, string>>;

/** The form's values as typed: text for every setting but the switches (booleans). */
export type CrawlFormValues = { seeds: string } & { [K in FormSettingKey]: CrawlSettings[K] extends boolean ? boolean : string };

/** How a setting is edited: a whole or fractional number, a choice, a switch, one line of text, or one entry per line. */
export type FormSettingKind = 'number' | 'choice' | 'switch' | 'text' | 'lines';

/** The form's groups, in display order. */
export const FORM_GROUPS = ['Scope', 'Limits', 'Politeness', 'Fetching', 'Content'] as const;

/** One group of the crawl form. */
export type FormGroup = (typeof FORM_GROUPS)[number];

/** How the form shows one setting; names, defaults and validation come from the setting's schema (CRAWL_SETTINGS). */
export interface FormSetting {
  key: FormSettingKey;
  group: FormGroup;
  /** The label, in words. */
  label: string;
  kind: FormSettingKind;
  /**
   * The `crawlbench crawl` flag that sets it, as the CLI spells it; a switch's flag turns it off
   * when `flagTurnsOff` (`--no-robots`). Absent for settings the CLI does not take.
   */
  flag?: string;
  flagTurnsOff?: boolean;
  placeholder?: string;
}

/**
 * The crawl form's fields by group. Every {@link FormSettingKey} appears once (a test checks it),
 * each flag is one `crawlbench crawl` accepts for the same setting (tests/settings/validators-agree.test.ts).
 */
export const FORM_SETTINGS: readonly FormSetting[] = [
  { key: 'crawlMode', group: 'Scope', label: 'Mode', kind: 'choice', flag: '--mode' },
  { key: 'scope', group: 'Scope', label: 'Scope', kind: 'choice', flag: '--scope' },
  { key: 'maxDepth', group: 'Scope', label: 'Max depth (0 = no limit)', kind: 'number', flag: '--max-depth' },
  { key: 'includeDomains', group: 'Scope', label: 'Only these domains', kind: 'lines', flag: '--include-domain', placeholder: 'example.com (one per line; empty: no filter)' },
  { key: 'excludeDomains', group: 'Scope', label: 'Never these domains', kind: 'lines', flag: '--exclude-domain', placeholder: 'ads.example (one per line)' },
  { key: 'allowedProtocols', group: 'Scope', label: 'Protocols followed', kind: 'lines', placeholder: 'http (one per line)' },
  { key: 'followQueryStrings', group: 'Scope', label: 'Follow URLs with a query string', kind: 'switch', flag: '--no-query-strings', flagTurnsOff: true },
  { key: 'ignoredExtensions', group: 'Scope', label: 'Ignored extensions', kind: 'text', flag: '--ignore-ext', placeholder: 'jpg|png|zip' },
  { key: 'maxUrlLength', group: 'Scope', label: 'Max URL length (characters)', kind: 'number', flag: '--max-url-length' },
  { key: 'includeUrlPatterns', group: 'Scope', label: 'Only URLs matching (regex)', kind: 'lines', flag: '--include', placeholder: '/products/ (one regular expression per line; empty: no filter)' },
  { key: 'excludeUrlPatterns', group: 'Scope', label: 'Never URLs matching (regex)', kind: 'lines', flag: '--exclude', placeholder: '[?&]sessionid= (one per line)' },
  { key: 'obeyNofollow', group: 'Scope', label: 'Obey nofollow', kind: 'switch', flag: '--rogue', flagTurnsOff: true },
  { key: 'followNofollowLinks', group: 'Scope', label: 'Follow rel=nofollow links', kind: 'switch', flag: '--follow-nofollow-links' },
  { key: 'trapGuard', group: 'Scope', label: 'Hold suspected crawler traps', kind: 'switch', flag: '--trap-guard' },
  { key: 'sitemaps', group: 'Scope', label: 'Sitemaps', kind: 'choice', flag: '--sitemaps' },
  { key: 'maxPages', group: 'Limits', label: 'Max pages (0 = no limit)', kind: 'number', flag: '--max-pages' },
  { key: 'threads', group: 'Limits', label: 'Threads', kind: 'number', flag: '--threads' },
  { key: 'maxInFlightPerHost', group: 'Limits', label: 'Requests per host at once', kind: 'number', flag: '--per-host' },
  { key: 'maxRetries', group: 'Limits', label: 'Retries per URL', kind: 'number' },
  { key: 'obeyRobots', group: 'Politeness', label: 'Obey robots.txt', kind: 'switch', flag: '--no-robots', flagTurnsOff: true },
  { key: 'minDelayMs', group: 'Politeness', label: 'Politeness delay (ms)', kind: 'number', flag: '--min-delay-ms' },
  { key: 'maxDelayMs', group: 'Politeness', label: 'Max politeness delay (ms)', kind: 'number', flag: '--max-delay-ms' },
  { key: 'delayFactor', group: 'Politeness', label: 'Delay factor (× last fetch time)', kind: 'number', flag: '--delay-factor' },
  { key: 'maxCrawlDelayMs', group: 'Politeness', label: 'Max Crawl-delay (ms)', kind: 'number' },
  { key: 'robotsCacheTtlMs', group: 'Politeness', label: 'Keep robots.txt for (ms)', kind: 'number' },
  { key: 'robotsRetryDelayMs', group: 'Politeness', label: 'First robots.txt retry after (ms)', kind: 'number' },
  { key: 'userAgent', group: 'Fetching', label: 'User agent', kind: 'text', flag: '--user-agent' },
  { key: 'timeoutMs', group: 'Fetching', label: 'Timeout (ms)', kind: 'number', flag: '--timeout-ms' },
  { key: 'maxBodyBytes', group: 'Fetching', label: 'Max body size (bytes)', kind: 'number' },
  { key: 'maxRedirects', group: 'Fetching', label: 'Max redirects', kind: 'number' },
  { key: 'extractors', group: 'Content', label: 'Custom extractors', kind: 'lines', flag: '--extract', placeholder: 'price=css:.price · sku=regex:SKU-([0-9]+) · brand=schema:Product.brand.name · images:count=css:img (one per line)' },
  { key: 'http2', group: 'Fetching', label: 'HTTP/2 (https servers that offer it)', kind: 'switch', flag: '--http2' },
  { key: 'cookieJar', group: 'Fetching', label: 'Keep cookies sites set (cookie jar)', kind: 'switch', flag: '--no-cookie-jar', flagTurnsOff: true },
  { key: 'storeBodies', group: 'Fetching', label: 'Keep page bodies', kind: 'switch', flag: '--no-store-bodies', flagTurnsOff: true },
  { key: 'maxStoredBodyBytes', group: 'Fetching', label: 'Max kept body size (bytes)', kind: 'number', flag: '--max-stored-body-bytes' },
  { key: 'maxStoredBodiesBytes', group: 'Fetching', label: 'Max kept bodies per crawl (bytes, compressed)', kind: 'number' },
  { key: 'hostOverrides', group: 'Fetching', label: 'Host overrides', kind: 'lines', flag: '--resolve', placeholder: 'host=127.0.0.1:8080 or *.example.test=127.0.0.1:8080 (one per line, like /etc/hosts)' },
  { key: 'closedResolver', group: 'Fetching', label: 'Refuse hosts without an override', kind: 'switch', flag: '--closed' },
  { key: 'nearDuplicateThreshold', group: 'Content', label: 'Near-duplicate similarity (0.5 to 1)', kind: 'number' },
  { key: 'pageTextChars', group: 'Content', label: 'Visible text kept per page (characters, 0 = none)', kind: 'number', flag: '--page-text-chars' },
  { key: 'render', group: 'Content', label: 'JavaScript rendering', kind: 'choice', flag: '--render' },
  { key: 'renderTimeoutMs', group: 'Content', label: 'Render budget per page (ms)', kind: 'number', flag: '--render-timeout-ms' },
  { key: 'renderConcurrency', group: 'Content', label: 'Pages rendered at once per worker', kind: 'number', flag: '--render-concurrency' },
  { key: 'chromiumPath', group: 'Content', label: 'Chromium for rendering', kind: 'text', flag: '--chromium', placeholder: '/usr/bin/chromium (empty: the system chromium)' },
];

/**
 * A field's hint naming its CLI flag, or null.
 * @example flagHint(FORM_SETTINGS[1]) → '--max-depth'
 * @example flagHint({ …, flag: '--no-robots', flagTurnsOff: true }) → '--no-robots turns it off'
 */
export function flagHint(setting: FormSetting): string | null {
  if (!setting.flag) return null;
  return setting.flagTurnsOff ? `${setting.flag} turns it off` : setting.flag;
}

/**
 * Form values from crawl settings (the app's effective defaults, which carry the saved Settings).
 * Lists become one entry per line; overrides are `host=address[:port]` lines.
 */
export function formValuesFrom(settings: CrawlSettings): CrawlFormValues {
  const values: Record<string, string | boolean> = { seeds: '' };
  for (const { key } of FORM_SETTINGS) {
    const value = settings[key];
    if (typeof value === 'boolean') values[key] = value;
    else if (key === 'hostOverrides') values[key] = settings.hostOverrides.map(overrideLine).join('\n');
    else if (key === 'extractors') values[key] = settings.extractors.map(extractorText).join('\n');
    else if (Array.isArray(value)) values[key] = value.join('\n');
    else values[key] = String(value);
  }
  return values as CrawlFormValues;
}

function overrideLine(override: HostOverride): string {
  const address = override.address.includes(':') ? `[${override.address}]` : override.address;
  return `${override.host}=${address}${override.port === undefined ? '' : `:${override.port}`}`;
}

/**
 * Parses "Host overrides" lines `host=address[:port]` or `*.suffix=address[:port]` (like
 * /etc/hosts for the crawler), each read by the one `--resolve` parser (shared/url/host-override.ts).
 * @returns the overrides, or a message naming the first bad line
 * @example parseOverrideLines('docs.python.test=127.0.0.1:8080') → [{ host: 'docs.python.test', address: '127.0.0.1', port: 8080 }]
 */
export function parseOverrideLines(text: string): HostOverride[] | string {
  const overrides: HostOverride[] = [];
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const read = readHostOverride(line);
    if (!read.ok) return read.error.message;
    overrides.push(read.value);
  }
  return overrides;
}

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/**
 * Validates the crawl form: every setting by its schema (shared/types/crawl-settings.ts), as IPC
 * and the CLI check it; the form's own parsing is the trim of surrounding spaces and one list
 * entry per line.
 * @returns the seeds and every setting the form edits, or one message per bad field to show beside it
 * @example readCrawlForm({ ...values, seeds: 'not a url' }) → { ok: false, errors: { seeds: 'not a url is not an absolute URL (e.g. https://example.com/)' } }
 */
export function readCrawlForm(values: CrawlFormValues): { ok: true; seeds: string[]; settings: Partial<CrawlSettings> } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {};
  // `#` comment lines are skipped, as in a URL list file (shared/url/url-list.ts).
  const seeds = lines(values.seeds).filter((line) => !line.startsWith('#'));
  if (seeds.length === 0) errors.seeds = 'Enter at least one seed URL';
  for (const seed of seeds) {
    try {
      const url = new URL(seed);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.seeds = `${seed} is not an http(s) URL`;
    } catch {
      errors.seeds = `${seed} is not an absolute URL (e.g. https://example.com/)`;
    }
  }
  const settings: Record<string, unknown> = {};
  for (const setting of FORM_SETTINGS) {
    const read = readField(setting, values);
    if (read.ok) settings[setting.key] = read.value;
    else errors[setting.key] = read.message;
  }
  if (errors.minDelayMs === undefined && errors.maxDelayMs === undefined && (settings.maxDelayMs as number) < (settings.minDelayMs as number)) {
    errors.maxDelayMs = `At least the politeness delay (${values.minDelayMs.trim()} ms)`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, seeds, settings: settings as Partial<CrawlSettings> };
}

function readField(setting: FormSetting, values: CrawlFormValues): { ok: true; value: unknown } | { ok: false; message: string } {
  const { key } = setting;
  const raw = values[key];
  if (typeof raw === 'boolean') return { ok: true, value: raw };
  if (setting.kind === 'number') {
    const read = settingFromText(key as NumericSettingKey, raw.trim());
    return read.ok ? { ok: true, value: read.value } : { ok: false, message: rangeMessage(key as NumericSettingKey) };
  }
  if (key === 'hostOverrides') {
    const overrides = parseOverrideLines(raw);
    if (typeof overrides === 'string') return { ok: false, message: overrides };
    const checked = validateSetting('hostOverrides', overrides);
    return checked.ok ? { ok: true, value: checked.value } : { ok: false, message: checked.error.message };
  }
  if (key === 'extractors') {
    const extractors = [];
    for (const line of lines(raw)) {
      const parsed = parseExtractor(line);
      if (!parsed.ok) return { ok: false, message: parsed.error.message };
      extractors.push(parsed.value);
    }
    const checked = validateSetting('extractors', extractors);
    return checked.ok ? { ok: true, value: checked.value } : { ok: false, message: checked.error.message };
  }
  if (key === 'scope') {
    const scope = validateSetting('scope', raw);
    return scope.ok ? { ok: true, value: scope.value } : { ok: false, message: `Choose one of ${CRAWL_SCOPES.join(', ')}` };
  }
  if (key === 'sitemaps') {
    const mode = validateSetting('sitemaps', raw);
    return mode.ok ? { ok: true, value: mode.value } : { ok: false, message: `Choose one of ${SITEMAP_MODES.join(', ')}` };
  }
  if (key === 'render') {
    const mode = validateSetting('render', raw);
    return mode.ok ? { ok: true, value: mode.value } : { ok: false, message: `Choose one of ${RENDER_MODES.join(', ')}` };
  }
  if (key === 'userAgent') {
    const userAgent = validateSetting('userAgent', raw.trim());
    if (userAgent.ok) return { ok: true, value: userAgent.value };
    return { ok: false, message: hasControlCharacters(raw) ? 'A user agent without CR, LF or other control characters' : 'A user agent of 1 to 512 characters' };
  }
  const value = setting.kind === 'lines' ? lines(key === 'allowedProtocols' || key.endsWith('Domains') ? raw.toLowerCase() : raw) : raw.trim();
  const checked = validateSetting(key, value);
  return checked.ok ? { ok: true, value: checked.value } : { ok: false, message: `${setting.label}: ${checked.error.message}` };
}

/**
 * The form's words for a numeric setting's range, from its schema's bounds.
 * @example rangeMessage('threads') → 'Whole number from 1 to 256'
 * @example rangeMessage('maxPages') → 'Whole number, 0 or more' (no upper bound but the safe integers)
 * @example rangeMessage('delayFactor') → 'Number from 0 to 100'
 */
function rangeMessage(field: NumericSettingKey): string {
  const { min, max, integer } = settingBounds(field);
  const noun = integer ? 'Whole number' : 'Number';
  return max >= Number.MAX_SAFE_INTEGER ? `${noun}, ${min.toLocaleString('en-US')} or more` : `${noun} from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
}

/** Where the form remembers its last values (the renderer's localStorage; settings.update keeps only the Settings view's lists). */
export const REMEMBERED_FORM_KEY = 'crawlbench.crawlForm.v1';

/**
 * The values to remember: the seeds and each setting that differs from `defaults`, so a setting
 * left at its default keeps following the defaults (e.g. a list saved later in the Settings view).
 */
export function formValuesToRemember(values: CrawlFormValues, defaults: CrawlFormValues): Partial<CrawlFormValues> {
  const remembered: Record<string, string | boolean> = {};
  for (const field of ['seeds', ...FORM_SETTINGS.map((s) => s.key)] as CrawlFormField[]) {
    if (values[field] !== defaults[field]) remembered[field] = values[field];
  }
  return remembered as Partial<CrawlFormValues>;
}

/**
 * The form's values: `defaults` with the remembered ones on top. Anything remembered that is not
 * a form field or has the wrong type (an older version's, a hand-edited store) is dropped, never
 * thrown; a remembered value is validated when the crawl starts, like a typed one.
 * @param remembered what {@link formValuesToRemember} stored, parsed from JSON (anything)
 */
export function withRememberedValues(defaults: CrawlFormValues, remembered: unknown): CrawlFormValues {
  const values: Record<string, string | boolean> = { ...defaults };
  if (remembered === null || typeof remembered !== 'object') return defaults;
  for (const [field, value] of Object.entries(remembered as Record<string, unknown>)) {
    if (field in defaults && typeof value === typeof defaults[field as CrawlFormField]) values[field] = value as string | boolean;
  }
  return values as CrawlFormValues;
}

