import { describe, expect, it } from 'vitest';
import { crawlSettingsFromFlags } from '../../cli/commands/crawl';
import { requestSchemas } from '../../shared/ipc/schemas';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../shared/types/crawl';
import { CRAWL_SETTINGS, CRAWL_SETTING_KEYS, readStoredCrawlSettings } from '../../shared/types/crawl-settings';
import { FORM_SETTINGS, formValuesFrom, readCrawlForm } from '../../renderer/src/features/crawl/settings-form';
import { extensionProblem } from '../../renderer/src/features/settings/list-entries';
import { SettingsService } from '../../app/services/settings-service';
import { openDatabase } from '../../engine';

/**
 * One setting, three doors: the CLI flag, IPC (crawl.start, and settings.update for the Settings
 * view's lists), and the renderer's forms. They must accept and refuse the same values, because
 * each is the same schema (shared/types/crawl-settings.ts).
 */

const ipcStart = (settings: Partial<Record<keyof CrawlSettings, unknown>>) => requestSchemas['crawl.start'].safeParse({ seeds: ['http://a.test/'], settings }).success;
const ipcSave = (patch: Record<string, unknown>) => requestSchemas['settings.update'].safeParse(patch).success;
const cli = (flags: Record<string, string | string[]>): boolean => {
  try {
    crawlSettingsFromFlags(flags);
    return true;
  } catch {
    return false;
  }
};
const formBase = { ...formValuesFrom(DEFAULT_CRAWL_SETTINGS), seeds: 'http://a.test/' };

describe('ignoredExtensions: the CLI, IPC (crawl.start, settings.update) and the Settings view agree', () => {
  it.each([
    ['pdf|zip', true],
    ['pdf', true],
    ['', true],
    ['pdf||zip', false],
    [' pdf ', false],
    ['.PDF', false],
    ['PDF', false],
    ['pdf|', false],
    ['jp g', false],
    ['pdf|zip\n', false],
  ])('%j → %s', (value, accepted) => {
    expect(cli({ 'ignore-ext': value }), 'CLI --ignore-ext').toBe(accepted);
    expect(ipcStart({ ignoredExtensions: value }), 'IPC crawl.start').toBe(accepted);
    expect(ipcSave({ ignoredExtensions: value }), 'IPC settings.update').toBe(accepted);
    // The Settings view edits the list entry by entry, joined with |.
    const entries = value.split('|');
    const viewAccepts = value === '' || entries.every((entry) => extensionProblem(entry) === null);
    expect(viewAccepts, 'Settings view').toBe(accepted);
  });
});

describe('numeric settings: the CLI flag, the crawl form and IPC agree', () => {
  const fields = [
    ['threads', 'threads'],
    ['max-pages', 'maxPages'],
    ['max-depth', 'maxDepth'],
    ['min-delay-ms', 'minDelayMs'],
  ] as const;
  it.each([
    ['8', true],
    ['0', null], // threads starts at 1, the others at 0
    ['-1', false],
    ['1e3', false],
    ['0x10', false],
    ['1.5', false],
    ['', false],
    ['NaN', false],
    ['Infinity', false],
    ['99999999999999999999', false],
  ])('%j', (text, expected) => {
    for (const [flag, key] of fields) {
      const accepted = cli({ [flag]: text });
      expect(readCrawlForm({ ...formBase, [key]: text }).ok, `form ${key}`).toBe(accepted);
      if (expected !== null) expect(accepted, `CLI --${flag}`).toBe(expected);
      // IPC gets numbers: the value the text spells when it is a plain decimal, else what JSON would carry.
      const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (/^\d+$/.test(text)) expect(ipcStart({ [key]: value }), `IPC ${key} = ${value}`).toBe(accepted);
    }
  });

  it('IPC refuses the numbers no text spelling can reach: NaN, ±Infinity, fractions, negatives, unsafe integers', () => {
    for (const value of [Number.NaN, Infinity, -Infinity, 1.5, -1, 2 ** 53, 1e300]) {
      expect(ipcStart({ maxPages: value }), String(value)).toBe(false);
      expect(ipcStart({ threads: value }), String(value)).toBe(false);
    }
  });

  it('the bounds are the same everywhere: threads 1-256, maxDepth up to 1,000,000', () => {
    expect([cli({ threads: '256' }), readCrawlForm({ ...formBase, threads: '256' }).ok, ipcStart({ threads: 256 })]).toEqual([true, true, true]);
    expect([cli({ threads: '257' }), readCrawlForm({ ...formBase, threads: '257' }).ok, ipcStart({ threads: 257 })]).toEqual([false, false, false]);
    expect([cli({ 'max-depth': '1000000' }), readCrawlForm({ ...formBase, maxDepth: '1000000' }).ok, ipcStart({ maxDepth: 1_000_000 })]).toEqual([true, true, true]);
    expect([cli({ 'max-depth': '1000001' }), readCrawlForm({ ...formBase, maxDepth: '1000001' }).ok, ipcStart({ maxDepth: 1_000_001 })]).toEqual([false, false, false]);
    expect([cli({ 'max-pages': '200000000' }), readCrawlForm({ ...formBase, maxPages: '200000000' }).ok, ipcStart({ maxPages: 200_000_000 })]).toEqual([true, true, true]);
  });
});

describe('userAgent: the CLI, the crawl form and IPC agree', () => {
  it.each([
    ['Crawlbench/0.1', true],
    ['bot\r\nX-Injected: 1', false],
    ['bot\nx', false],
    ['bot\tx', false],
    ['bot\u007f', false],
    ['x'.repeat(512), true],
    ['x'.repeat(513), false],
  ])('%j → %s', (value, accepted) => {
    expect(cli({ 'user-agent': value }), 'CLI').toBe(accepted);
    expect(ipcStart({ userAgent: value }), 'IPC').toBe(accepted);
    expect(readCrawlForm({ ...formBase, userAgent: value }).ok, 'form').toBe(accepted);
  });

  it('only spaces are refused by all (the form trims first, its own text parsing)', () => {
    expect([cli({ 'user-agent': '   ' }), ipcStart({ userAgent: '   ' }), readCrawlForm({ ...formBase, userAgent: '   ' }).ok]).toEqual([false, false, false]);
  });
});

describe('URL patterns: --include/--exclude, the form fields and IPC agree (syntax and length; the engine checks backtracking at start)', () => {
  it.each([
    ['/products/', true],
    ['^https://a\\.test/(en|de)/', true],
    ['(unclosed', false],
    ['[z-a]', false],
    ['x'.repeat(1000), true],
    ['x'.repeat(1001), false],
  ])('%j → %s', (pattern, accepted) => {
    for (const [flag, key] of [['include', 'includeUrlPatterns'], ['exclude', 'excludeUrlPatterns']] as const) {
      expect(cli({ [flag]: [pattern] }), `CLI --${flag}`).toBe(accepted);
      expect(ipcStart({ [key]: [pattern] }), `IPC ${key}`).toBe(accepted);
      expect(readCrawlForm({ ...formBase, [key]: pattern }).ok, `form ${key}`).toBe(accepted);
    }
  });

  it('an empty pattern is refused by the CLI and IPC; the form skips empty lines', () => {
    expect([cli({ include: [''] }), ipcStart({ includeUrlPatterns: [''] }), readCrawlForm({ ...formBase, includeUrlPatterns: '\n\n' }).ok]).toEqual([false, false, true]);
  });

  it('crawl mode: --mode, --seeds-only, the form and IPC accept spider and list only', () => {
    expect([cli({ mode: 'list' }), ipcStart({ crawlMode: 'list' }), readCrawlForm({ ...formBase, crawlMode: 'list' }).ok]).toEqual([true, true, true]);
    expect([cli({ mode: 'seeds' }), ipcStart({ crawlMode: 'seeds' }), readCrawlForm({ ...formBase, crawlMode: 'seeds' }).ok]).toEqual([false, false, false]);
    expect(crawlSettingsFromFlags({ 'seeds-only': true })).toEqual({ crawlMode: 'list' });
    expect(() => crawlSettingsFromFlags({ 'seeds-only': true, mode: 'spider' })).toThrow(/contradict/);
  });
});

describe('host overrides: --resolve, the Host overrides field and IPC agree', () => {
  it.each([
    ['a.test=127.0.0.1:8080', true],
    ['a.test=[::1]:81', true],
    ['a.test=256.1.1.1', false],
    ['a.test=1.2.3', false],
    ['a.test=example.com', false],
    ['a.test=127.0.0.1:0', false],
  ])('%j → %s', (line, accepted) => {
    expect(cli({ resolve: [line] }), 'CLI').toBe(accepted);
    expect(readCrawlForm({ ...formBase, hostOverrides: line }).ok, 'form').toBe(accepted);
    const [host, rest] = line.split('=') as [string, string];
    const address = rest.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    const port = /:(\d+)$/.exec(rest)?.[1];
    expect(ipcStart({ hostOverrides: [{ host, address, ...(port ? { port: Number(port) } : {}) }] }), 'IPC').toBe(accepted);
  });
});

describe('every default passes its own schema, and stored settings are read by the same schemas', () => {
  it('DEFAULT_CRAWL_SETTINGS is valid setting by setting', () => {
    for (const key of CRAWL_SETTING_KEYS) {
      expect(CRAWL_SETTINGS[key].schema.safeParse(DEFAULT_CRAWL_SETTINGS[key]).success, key).toBe(true);
      expect(CRAWL_SETTINGS[key].default, key).toEqual(DEFAULT_CRAWL_SETTINGS[key]);
    }
    expect(Object.keys(CRAWL_SETTINGS).sort()).toEqual(Object.keys(DEFAULT_CRAWL_SETTINGS).sort());
  });

  it('a stored crawl keeps its valid fields; a missing or invalid one takes its default', () => {
    const stored = readStoredCrawlSettings({ threads: 8, ignoredExtensions: 'pdf||zip', userAgent: 'bot\r\nx', maxPages: 'ten', unknown: 1 });
    expect(stored).toEqual({ ...DEFAULT_CRAWL_SETTINGS, threads: 8 });
    expect(readStoredCrawlSettings(null)).toEqual(DEFAULT_CRAWL_SETTINGS);
  });

  it('the saved Settings refuse and ignore the same extension lists', () => {
    const db = openDatabase(':memory:');
    try {
      const settings = new SettingsService(db);
      for (const value of ['pdf||zip', ' pdf ', '.PDF']) expect(() => settings.update({ ignoredExtensions: value }), value).toThrow(/Ignored extensions/);
      db.prepare(`INSERT OR REPLACE INTO settings (key, value_json, updated_at_ms) VALUES ('crawl.defaults', ?, 1)`).run(JSON.stringify({ ignoredExtensions: 'pdf||zip' }));
      expect(settings.get().ignoredExtensions).toBe(DEFAULT_CRAWL_SETTINGS.ignoredExtensions);
    } finally {
      db.close();
    }
  });
});

describe('the crawl form names the CLI flag of each setting', () => {
  it.each(FORM_SETTINGS.filter((setting) => setting.flag !== undefined).map((setting) => [setting.flag!, setting] as const))('%s sets the field\'s setting', (flag, setting) => {
    const name = flag.slice(2);
    const sample: Partial<Record<string, string | string[] | boolean>> = { 'include-domain': ['a.test'], 'exclude-domain': ['a.test'], resolve: ['a.test=127.0.0.1'], include: ['/a/'], exclude: ['/a/'], extract: ['price=css:.price'] };
    const value = setting.kind === 'switch' ? true : (sample[name] ?? String(formValuesFrom(DEFAULT_CRAWL_SETTINGS)[setting.key]));
    const settings = crawlSettingsFromFlags({ [name]: value } as Record<string, string | boolean | string[]>);
    expect(Object.keys(settings)).toEqual([setting.key]);
    if (setting.kind === 'switch') expect(settings[setting.key]).toBe(!setting.flagTurnsOff);
  });
});
