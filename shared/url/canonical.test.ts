import { describe, expect, it } from 'vitest';
import { canonicalUrl, chooseGroupCanonical, differenceCauses, type CanonicalContext } from './canonical';
import { createDomainResolver } from './domain';
import { PROFILES } from './profiles';
import { parsePublicSuffixList } from './psl';
import { parseSiteRules } from './site-rules';
import { DEFAULT_SITE_RULES } from './site-rules.default';

const siteRules = parseSiteRules(DEFAULT_SITE_RULES);
if (!siteRules.ok) throw new Error(siteRules.error.message);
const context: CanonicalContext = {
  siteRules: siteRules.value,
  domainOf: createDomainResolver({ mode: 'psl', generic: ['com'], additional: [] }, parsePublicSuffixList('com\norg\nuk\nco.uk\ntest')),
};

describe('canonical URL layers (seed 001)', () => {
  it('a redirected answer link becomes its question (redirect, then site rule)', () => {
    const result = canonicalUrl({ rawUrl: 'https://stackoverflow.com/a/1732454', redirects: ['/questions/1732348/regex-match-open-tags-except-xhtml-self-contained-tags/1732454#1732454'] }, context);
    expect(result).toMatchObject({ canonical: 'https://stackoverflow.com/questions/1732348', decidedBy: 'siteRule', siteRuleId: 'stackoverflow-question-slug' });
    expect(result.steps.map((step) => [step.layer, step.applied])).toEqual([
      ['redirect', true],
      ['siteRule', true],
    ]);
  });

  it('seed 001: every listed Stack Overflow name has the canonical https://stackoverflow.com/questions/1732348', () => {
    const names = [
      { rawUrl: 'https://stackoverflow.com/questions/1732348/regex-match-open-tags-except-xhtml-self-contained-tags' },
      { rawUrl: 'https://stackoverflow.com/questions/1732348/you-can-actually-put-anything-here' },
      { rawUrl: 'https://stackoverflow.com/q/1732348' },
      { rawUrl: 'http://www.stackexchange.com/q/1732348', redirects: ['https://stackoverflow.com/questions/1732348'] },
      { rawUrl: 'https://stackoverflow.com/a/1732454', redirects: ['https://stackoverflow.com/questions/1732348/regex-match-open-tags-except-xhtml-self-contained-tags/1732454#1732454'] },
    ];
    for (const name of names) expect(canonicalUrl(name, context).canonical, name.rawUrl).toBe('https://stackoverflow.com/questions/1732348');
  });

  it('Wikipedia index.php links become /wiki/ links', () => {
    expect(canonicalUrl({ rawUrl: 'https://en.wikipedia.org/w/index.php?title=URL_normalization' }, context).canonical).toBe('https://en.wikipedia.org/wiki/URL_normalization');
  });

  it('rel=canonical is taken from the link element or the Link header, on the same registrable domain only', () => {
    expect(canonicalUrl({ rawUrl: 'http://www.a.test/p?x=1', relCanonical: '/p' }, context)).toMatchObject({ canonical: 'http://www.a.test/p', decidedBy: 'relCanonical' });
    expect(canonicalUrl({ rawUrl: 'http://www.a.test/p?x=1', linkHeader: '<https://a.test/p>; rel="canonical"' }, context)).toMatchObject({ canonical: 'https://a.test/p', decidedBy: 'relCanonical' });
    const foreign = canonicalUrl({ rawUrl: 'http://www.a.test/p', relCanonical: 'http://evil.test/p' }, context);
    expect(foreign).toMatchObject({ canonical: 'http://www.a.test/p', decidedBy: 'raw' });
    expect(foreign.steps.find((step) => step.layer === 'relCanonical')).toMatchObject({ applied: false, note: '<link rel="canonical"> points outside a.test: ignored' });
  });

  it('falls back to the redirect destination, else the raw URL', () => {
    expect(canonicalUrl({ rawUrl: 'http://a.test/old', redirects: ['/new'] }, context)).toMatchObject({ canonical: 'http://a.test/new', decidedBy: 'redirect' });
    expect(canonicalUrl({ rawUrl: 'http://a.test/x#y' }, context)).toMatchObject({ canonical: 'http://a.test/x#y', decidedBy: 'raw' });
  });
});

describe('chooseGroupCanonical', () => {
  const cases: [string, Parameters<typeof chooseGroupCanonical>[0], string, string][] = [
    ['one member', [{ rawUrl: 'http://a.test/x' }], 'http://a.test/x', 'onlyMember'],
    ['fetched with 200', [{ rawUrl: 'https://a.test/x', status: 404 }, { rawUrl: 'http://a.test/x', status: 200 }], 'http://a.test/x', 'fetchedOk'],
    ['https', [{ rawUrl: 'http://a.test/x', status: 200 }, { rawUrl: 'https://a.test/x', status: 200 }], 'https://a.test/x', 'https'],
    ['matches rel=canonical', [{ rawUrl: 'https://a.test/x?ref=1', relCanonical: '/x/' }, { rawUrl: 'https://a.test/x/' }, { rawUrl: 'https://a.test/x' }], 'https://a.test/x/', 'matchesRelCanonical'],
    ['no query', [{ rawUrl: 'https://a.test/x?view=1' }, { rawUrl: 'https://a.test/x/index.html' }], 'https://a.test/x/index.html', 'noQuery'],
    ['no session or tracking parameter (first)', [{ rawUrl: 'https://a.test/x?utm_source=1', status: 200 }, { rawUrl: 'http://a.test/x/index.html' }], 'http://a.test/x/index.html', 'noSessionOrTracking'],
    ['shorter path', [{ rawUrl: 'https://a.test/x/index.html' }, { rawUrl: 'https://a.test/x/' }], 'https://a.test/x/', 'shorterPath'],
    ['lexicographic tie-break', [{ rawUrl: 'https://b.test/x' }, { rawUrl: 'https://a.test/x' }], 'https://a.test/x', 'lexicographic'],
  ];
  for (const [name, members, canonical, decidedBy] of cases) {
    it(name, () => {
      expect(chooseGroupCanonical(members)).toMatchObject({ canonical, decidedBy });
    });
  }
  it('seed 001 group: the tracked spelling goes first, then the https index URL wins on https, as the steps show', () => {
    const result = chooseGroupCanonical([{ rawUrl: 'https://example.com/document/index.aspx' }, { rawUrl: 'http://www.example.com/document.html' }, { rawUrl: 'http://example.com/document/?utm_source=ref' }]);
    expect(result).toEqual({
      canonical: 'https://example.com/document/index.aspx',
      decidedBy: 'https',
      steps: [
        { heuristic: 'noSessionOrTracking', kept: ['https://example.com/document/index.aspx', 'http://www.example.com/document.html'] },
        { heuristic: 'https', kept: ['https://example.com/document/index.aspx'] },
      ],
    });
  });
  it('needs a member', () => {
    expect(() => chooseGroupCanonical([])).toThrow(RangeError);
  });
});

describe('differenceCauses', () => {
  const cases: [string, string[]][] = [
    ['https://example.com/document/index.aspx', ['directory index', 'scheme', 'trailing slash']],
    ['http://www.example.com/document.html', ['www', 'extension']],
    ['http://example.com/document/?utm_source=ref', ['tracking parameter', 'empty query', 'trailing slash']],
    ['HTTP://Example.com:80/document?b=1&a=2#top', ['case', 'default port', 'fragment', 'query order']],
    ['http://example.com/document', []],
  ];
  for (const [raw, causes] of cases) {
    it(`${raw}: ${causes.join(', ') || 'no difference'}`, () => {
      expect(differenceCauses(raw, PROFILES.aggressive)).toMatchObject({ ok: true, value: { causes } });
    });
  }
});
