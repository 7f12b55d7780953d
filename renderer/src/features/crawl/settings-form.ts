import type { CrawlSettings, HostOverride } from '../../../../shared/types/crawl';

/** Field-level errors of the crawl form, keyed by field name. */
export type FormErrors = Partial<Record<'seeds' | 'hostOverrides' | 'threads' | 'maxPages' | 'minDelayMs', string>>;

export interface CrawlFormValues {
  seeds: string;
  hostOverrides: string;
  threads: string;
  maxPages: string;
  minDelayMs: string;
}

/**
 * Parses "Host overrides" lines `host=address[:port]` (like /etc/hosts for the crawler).
 * @example parseOverrideLines('docs.python.test=127.0.0.1:8080') // [{ host: 'docs.python.test', address: '127.0.0.1', port: 8080 }]
 */
export function parseOverrideLines(text: string): HostOverride[] | string {
  const overrides: HostOverride[] = [];
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const match = /^([^=\s]+)=(\[[0-9a-fA-F:.]+\]|[0-9.]+)(?::(\d{1,5}))?$/.exec(line);
    if (!match) return `"${line}" is not host=address[:port]`;
    const override: HostOverride = { host: match[1]!.toLowerCase(), address: match[2]!.replace(/^\[|\]$/g, '') };
    if (match[3] !== undefined) override.port = Number(match[3]);
    overrides.push(override);
  }
  return overrides;
}

/** Validates the form; returns the seeds and settings, or the errors to show beside each field. */
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
  const int = (field: 'threads' | 'maxPages' | 'minDelayMs', min: number, max: number): number | undefined => {
    const n = Number(values[field]);
    if (!Number.isInteger(n) || n < min || n > max) {
      errors[field] = `Whole number from ${min} to ${max}`;
      return undefined;
    }
    return n;
  };
  const threads = int('threads', 1, 256);
  const maxPages = int('maxPages', 0, 100_000_000);
  const minDelayMs = int('minDelayMs', 0, 3_600_000);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    seeds,
    settings: { threads: threads!, maxPages: maxPages!, minDelayMs: minDelayMs!, ...(Array.isArray(overrides) && overrides.length > 0 ? { hostOverrides: overrides } : {}) },
  };
}
