import { describe, expect, it } from 'vitest';
import type { ComparisonSummary, CrawlChange, UrlSnapshot } from '../../../../shared/types/comparison';
import { ABSENT, changeValues, inspectTarget } from './change-cells';

const side = (fields: Partial<UrlSnapshot>): UrlSnapshot => ({ urlId: 1, url: 'http://a.test/', state: 'done', status: 200, title: 'Home', fingerprint: 'a'.repeat(64), location: null, errorCode: null, ...fields });
const change = (kind: CrawlChange['kind'], before: UrlSnapshot | null, after: UrlSnapshot | null, similarity?: number | null): CrawlChange => ({
  kind,
  normalizedKey: 'k',
  url: (after ?? before)!.url,
  before,
  after,
  ...(similarity === undefined ? {} : { similarity }),
});

describe('changeValues', () => {
  it('shows the field each kind is about, before and after', () => {
    expect(changeValues(change('added', null, side({ status: 404, title: null })))).toEqual({ before: ABSENT, after: '404 (no title)' });
    expect(changeValues(change('removed', side({}), null))).toEqual({ before: '200 Home', after: ABSENT });
    expect(changeValues(change('status', side({}), side({ status: null, state: 'error' })))).toEqual({ before: '200', after: 'no answer' });
    expect(changeValues(change('title', side({ title: 'Pricing' }), side({ title: 'Pricing and plans' })))).toEqual({ before: 'Pricing', after: 'Pricing and plans' });
    expect(changeValues(change('near-changed', side({}), side({ fingerprint: 'b'.repeat(64) }), 0.953))).toEqual({ before: 'aaaaaaaaaaaa…', after: 'bbbbbbbbbbbb… (similarity 0.95)' });
    expect(changeValues(change('content', side({}), side({ fingerprint: 'b'.repeat(64) }), null)).after).toBe('bbbbbbbbbbbb… (similarity unknown)');
    expect(changeValues(change('redirect', side({ status: 301, location: 'http://a.test/new' }), side({})))).toEqual({ before: 'http://a.test/new', after: 'no redirect' });
    expect(changeValues(change('new-error', side({}), side({ status: 500, errorCode: null })))).toEqual({ before: '200', after: 'HTTP_500' });
    expect(changeValues(change('new-error', null, side({ status: null, state: 'error', errorCode: 'CONNECTION_REFUSED' })))).toEqual({ before: 'new URL', after: 'CONNECTION_REFUSED' });
  });
});

describe('inspectTarget', () => {
  const summary = (afterFile: string | null) => ({ before: { crawlId: 1, file: null }, after: { crawlId: 2, file: afterFile } }) as unknown as ComparisonSummary;

  it('opens the after crawl’s URL in the open database, else the before crawl’s, else nothing', () => {
    const both = change('title', side({ urlId: 10 }), side({ urlId: 20 }));
    expect(inspectTarget(both, summary(null))).toEqual({ crawlId: 2, urlId: 20 });
    expect(inspectTarget(both, summary('/data/other.db'))).toEqual({ crawlId: 1, urlId: 10 });
    expect(inspectTarget(change('added', null, side({ urlId: 20 })), summary('/data/other.db'))).toBeNull();
    expect(inspectTarget(change('removed', side({ urlId: 10 }), null), summary(null))).toEqual({ crawlId: 1, urlId: 10 });
  });
});
