import { describe, expect, it } from 'vitest';
import { normalizeUrl } from '../../shared/url';
import { canonicalisedElsewhere, hasNoindex, pageIndexability } from './indexability';

describe('pageIndexability', () => {
  it.each([
    [{ status: 200, robotsDirectives: null, canonicalisedElsewhere: false }, 'indexable'],
    [{ status: 200, robotsDirectives: 'index, follow, max-snippet: 50', canonicalisedElsewhere: false }, 'indexable'],
    [{ status: 200, robotsDirectives: 'noindex', canonicalisedElsewhere: false }, 'noindex'],
    [{ status: 200, robotsDirectives: 'googlebot: none', canonicalisedElsewhere: false }, 'noindex'],
    [{ status: 200, robotsDirectives: null, canonicalisedElsewhere: true }, 'canonicalised'],
    // Most specific first: the status, then noindex, then the canonical.
    [{ status: 200, robotsDirectives: 'noindex', canonicalisedElsewhere: true }, 'noindex'],
    [{ status: 301, robotsDirectives: 'noindex', canonicalisedElsewhere: true }, 'non-200'],
    [{ status: 404, robotsDirectives: null, canonicalisedElsewhere: false }, 'non-200'],
    [{ status: 204, robotsDirectives: null, canonicalisedElsewhere: false }, 'non-200'],
    [{ status: 500, robotsDirectives: null, canonicalisedElsewhere: false }, 'non-200'],
  ] as const)('%o → %s', (page, expected) => {
    expect(pageIndexability(page)).toBe(expected);
  });
});

describe('hasNoindex', () => {
  it.each([
    [null, false],
    ['noarchive, nosnippet', false],
    ['noindex', true],
    ['none', true],
    ['googlebot: noindex', true],
    ['unavailable_after: 25 jun 2010 15:00:00 pst', false],
    ['noindexed', false],
  ])('%j → %s', (directives, expected) => {
    expect(hasNoindex(directives)).toBe(expected);
  });
});

describe('canonicalisedElsewhere', () => {
  /** The standard profile's normalized key, as the crawl computes it. */
  const keyOf = (url: string): string | null => {
    const result = normalizeUrl(url);
    return result.ok ? result.value.key : null;
  };

  it('compares by normalized key, not by string: a respelling of the page itself is not another URL', () => {
    expect(canonicalisedElsewhere('http://a.test/x', 'HTTP://A.TEST:80/x', keyOf)).toBe(false);
    expect(canonicalisedElsewhere('http://a.test/%7Euser/', 'http://a.test/~user/', keyOf)).toBe(false);
    expect(canonicalisedElsewhere('http://a.test/x', 'http://a.test/y', keyOf)).toBe(true);
  });

  it('no canonical is not canonicalised; an unnormalizable one is compared as written', () => {
    expect(canonicalisedElsewhere('http://a.test/x', null, keyOf)).toBe(false);
    expect(canonicalisedElsewhere('http://a.test/x', 'http://a.test/y', () => null)).toBe(true);
    expect(canonicalisedElsewhere('http://a.test/x', 'http://a.test/x', () => null)).toBe(false);
  });
});
