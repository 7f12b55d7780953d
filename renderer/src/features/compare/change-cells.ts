/**
 * What the Compare view's table shows of one change: the before and after values of the field
 * that changed, in words, and which URL of which crawl the URL inspector opens for it.
 */
import type { ComparisonSummary, CrawlChange, UrlSnapshot } from '../../../../shared/types/comparison';

/** Shown for a side the URL is missing from (added: no before; removed: no after). */
export const ABSENT = '—';

const status = (side: UrlSnapshot): string => (side.status === null ? 'no answer' : String(side.status));
const title = (side: UrlSnapshot): string => (side.title === null ? '(no title)' : side.title);
/** A fingerprint's first 12 hex digits: enough to tell two apart. */
const fingerprint = (side: UrlSnapshot): string => (side.fingerprint === null ? '(no text)' : `${side.fingerprint.slice(0, 12)}…`);
const failure = (side: UrlSnapshot): string => side.errorCode ?? (side.status !== null ? `HTTP_${side.status}` : 'failed');

/**
 * The before and after cells of a change: the field its kind is about, on each side.
 * @example changeValues({ kind: 'title', before: { title: 'Pricing', … }, after: { title: 'Plans', … }, … }) // { before: 'Pricing', after: 'Plans' }
 */
export function changeValues(change: CrawlChange): { before: string; after: string } {
  const { before, after } = change;
  switch (change.kind) {
    case 'added':
      return { before: ABSENT, after: after ? `${status(after)} ${title(after)}` : ABSENT };
    case 'removed':
      return { before: before ? `${status(before)} ${title(before)}` : ABSENT, after: ABSENT };
    case 'status':
      return { before: before ? status(before) : ABSENT, after: after ? status(after) : ABSENT };
    case 'title':
      return { before: before ? title(before) : ABSENT, after: after ? title(after) : ABSENT };
    case 'content':
    case 'near-changed': {
      const similarity = change.similarity === null || change.similarity === undefined ? 'similarity unknown' : `similarity ${change.similarity.toFixed(2)}`;
      return { before: before ? fingerprint(before) : ABSENT, after: after ? `${fingerprint(after)} (${similarity})` : ABSENT };
    }
    case 'redirect':
      return { before: before?.location ?? 'no redirect', after: after?.location ?? 'no redirect' };
    case 'new-error':
      return { before: before ? status(before) : 'new URL', after: after ? failure(after) : ABSENT };
    default: {
      const exhaustive: never = change.kind;
      return exhaustive;
    }
  }
}

/**
 * The URL the inspector opens for a change: the after crawl's when it is in the open database,
 * else the before crawl's (always the open database's); null when the URL is only in another file.
 */
export function inspectTarget(change: CrawlChange, summary: ComparisonSummary): { crawlId: number; urlId: number } | null {
  if (change.after && summary.after.file === null) return { crawlId: summary.after.crawlId, urlId: change.after.urlId };
  if (change.before) return { crawlId: summary.before.crawlId, urlId: change.before.urlId };
  return null;
}
