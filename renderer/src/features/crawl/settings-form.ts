import { readHostOverride } from '../../../../shared/url/host-override';
import { CRAWL_SCOPES, DEFAULT_CRAWL_SETTINGS, type CrawlSettings, type HostOverride } from '../../../../shared/types/crawl';
import { hasControlCharacters, settingBounds, settingFromText, validateSetting } from '../../../../shared/types/crawl-settings';

/** Fields of the crawl form. */
export type CrawlFormField = 'seeds' | 'hostOverrides' | 'threads' | 'maxPages' | 'maxDepth' | 'scope' | 'minDelayMs' | 'userAgent';

/** Field-level errors of the crawl form, keyed by field. */
export type FormErrors = Partial<Record<CrawlFormField, string>>;

/** The form's values as typed (text), plus the robots switch. */
export interface CrawlFormValues {
  seeds: string;
  hostOverrides: string;
  threads: string;
  maxPages: string;
  maxDepth: string;
  scope: string;
  minDelayMs: string;
  userAgent: string;
  obeyRobots: boolean;
}

/** Form values from crawl settings (the app's effective defaults). */
export function formValuesFrom(settings: Pick<CrawlSettings, 'threads' | 'maxPages' | 'maxDepth' | 'scope' | 'minDelayMs' | 'userAgent' | 'obeyRobots'>): CrawlFormValues {
  return {
    seeds: '',
    hostOverrides: '',
    threads: String(settings.threads),
    maxPages: String(settings.maxPages),
    maxDepth: String(settings.maxDepth),
    scope: settings.scope,
    minDelayMs: String(settings.minDelayMs),
    userAgent: settings.userAgent,
    obeyRobots: settings.obeyRobots,
  };
}

/**
 * Parses "Host overrides" lines `host=address[:port]` (like /etc/hosts for the crawler), each
 * read by the one `--resolve` parser (shared/url/host-override.ts).
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

/**
 * Validates the crawl form (the same limits main enforces).
 * @returns the seeds and settings to send, or one message per bad field to show beside it
 * @example readCrawlForm({ ...values, seeds: 'not a url' }) → { ok: false, errors: { seeds: 'not a url is not an absolute URL (e.g. https://example.com/)' } }
 */
export function readCrawlForm(values: CrawlFormValues): { ok: true; seeds: string[]; settings: Partial<CrawlSettings> } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {};
  const seeds = values.seeds.split('\n').map((s) => s.trim()).filter(Boolean);
  if (seeds.length === 0) errors.seeds = 'Enter at least one seed URL';
  for (const seed of seeds) {
    try {
      const url = new URL(seed);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.seeds = `${seed} is not an http(s) URL`;
    } catch {
      errors.seeds = `${seed} is not an absolute URL (e.g. https://example.com/)`;
    }
  }
  const overrides = parseOverrideLines(values.hostOverrides);
  if (typeof overrides === 'string') errors.hostOverrides = overrides;
  // Each field by its setting's schema (shared/types/crawl-settings.ts), as IPC and the CLI check it;
  // the form's own text parsing is only the trim of surrounding spaces.
  const int = (field: 'threads' | 'maxPages' | 'maxDepth' | 'minDelayMs'): number => {
    const read = settingFromText(field, values[field].trim());
    if (read.ok) return read.value;
    errors[field] = rangeMessage(field);
    return NaN;
  };
  const threads = int('threads');
  const maxPages = int('maxPages');
  const maxDepth = int('maxDepth');
  const minDelayMs = int('minDelayMs');
  const scope = validateSetting('scope', values.scope);
  if (!scope.ok) errors.scope = `Choose one of ${CRAWL_SCOPES.join(', ')}`;
  const userAgent = validateSetting('userAgent', values.userAgent.trim());
  if (!userAgent.ok) errors.userAgent = hasControlCharacters(values.userAgent) ? 'A user agent without CR, LF or other control characters' : 'A user agent of 1 to 512 characters';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    seeds,
    settings: {
      threads,
      maxPages,
      maxDepth,
      minDelayMs,
      // The politeness delay is a lower bound; raise the upper bound with it when it passes the default.
      ...(minDelayMs > DEFAULT_CRAWL_SETTINGS.maxDelayMs ? { maxDelayMs: minDelayMs } : {}),
      scope: scope.ok ? scope.value : DEFAULT_CRAWL_SETTINGS.scope,
      userAgent: userAgent.ok ? userAgent.value : DEFAULT_CRAWL_SETTINGS.userAgent,
      obeyRobots: values.obeyRobots,
      ...(Array.isArray(overrides) && overrides.length > 0 ? { hostOverrides: overrides } : {}),
    },
  };
}

/**
 * The form's words for a numeric setting's range, from its schema's bounds.
 * @example rangeMessage('threads') → 'Whole number from 1 to 256'
 * @example rangeMessage('maxPages') → 'Whole number, 0 or more' (no upper bound but the safe integers)
 */
function rangeMessage(field: 'threads' | 'maxPages' | 'maxDepth' | 'minDelayMs'): string {
  const { min, max } = settingBounds(field);
  return max >= Number.MAX_SAFE_INTEGER ? `Whole number, ${min} or more` : `Whole number from ${min} to ${max.toLocaleString('en-US')}`;
}
