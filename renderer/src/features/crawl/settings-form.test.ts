import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../../shared/types/crawl';
import { formValuesFrom, parseOverrideLines, readCrawlForm } from './settings-form';

const base = { ...formValuesFrom(DEFAULT_CRAWL_SETTINGS), seeds: 'http://site.test/' };

describe('readCrawlForm', () => {
  it('turns valid values into seeds and settings', () => {
    const form = readCrawlForm({ ...base, seeds: 'http://a.test/\n\n https://b.test/x ', threads: '8', maxDepth: '3', scope: 'domain', obeyRobots: false });
    expect(form).toEqual({
      ok: true,
      seeds: ['http://a.test/', 'https://b.test/x'],
      settings: expect.objectContaining({ threads: 8, maxDepth: 3, scope: 'domain', obeyRobots: false, maxPages: 0 }),
    });
  });

  it('names each bad field and starts nothing', () => {
    const form = readCrawlForm({ ...base, seeds: 'not a url', threads: '0', maxPages: '-1', maxDepth: '1.5', minDelayMs: '', scope: 'planet', userAgent: ' ' });
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
    });
  });

  it('a politeness delay above the default upper bound raises the upper bound with it', () => {
    expect(readCrawlForm({ ...base, minDelayMs: '60000' })).toMatchObject({ ok: true, settings: { minDelayMs: 60_000, maxDelayMs: 60_000 } });
    expect(readCrawlForm({ ...base, minDelayMs: '500' })).toMatchObject({ ok: true, settings: expect.not.objectContaining({ maxDelayMs: expect.anything() }) });
  });

  it('refuses non-http seeds and an empty seed list', () => {
    expect(readCrawlForm({ ...base, seeds: 'ftp://a.test/' })).toMatchObject({ ok: false, errors: { seeds: 'ftp://a.test/ is not an http(s) URL' } });
    expect(readCrawlForm({ ...base, seeds: '  \n ' })).toMatchObject({ ok: false, errors: { seeds: 'Enter at least one seed URL' } });
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
});
