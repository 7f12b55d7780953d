import { describe, expect, it } from 'vitest';
import { chooseGroupCanonical } from './canonical';
import { createDomainResolver } from './domain';
import { groupCanonical, type GroupCanonicalContext } from './group-canonical';
import { customProfile } from './profiles';
import { parsePublicSuffixList } from './psl';
import { parseSiteRules } from './site-rules';
import { DEFAULT_SITE_RULES } from './site-rules.default';
import { carriesSessionOrTracking } from './tracking-params';

const siteRules = parseSiteRules(DEFAULT_SITE_RULES);
if (!siteRules.ok) throw new Error(siteRules.error.message);
const context: GroupCanonicalContext = {
  siteRules: siteRules.value,
  domainOf: createDomainResolver({ mode: 'psl', generic: ['com'], additional: [] }, parsePublicSuffixList('com\norg\ntest')),
};

describe('tracking and session parameters (the profile’s removeQueryParams list)', () => {
  it('finds them in the query and in ;path parameters, by the profile’s own list', () => {
    expect(carriesSessionOrTracking('http://a.test/p?id=3&utm_source=mail')).toBe(true);
    expect(carriesSessionOrTracking('http://a.test/p?SessionID=abc')).toBe(true);
    expect(carriesSessionOrTracking('http://a.test/item;jsessionid=AB12')).toBe(true);
    expect(carriesSessionOrTracking('http://a.test/p?id=3')).toBe(false);
    expect(carriesSessionOrTracking('http://a.test/p')).toBe(false);
    expect(carriesSessionOrTracking('not a url ?utm_source=x')).toBe(false);
    const mine = customProfile('mine', 'standard');
    mine.removeQueryParams = ['ref'];
    expect(carriesSessionOrTracking('http://a.test/p?ref=home', mine)).toBe(true);
    expect(carriesSessionOrTracking('http://a.test/p?utm_source=x', mine)).toBe(false);
  });
});

describe('the best-raw-URL heuristic against hostile groups', () => {
  it('a clean spelling wins over a tracked one that was fetched with 200 while the clean one answered 404', () => {
    const chosen = chooseGroupCanonical([
      { rawUrl: 'http://a.test/p?sessionid=77', status: 200 },
      { rawUrl: 'http://a.test/p', status: 404 },
    ]);
    expect(chosen).toMatchObject({ canonical: 'http://a.test/p', decidedBy: 'noSessionOrTracking' });
  });

  it('a clean http spelling wins over a tracked https one', () => {
    expect(chooseGroupCanonical([{ rawUrl: 'https://a.test/p?utm_source=mail&utm_medium=x', status: 200 }, { rawUrl: 'http://a.test/p' }])).toMatchObject({
      canonical: 'http://a.test/p',
      decidedBy: 'noSessionOrTracking',
    });
  });

  it('when every spelling is tracked, the next heuristics decide among them (fetched, then https, then shortest)', () => {
    expect(chooseGroupCanonical([{ rawUrl: 'http://a.test/p?utm_source=a' }, { rawUrl: 'http://a.test/p?utm_source=a&sessionid=1', status: 200 }])).toMatchObject({
      canonical: 'http://a.test/p?utm_source=a&sessionid=1',
      decidedBy: 'fetchedOk',
    });
    expect(chooseGroupCanonical([{ rawUrl: 'http://a.test/p?utm_source=longer' }, { rawUrl: 'http://a.test/p?gclid=1' }])).toMatchObject({ canonical: 'http://a.test/p?gclid=1', decidedBy: 'shorterPath' });
  });

  it('among clean spellings the older heuristics still apply (https, then no query)', () => {
    const chosen = chooseGroupCanonical([{ rawUrl: 'http://a.test/p?sid=1', status: 200 }, { rawUrl: 'http://a.test/p' }, { rawUrl: 'https://a.test/p' }]);
    expect(chosen.canonical).toBe('https://a.test/p');
    expect(chosen.steps.map((step) => step.heuristic)).toEqual(['noSessionOrTracking', 'https']);
  });
});

describe('groupCanonical: every layer for a URL group', () => {
  const members = [{ rawUrl: 'http://a.test/p?utm_source=x', status: 301 }, { rawUrl: 'http://a.test/p' }];

  it('the redirect target decides first', () => {
    expect(groupCanonical({ fetchedUrl: 'http://a.test/p?utm_source=x', redirectTarget: 'http://a.test/q', relCanonical: null, members }, context)).toEqual({
      canonical: 'http://a.test/q',
      layer: 'redirect',
      decidedBy: null,
      steps: [],
    });
  });

  it('then a site rule on the fetched spelling (or its redirect target)', () => {
    const result = groupCanonical(
      { fetchedUrl: 'https://stackoverflow.com/q/1732348', redirectTarget: null, relCanonical: null, members: [{ rawUrl: 'https://stackoverflow.com/q/1732348', status: 200 }, { rawUrl: 'https://stackoverflow.com/q/1732348?utm_source=x' }] },
      context,
    );
    expect(result).toMatchObject({ canonical: 'https://stackoverflow.com/questions/1732348', layer: 'siteRule', siteRuleId: 'stackoverflow-question-short' });
  });

  it('then the page’s rel=canonical on its own site; one pointing elsewhere is ignored', () => {
    expect(groupCanonical({ fetchedUrl: 'http://a.test/p?sessionid=1', redirectTarget: null, relCanonical: 'http://a.test/p', members }, context)).toMatchObject({ canonical: 'http://a.test/p', layer: 'relCanonical' });
    expect(groupCanonical({ fetchedUrl: 'http://a.test/p?sessionid=1', redirectTarget: null, relCanonical: 'http://evil.test/p', members }, context)).toMatchObject({
      canonical: 'http://a.test/p',
      layer: 'heuristic',
      decidedBy: 'noSessionOrTracking',
    });
  });

  it('then the heuristics, which never pick the tracked spelling the crawl happened to fetch', () => {
    const fetched = [{ rawUrl: 'http://a.test/p?sessionid=9&utm_campaign=z', status: 200 }, { rawUrl: 'http://a.test/p' }];
    expect(groupCanonical({ fetchedUrl: fetched[0]!.rawUrl, redirectTarget: null, relCanonical: null, members: fetched }, context)).toMatchObject({
      canonical: 'http://a.test/p',
      layer: 'heuristic',
      decidedBy: 'noSessionOrTracking',
    });
    expect(() => groupCanonical({ fetchedUrl: 'http://a.test/', redirectTarget: null, relCanonical: null, members: [] }, context)).toThrow(RangeError);
  });
});
