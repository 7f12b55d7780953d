import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../../../shared/types/crawl';
import { CRAWL_SETTING_KEYS } from '../../../../shared/types/crawl-settings';
import { FORM_SETTINGS, NOT_ON_FORM, formValuesFrom, formValuesToRemember, parseOverrideLines, readCrawlForm, withRememberedValues } from './settings-form';

const defaults = formValuesFrom(DEFAULT_CRAWL_SETTINGS);
const base = { ...defaults, seeds: 'http://site.test/' };

describe('the crawl form exposes every crawl setting', () => {
  it('has one field per setting but the two the Settings view edits and the request rules (secrets), each once', () => {
    const keys = FORM_SETTINGS.map((setting) => setting.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(NOT_ON_FORM).toEqual(['normalizationProfile', 'tld', 'requestRules']);
    expect([...keys].sort()).toEqual(CRAWL_SETTING_KEYS.filter((key) => !NOT_ON_FORM.includes(key)).sort());
  });

  it('untouched, it sends exactly the defaults (the same as the CLI with no flags)', () => {
    const read = readCrawlForm(base);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const { normalizationProfile: _p, tld: _t, requestRules: _r, ...expected } = DEFAULT_CRAWL_SETTINGS as CrawlSettings;
    expect(read.settings).toEqual(expected);
  });
});

describe('readCrawlForm', () => {
  it('turns valid values into seeds and settings', () => {
    const form = readCrawlForm({ ...base, seeds: 'http://a.test/\n\n https://b.test/x ', threads: '8', maxDepth: '3', scope: 'domain', obeyRobots: false, delayFactor: '2.5', excludeDomains: 'Ads.Test\n\nb.test ', followQueryStrings: false });
    expect(form).toEqual({
      ok: true,
      seeds: ['http://a.test/', 'https://b.test/x'],
      settings: expect.objectContaining({ threads: 8, maxDepth: 3, scope: 'domain', obeyRobots: false, maxPages: 0, delayFactor: 2.5, excludeDomains: ['ads.test', 'b.test'], followQueryStrings: false }),
    });
  });

  it('names each bad field and starts nothing', () => {
    const form = readCrawlForm({ ...base, seeds: 'not a url', threads: '0', maxPages: '-1', maxDepth: '1.5', minDelayMs: '', scope: 'planet', userAgent: ' ', delayFactor: '1e3', maxBodyBytes: '10', ignoredExtensions: 'pdf||zip' });
    expect(form.ok).toBe(false);
    if (form.ok) return;
    expect(form.errors).toEqual({
      seeds: 'not a url is not an absolute URL (e.g. https://example.com/)',
      threads: 'Whole number from 1 to 256',
      maxPages: 'Whole number, 0 or more',
      maxDepth: 'Whole number from 0 to 1,000,000',
      minDelayMs: 'Whole number from 0 to 3,600,000',
      scope: 'Choose one of host, domain, directory, any',
      userAgent: 'A user agent of 1 to 512 characters',
      delayFactor: 'Number from 0 to 100',
      maxBodyBytes: 'Whole number from 1,024 to 1,073,741,824',
      ignoredExtensions: 'Ignored extensions: lowercase letters and digits separated by |',
    });
  });

  it('a politeness delay above its upper bound is refused on the upper bound, as the CLI refuses it', () => {
    expect(readCrawlForm({ ...base, minDelayMs: '60000' })).toMatchObject({ ok: false, errors: { maxDelayMs: 'At least the politeness delay (60000 ms)' } });
    expect(readCrawlForm({ ...base, minDelayMs: '60000', maxDelayMs: '60000' })).toMatchObject({ ok: true, settings: { minDelayMs: 60_000, maxDelayMs: 60_000 } });
  });

  it('refuses non-http seeds and an empty seed list', () => {
    expect(readCrawlForm({ ...base, seeds: 'ftp://a.test/' })).toMatchObject({ ok: false, errors: { seeds: 'ftp://a.test/ is not an http(s) URL' } });
    expect(readCrawlForm({ ...base, seeds: '  \n ' })).toMatchObject({ ok: false, errors: { seeds: 'Enter at least one seed URL' } });
  });
});

describe('remembered values', () => {
  it('remembers the seeds and the settings changed from the defaults, and only those', () => {
    const used = { ...base, threads: '8', obeyRobots: false };
    const remembered = formValuesToRemember(used, defaults);
    expect(remembered).toEqual({ seeds: 'http://site.test/', threads: '8', obeyRobots: false });
    // A setting left at its default follows the defaults of the next load (e.g. a list saved in Settings since).
    const nextDefaults = { ...defaults, ignoredExtensions: 'pdf' };
    expect(withRememberedValues(nextDefaults, JSON.parse(JSON.stringify(remembered)))).toEqual({ ...nextDefaults, seeds: 'http://site.test/', threads: '8', obeyRobots: false });
  });

  it('drops what is not a field or has the wrong type, and survives garbage', () => {
    expect(withRememberedValues(defaults, { threads: 8, obeyRobots: 'no', planet: 'x', maxPages: '5' })).toEqual({ ...defaults, maxPages: '5' });
    expect(withRememberedValues(defaults, null)).toEqual(defaults);
    expect(withRememberedValues(defaults, 'text')).toEqual(defaults);
  });
});

describe('parseOverrideLines', () => {
  it('reads host=address[:port] lines', () => {
    expect(parseOverrideLines('Docs.Python.Test=127.0.0.1:8080\n[::1] \nsite.test=[::1]:81')).toBe('"[::1]" is not host=address[:port]');
    expect(parseOverrideLines('docs.python.test=127.0.0.1:8080\nsite.test=[::1]')).toEqual([
      { host: 'docs.python.test', address: '127.0.0.1', port: 8080 },
      { host: 'site.test', address: '::1' },
    ]);
  });

  it('refuses port 0 and ports above 65535', () => {
    expect(parseOverrideLines('a.test=127.0.0.1:0')).toBe('"a.test=127.0.0.1:0": port must be 1-65535');
    expect(parseOverrideLines('a.test=127.0.0.1:70000')).toBe('"a.test=127.0.0.1:70000": port must be 1-65535');
  });

  it('reads *.suffix lines (every host under the suffix) and refuses a "*" anywhere else, as --resolve does', () => {
    expect(parseOverrideLines('*.Example.Test=127.0.0.1:8080\nexample.test=127.0.0.1')).toEqual([
      { host: '*.example.test', address: '127.0.0.1', port: 8080 },
      { host: 'example.test', address: '127.0.0.1' },
    ]);
    expect(parseOverrideLines('www.*.test=127.0.0.1')).toBe('"www.*.test=127.0.0.1": "*" may only be the whole first label, as in *.example.test');
  });

  it('formValuesFrom writes overrides back as lines the parser reads', () => {
    const overrides = [{ host: 'a.test', address: '127.0.0.1', port: 8080 }, { host: 'b.test', address: '::1', port: 81 }, { host: 'c.test', address: '::1' }, { host: '*.d.test', address: '127.0.0.1', port: 81 }];
    const text = formValuesFrom({ ...DEFAULT_CRAWL_SETTINGS, hostOverrides: overrides }).hostOverrides;
    expect(parseOverrideLines(text)).toEqual(overrides);
  });
});
