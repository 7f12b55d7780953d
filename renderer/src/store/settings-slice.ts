import type { StateCreator } from 'zustand';
import type { SavedSettings } from '../../../shared/ipc/views';
import { api } from '../ipc/client';
import type { Store } from './index';

/** The Settings view: what is saved, the draft being edited, and the last save's outcome. */
export interface SettingsSlice {
  savedSettings: SavedSettings | null;
  draftSettings: SavedSettings | null;
  settingsError: string | null;
  settingsNotice: string | null;
  loadSettings(): Promise<void>;
  editSettings(patch: Partial<SavedSettings>): void;
  discardSettingsDraft(): void;
  /** Saves the draft. @returns true when saved */
  saveSettings(): Promise<boolean>;
  /** Restarts the running open crawl with the saved TLD lists and ignored extensions ("Apply now"). */
  applySettingsNow(): Promise<boolean>;
}

/** Creates the settings slice. */
export const createSettingsSlice: StateCreator<Store, [], [], SettingsSlice> = (set, get) => ({
  savedSettings: null,
  draftSettings: null,
  settingsError: null,
  settingsNotice: null,
  async loadSettings() {
    const result = await api['settings.get']({});
    if (result.ok) set({ savedSettings: result.value, draftSettings: result.value, settingsError: null });
    else set({ settingsError: result.error.message });
  },
  editSettings(patch) {
    const draft = get().draftSettings;
    if (draft) set({ draftSettings: { ...draft, ...patch }, settingsNotice: null });
  },
  discardSettingsDraft() {
    set((state) => ({ draftSettings: state.savedSettings, settingsError: null, settingsNotice: null }));
  },
  async saveSettings() {
    const draft = get().draftSettings;
    if (!draft) return false;
    const result = await api['settings.update'](draft);
    if (!result.ok) {
      set({ settingsError: result.error.message, settingsNotice: null });
      return false;
    }
    set({ savedSettings: result.value, draftSettings: result.value, settingsError: null, settingsNotice: 'Saved: the next crawl uses these settings.' });
    void get().loadInfo();
    return true;
  },
  async applySettingsNow() {
    const { crawlId, savedSettings } = get();
    if (crawlId === null || !savedSettings) return false;
    const result = await api['crawl.applySettings']({ crawlId, settings: { tld: savedSettings.tld, ignoredExtensions: savedSettings.ignoredExtensions } });
    if (!result.ok) {
      set({ settingsError: result.error.message });
      return false;
    }
    set({ settingsNotice: `Saved and applied: crawl ${crawlId} restarted with the new lists.` });
    await get().openCrawl(crawlId);
    return true;
  },
});
