import type { StateCreator } from 'zustand';
import type { RecoveryOffer } from '../../../shared/ipc/views';
import { api } from '../ipc/client';
import type { Store } from './index';

/** The "Resume crawl?" offer after an unclean exit. */
export interface RecoverySlice {
  recovery: RecoveryOffer | null;
  recoveryError: string | null;
  loadRecovery(): Promise<RecoveryOffer | null>;
  /** Resume: the crawl continues and is opened. Discard: it stays interrupted with its data. */
  answerRecovery(answer: 'resume' | 'discard'): Promise<void>;
}

/** Creates the recovery slice. */
export const createRecoverySlice: StateCreator<Store, [], [], RecoverySlice> = (set, get) => ({
  recovery: null,
  recoveryError: null,
  async loadRecovery() {
    const result = await api['crawl.getRecovery']({});
    const recovery = result.ok ? result.value : null;
    set({ recovery, recoveryError: result.ok ? null : result.error.message });
    return recovery;
  },
  async answerRecovery(answer) {
    const offer = get().recovery;
    if (!offer) return;
    if (answer === 'resume') {
      const resumed = await get().resumeCrawl(offer.crawlId);
      if (!resumed) {
        set({ recoveryError: get().crawlError?.message ?? 'Could not resume the crawl' });
        return;
      }
      get().setTab('Crawl');
    } else {
      const result = await api['crawl.discardRecovery']({ crawlId: offer.crawlId });
      if (!result.ok) {
        set({ recoveryError: result.error.message });
        return;
      }
    }
    set({ recovery: null, recoveryError: null });
    await get().loadRecovery();
  },
});
