import type { IpcHandlers } from '../../shared/ipc/contract';
import type { SavedSettings } from '../../shared/ipc/views';
import type { NormalizationProfile } from '../../shared/url/profiles';
import type { TldConfig } from '../../shared/url/tld-config';
import { previewNormalization } from '../services/normalization-preview';
import { publicSuffixImport, testDomain } from '../services/tld-service';
import type { HandlerContext } from './handlers';

type SettingsChannels = 'settings.get' | 'settings.update' | 'settings.testDomain' | 'settings.getPublicSuffixList' | 'settings.previewNormalization';

/** The Settings view: saved crawl defaults, the domain tester, the PSL import and the normalization preview. */
export function settingsHandlers(context: HandlerContext): Pick<IpcHandlers, SettingsChannels> {
  return {
    'settings.get': async () => context.store().settings.get(),
    'settings.update': async (patch) => context.store().settings.update(patch as Partial<SavedSettings>),
    'settings.testDomain': async ({ url, tld }) => testDomain(url, tld as TldConfig),
    'settings.getPublicSuffixList': async () => publicSuffixImport(),
    'settings.previewNormalization': async ({ crawlId, profile }) => {
      const { db, crawls } = context.store();
      crawls.repositoryForQueries.getCrawl(crawlId);
      return previewNormalization(db, crawlId, profile as NormalizationProfile);
    },
  };
}
