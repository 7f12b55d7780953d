import type { ContentGroupDetail, UrlGroupDetail } from '../../shared/ipc/views';
import type { CrawlSettings } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import { differenceCauses, type GroupMember } from '../../shared/url/canonical';
import { groupCanonical } from '../../shared/url/group-canonical';
import { PROFILES, validateProfile, type NormalizationProfile } from '../../shared/url/profiles';
import type { DuplicateQueries } from '../../engine';
import { groupCanonicalContext } from './canonical-context';

/** The crawl's normalization profile (its keys were made with it), or `standard` when unreadable. */
export function crawlProfile(settings: Partial<CrawlSettings>): NormalizationProfile {
  const valid = validateProfile(settings.normalizationProfile);
  return valid.ok ? valid.value : PROFILES.standard;
}

/**
 * A duplicate-URL group: its raw spellings, each labelled with why it differs from the normalized
 * form (shared/url differenceCauses under the crawl's own profile), and the group's canonical URL
 * chosen by seed 001's layers: the fetched URL's redirect target, a site rule, its page's
 * rel=canonical, else the best-raw-URL heuristics, which never pick a session-id or tracking
 * spelling while a clean one exists (shared/url/group-canonical.ts). Only the fetched spelling has a status.
 * @throws CodedError GROUP_NOT_FOUND
 */
export function urlGroupDetail(queries: DuplicateQueries, crawlId: number, urlId: number, settings: Partial<CrawlSettings>): UrlGroupDetail {
  const url = queries.groupUrl(crawlId, urlId);
  if (!url) throw new CodedError('GROUP_NOT_FOUND', `Crawl ${crawlId} has no URL ${urlId}`);
  const profile = crawlProfile(settings);
  const aliases = queries.aliases(urlId);
  const spellings = aliases.length > 0 ? aliases : [{ rawUrl: url.url, firstSeenFrom: null, fragmentSpellings: 0 }];
  const members: GroupMember[] = spellings.map((alias) => ({ rawUrl: alias.rawUrl, ...(alias.rawUrl === url.url && url.httpStatus !== null ? { status: url.httpStatus } : {}) }));
  const canonical = groupCanonical({ fetchedUrl: url.url, ...queries.canonicalFacts(crawlId, urlId), members }, groupCanonicalContext(settings, profile));
  return {
    urlId,
    normalizedKey: url.normalizedKey,
    normalized: url.normalized,
    fetchedUrl: url.url,
    httpStatus: url.httpStatus,
    canonical: canonical.canonical,
    layer: canonical.layer,
    decidedBy: canonical.decidedBy,
    ...(canonical.siteRuleId ? { siteRuleId: canonical.siteRuleId } : {}),
    steps: canonical.steps,
    profileName: profile.name,
    members: spellings.map((alias) => {
      const report = differenceCauses(alias.rawUrl, profile);
      return { rawUrl: alias.rawUrl, causes: report.ok ? report.value.causes : [], firstSeenFrom: alias.firstSeenFrom, fragmentSpellings: alias.fragmentSpellings };
    }),
  };
}

/**
 * A content group with its pages and, for the text diff, the first two pages' visible texts when
 * the database keeps them, else their titles.
 * @throws CodedError GROUP_NOT_FOUND
 */
export function contentGroupDetail(queries: DuplicateQueries, crawlId: number, groupId: number): ContentGroupDetail {
  const group = queries.contentGroup(crawlId, groupId);
  if (!group) throw new CodedError('GROUP_NOT_FOUND', `Crawl ${crawlId} has no content group ${groupId}`);
  const members = queries.contentMembers(groupId);
  const [first, second] = members;
  let texts: ContentGroupDetail['texts'] = null;
  if (first && second) {
    const left = queries.pageText(first.urlId);
    const right = queries.pageText(second.urlId);
    texts = left !== null && right !== null ? { left, right, textSource: 'page text' } : { left: first.title ?? '', right: second.title ?? '', textSource: 'titles' };
  }
  return { group, members, texts };
}
