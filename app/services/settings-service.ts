import type { WritableDB } from '../../engine';
import type { SavedSettings } from '../../shared/ipc/views';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../shared/types/crawl';
import { validateSetting } from '../../shared/types/crawl-settings';
import { CodedError } from '../../shared/types/result';

/** Keys of the `settings` table (value_json holds JSON). */
const KEYS = {
  crawlDefaults: 'crawl.defaults',
  window: 'ui.window',
  lastOpenCrawl: 'ui.lastOpenCrawl',
} as const;

/** Persisted size of the main window, in device-independent pixels. */
export interface WindowSize {
  width: number;
  height: number;
}

/** The Settings view's defaults: the app's built-in crawl defaults. */
export function defaultSavedSettings(): SavedSettings {
  return {
    tld: structuredClone(DEFAULT_CRAWL_SETTINGS.tld),
    ignoredExtensions: DEFAULT_CRAWL_SETTINGS.ignoredExtensions,
    normalizationProfile: structuredClone(DEFAULT_CRAWL_SETTINGS.normalizationProfile),
  };
}

/**
 * Settings kept in SQLite's `settings` table (key → JSON): the Settings view's crawl defaults
 * (TLD lists, ignored extensions, normalization profile; applied to the next crawl through
 * CrawlService's `defaults`), the window size and the last open crawl.
 * A stored value that no longer validates is ignored (the default is used), never thrown.
 */
export class SettingsService {
  constructor(private readonly db: WritableDB) {}

  /** The saved Settings, each field validated (an invalid stored field falls back to its default). */
  get(): SavedSettings {
    const stored = this.read<Partial<Record<keyof SavedSettings, unknown>>>(KEYS.crawlDefaults) ?? {};
    const defaults = defaultSavedSettings();
    // Each field by its crawl setting's schema (shared/types/crawl-settings.ts), as IPC and the CLI check it.
    const tld = validateSetting('tld', stored.tld);
    const profile = validateSetting('normalizationProfile', stored.normalizationProfile);
    const extensions = validateSetting('ignoredExtensions', stored.ignoredExtensions);
    return {
      tld: tld.ok ? tld.value : defaults.tld,
      normalizationProfile: profile.ok ? profile.value : defaults.normalizationProfile,
      ignoredExtensions: extensions.ok ? extensions.value : defaults.ignoredExtensions,
    };
  }

  /**
   * Saves the given fields (others keep their saved value).
   * @returns the saved Settings after the change
   * @throws CodedError INVALID_SETTINGS naming the field when a value does not validate
   */
  update(patch: Partial<SavedSettings>): SavedSettings {
    const next = { ...this.get(), ...patch };
    const checked = <K extends keyof SavedSettings>(key: K, label: string): SavedSettings[K] => {
      const result = validateSetting(key, next[key]);
      if (!result.ok) throw new CodedError('INVALID_SETTINGS', `${label}: ${result.error.message}`);
      return result.value as SavedSettings[K];
    };
    const saved: SavedSettings = { tld: checked('tld', 'TLD lists'), normalizationProfile: checked('normalizationProfile', 'Normalization profile'), ignoredExtensions: checked('ignoredExtensions', 'Ignored extensions') };
    this.write(KEYS.crawlDefaults, saved);
    return saved;
  }

  /** The saved Settings as crawl settings, for CrawlService's `defaults` option. */
  crawlDefaults(): Partial<CrawlSettings> {
    return { ...this.get() };
  }

  /** The persisted window size, or null. */
  windowSize(): WindowSize | null {
    const size = this.read<WindowSize>(KEYS.window);
    const valid = size && Number.isInteger(size.width) && Number.isInteger(size.height) && size.width >= 400 && size.height >= 300 && size.width <= 16_384 && size.height <= 16_384;
    return valid ? { width: size.width, height: size.height } : null;
  }

  saveWindowSize(size: WindowSize): void {
    this.write(KEYS.window, { width: Math.round(size.width), height: Math.round(size.height) });
  }

  /** The crawl open when the app last closed, if it still exists. */
  lastOpenCrawl(): number | null {
    const id = this.read<number>(KEYS.lastOpenCrawl);
    if (typeof id !== 'number') return null;
    return this.db.prepare(`SELECT 1 FROM crawls WHERE id = ?`).get(id) ? id : null;
  }

  saveLastOpenCrawl(crawlId: number): void {
    this.write(KEYS.lastOpenCrawl, crawlId);
  }

  /** Every stored row (to carry settings across a checkpoint rollback). */
  snapshot(): { key: string; valueJson: string; updatedAtMs: number }[] {
    return this.db.prepare(`SELECT key, value_json AS valueJson, updated_at_ms AS updatedAtMs FROM settings`).all() as { key: string; valueJson: string; updatedAtMs: number }[];
  }

  /** Writes rows taken by {@link snapshot}, replacing those keys. */
  restore(rows: readonly { key: string; valueJson: string; updatedAtMs: number }[]): void {
    const upsert = this.db.prepare(`INSERT OR REPLACE INTO settings (key, value_json, updated_at_ms) VALUES (?, ?, ?)`);
    this.db.transaction(() => {
      for (const row of rows) upsert.run(row.key, row.valueJson, row.updatedAtMs);
    })();
  }

  private read<T>(key: string): T | null {
    const json = this.db.prepare(`SELECT value_json FROM settings WHERE key = ?`).pluck().get(key) as string | undefined;
    if (json === undefined) return null;
    try {
      return JSON.parse(json) as T;
    } catch {
      return null;
    }
  }

  private write(key: string, value: unknown): void {
    this.db.prepare(`INSERT OR REPLACE INTO settings (key, value_json, updated_at_ms) VALUES (?, ?, ?)`).run(key, JSON.stringify(value), Date.now());
  }
}
