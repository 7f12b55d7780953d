import type { IpcHandlers } from '../../shared/ipc/contract';
import { contentGroupDetail, urlGroupDetail } from '../services/duplicates-service';
import { versionTemplateDetail } from '../services/versions-service';
import type { HandlerContext } from './handlers';

type DuplicateChannels =
  | 'duplicates.queryUrlGroups'
  | 'duplicates.getUrlGroup'
  | 'duplicates.queryContentGroups'
  | 'duplicates.getContentGroup'
  | 'duplicates.queryVersionTemplates'
  | 'duplicates.getVersionTemplate';

/** The Duplicates view: duplicate-URL groups and content groups, paged, and one group's detail. */
export function duplicateHandlers(context: HandlerContext): Pick<IpcHandlers, DuplicateChannels> {
  return {
    'duplicates.queryUrlGroups': async ({ crawlId, ...query }) => context.store().duplicates.urlGroups(crawlId, query),
    'duplicates.getUrlGroup': async ({ crawlId, urlId }) => {
      const { duplicates, crawls } = context.store();
      return urlGroupDetail(duplicates, crawlId, urlId, crawls.repositoryForQueries.getCrawl(crawlId).settings);
    },
    'duplicates.queryContentGroups': async ({ crawlId, ...query }) => context.store().duplicates.contentGroups(crawlId, query),
    'duplicates.getContentGroup': async ({ crawlId, groupId }) => contentGroupDetail(context.store().duplicates, crawlId, groupId),
    'duplicates.queryVersionTemplates': async ({ crawlId, ...query }) => context.store().versions.templates(crawlId, query),
    'duplicates.getVersionTemplate': async ({ crawlId, templateId }) => versionTemplateDetail(context.store().versions, crawlId, templateId),
  };
}
