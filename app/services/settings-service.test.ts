import { type WritableDB, openDatabase } from '../../engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import { PROFILES } from '../../shared/url/profiles';
import { defaultSavedSettings, SettingsService } from './settings-service';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

describe('SettingsService', () => {
  it('starts from the defaults and keeps what is saved in the settings table', () => {
    const settings = new SettingsService(db);
    expect(settings.get()).toEqual(defaultSavedSettings());
    settings.update({ tld: { mode: 'seed', generic: ['com'], additional: ['co.uk'] }, ignoredExtensions: 'pdf|zip' });
    const reread = new SettingsService(db).get();
    expect(reread.tld).toEqual({ mode: 'seed', generic: ['com'], additional: ['co.uk'] });
    expect(reread.ignoredExtensions).toBe('pdf|zip');
    expect(reread.normalizationProfile).toEqual(PROFILES.standard);
    expect(new SettingsService(db).crawlDefaults()).toMatchObject({ ignoredExtensions: 'pdf|zip', tld: { mode: 'seed' } });
  });

  it('refuses an invalid value with INVALID_SETTINGS naming the field, and keeps the saved one', () => {
    const settings = new SettingsService(db);
    expect(() => settings.update({ tld: { mode: 'seed', generic: ['com'], additional: ['.co.uk'] } })).toThrow(
      expect.objectContaining({ code: 'INVALID_SETTINGS', message: 'TLD lists: additional[0] ".co.uk" has a leading dot (write "co.uk")' }),
    );
    expect(() => settings.update({ ignoredExtensions: 'PDF' })).toThrow(expect.objectContaining({ code: 'INVALID_SETTINGS', message: expect.stringContaining('Ignored extensions') }));
    expect(settings.get()).toEqual(defaultSavedSettings());
  });

  it('a stored value that no longer validates falls back to its default, field by field', () => {
    db.prepare(`INSERT INTO settings (key, value_json, updated_at_ms) VALUES ('crawl.defaults', ?, 1)`).run(JSON.stringify({ tld: { mode: 'dns' }, ignoredExtensions: 'gif' }));
    expect(new SettingsService(db).get()).toEqual({ ...defaultSavedSettings(), ignoredExtensions: 'gif' });
    db.prepare(`UPDATE settings SET value_json = 'not json' WHERE key = 'crawl.defaults'`).run();
    expect(new SettingsService(db).get().ignoredExtensions).toBe(DEFAULT_CRAWL_SETTINGS.ignoredExtensions);
  });

  it('remembers the window size (within sane bounds) and the last open crawl while it exists', () => {
    const settings = new SettingsService(db);
    expect(settings.windowSize()).toBeNull();
    settings.saveWindowSize({ width: 1400.4, height: 900 });
    expect(settings.windowSize()).toEqual({ width: 1400, height: 900 });
    settings.saveWindowSize({ width: 10, height: 900 });
    expect(settings.windowSize()).toBeNull();
    settings.saveLastOpenCrawl(5);
    expect(settings.lastOpenCrawl()).toBeNull();
    db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (5, '[]', '{}', 'finished', 1)`).run();
    expect(settings.lastOpenCrawl()).toBe(5);
  });
});
