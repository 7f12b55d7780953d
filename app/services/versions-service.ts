/** Seed 001's version URL templates as the Duplicates view shows them (the rows come from the crawl's stored index, migration 0021). */
import type { VersionTemplateDetail } from '../../shared/ipc/views';
import { CodedError } from '../../shared/types/result';
import type { VersionQueries } from '../../engine';

/**
 * One version template of a crawl: its text, its versions (release numbers ascending, then
 * channels) and its member URLs in that order, each with its state and HTTP status.
 * @throws CodedError VERSION_TEMPLATE_NOT_FOUND when the crawl has no such template (or one with a single version)
 */
export function versionTemplateDetail(queries: VersionQueries, crawlId: number, templateId: number): VersionTemplateDetail {
  const template = queries.template(crawlId, templateId);
  if (!template) throw new CodedError('VERSION_TEMPLATE_NOT_FOUND', `Crawl ${crawlId} has no version template ${templateId}: reload the Versions list (templates are listed once they have two versions)`);
  return { template, members: queries.members(crawlId, templateId) };
}
