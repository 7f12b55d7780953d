import type { IpcHandlers } from '../../shared/ipc/contract';
import { CodedError } from '../../shared/types/result';
import { crawlControlOf, excludeLikeUrl, inspectUrl, refetchUrl, type InspectorSources } from '../services/inspector-service';
import type { DataStore } from '../services/app-services';
import { pageSource } from '../services/page-source';
import type { HandlerContext } from './handlers';

type InspectorChannels = 'urls.inspect' | 'urls.source' | 'urls.queryLinks' | 'urls.refetch' | 'urls.exclude' | 'urls.openExternal';

function sourcesOf(store: DataStore): InspectorSources {
  return { queries: store.inspector, duplicates: store.duplicates, crawls: store.crawls.repositoryForQueries, versions: store.versions };
}

/** The URL inspector: one URL's story, its links a window at a time, and its actions (re-fetch, exclude, open in the system browser). */
export function inspectorHandlers(context: HandlerContext): Pick<IpcHandlers, InspectorChannels> {
  return {
    'urls.inspect': async ({ crawlId, urlId }) => {
      const store = context.store();
      return inspectUrl(sourcesOf(store), crawlId, urlId, store.crawls.isRunning(crawlId));
    },
    'urls.source': async ({ crawlId, urlId }) => {
      const store = context.store();
      return pageSource(store.inspector, crawlId, urlId, store.crawls.repositoryForQueries.getCrawl(crawlId).settings);
    },
    'urls.queryLinks': async ({ crawlId, urlId, direction, offset, limit }) => {
      const { inspector } = context.store();
      return direction === 'in' ? inspector.inlinks(crawlId, urlId, { offset, limit }) : inspector.outlinks(crawlId, urlId, { offset, limit });
    },
    'urls.refetch': async ({ crawlId, urlId }) => {
      const store = context.store();
      const record = store.inspector.url(crawlId, urlId);
      if (!record) throw new CodedError('URL_NOT_FOUND', `Crawl ${crawlId} has no URL ${urlId}`);
      return refetchUrl(crawlControlOf(store.crawls), crawlId, urlId, record.url);
    },
    'urls.exclude': async ({ crawlId, urlId, rule }) => {
      const store = context.store();
      return excludeLikeUrl(sourcesOf(store), crawlControlOf(store.crawls), crawlId, urlId, rule);
    },
    'urls.openExternal': async ({ url }) => {
      if (!context.openExternal) throw new CodedError('NOT_SUPPORTED', 'Only the desktop app opens the system browser; browser mode opens links in a new tab.');
      await context.openExternal(url);
      return { opened: true };
    },
  };
}
