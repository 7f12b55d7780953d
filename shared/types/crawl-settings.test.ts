import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from './crawl';
import { CRAWL_SETTINGS, crawlSettingsInputSchema, hasControlCharacters, readStoredCrawlSettings, settingBounds, settingFromText, validateSetting } from './crawl-settings';

describe('crawl settings schemas', () => {
  it('each setting carries its default, unit and a description', () => {
    expect(CRAWL_SETTINGS.robotsRetryDelayMs).toMatchObject({ default: 10_000, unit: 'ms' });
    expect(CRAWL_SETTINGS.delayFactor).toMatchObject({ default: 5, unit: 'factor' });
    for (const [key, spec] of Object.entries(CRAWL_SETTINGS)) expect(spec.description, key).toMatch(/\.$/);
  });

  it('validateSetting says why, without the key (the caller names the setting)', () => {
    expect(validateSetting('ignoredExtensions', 'pdf||zip')).toEqual({ ok: false, error: { code: 'INVALID_SETTINGS', message: 'lowercase letters and digits separated by |' } });
    expect(validateSetting('threads', 8)).toEqual({ ok: true, value: 8 });
    expect(validateSetting('hostOverrides', [{ host: 'a.test', address: 'example.com' }]).ok).toBe(false);
    // Wildcards: `*` only as the whole first label (the same check as --resolve and the form).
    expect(validateSetting('hostOverrides', [{ host: '*.a.test', address: '127.0.0.1', port: 8080 }]).ok).toBe(true);
    expect(validateSetting('hostOverrides', [{ host: 'a.*.test', address: '127.0.0.1' }])).toEqual({ ok: false, error: { code: 'INVALID_SETTINGS', message: '"*" may only be the whole first label, as in *.example.test' } });
  });

  it('settingFromText reads decimal digits (a fraction only where the setting is fractional)', () => {
    expect(settingFromText('threads', '8')).toEqual({ ok: true, value: 8 });
    expect(settingFromText('delayFactor', '.5')).toEqual({ ok: true, value: 0.5 });
    for (const text of ['1e3', '0x10', '-1', '', ' 8', '1.5', 'NaN']) expect(settingFromText('threads', text).ok, text).toBe(false);
    expect(settingFromText('delayFactor', '1e1').ok).toBe(false);
  });

  it('settingBounds reads the schema', () => {
    expect(settingBounds('threads')).toEqual({ min: 1, max: 256, integer: true });
    expect(settingBounds('maxPages')).toEqual({ min: 0, max: Number.MAX_SAFE_INTEGER, integer: true });
    expect(settingBounds('delayFactor')).toEqual({ min: 0, max: 100, integer: false });
  });

  it('the IPC input is partial and strict', () => {
    expect(crawlSettingsInputSchema.safeParse({}).success).toBe(true);
    expect(crawlSettingsInputSchema.safeParse({ threads: 2, bogus: 1 }).success).toBe(false);
  });

  it('readStoredCrawlSettings fills an old crawl\'s missing fields with defaults', () => {
    const { pageTextChars: _dropped, ...older } = DEFAULT_CRAWL_SETTINGS;
    expect(readStoredCrawlSettings({ ...older, threads: 2 })).toEqual({ ...DEFAULT_CRAWL_SETTINGS, threads: 2 });
  });

  it('hasControlCharacters', () => {
    expect(hasControlCharacters('bot\r\n')).toBe(true);
    expect(hasControlCharacters('bot\u007f')).toBe(true);
    expect(hasControlCharacters('Crawlbench/0.1 (+https://x)')).toBe(false);
  });
});
