import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../shared/types/crawl';
import { redirectTarget, robotsFetchError, robotsRedirectLimit } from '../fetch/redirects';
import { compileLinkRules, linkParts } from './link-rules';
import { addRedirectSeed, redirectRefusal } from './redirects';
import { scopeSeeds } from './scope';

describe('redirectTarget (RFC 9110 §15.4)', () => {
  it('resolves the Location against the requested URL and drops its fragment', () => {
    expect(redirectTarget(301, '../b?q=1#part', 'http://a.test/x/y')).toEqual({ location: 'http://a.test/b?q=1', raw: '../b?q=1#part' });
    expect(redirectTarget(308, 'https://other.test/', 'http://a.test/')).toEqual({ location: 'https://other.test/', raw: 'https://other.test/' });
  });

  it('keeps an unresolvable Location raw', () => {
    expect(redirectTarget(302, 'http://[', 'http://a.test/')).toEqual({ location: null, raw: 'http://[' });
  });

  it('is null for statuses that do not redirect, and for a redirect status without Location', () => {
    for (const status of [200, 300, 304, 404]) expect(redirectTarget(status, '/b', 'http://a.test/')).toBeNull();
    for (const status of [301, 302, 303, 307, 308]) expect(redirectTarget(status, undefined, 'http://a.test/')).toBeNull();
  });
});

describe('robotsRedirectLimit (RFC 9309 §2.3.1.2)', () => {
  it('follows at least five redirects, more when the crawl allows more', () => {
    expect(robotsRedirectLimit(0)).toBe(5);
    expect(robotsRedirectLimit(10)).toBe(10);
  });
});

describe('robotsFetchError', () => {
  it('keeps errors of the host asked and redirect failures; a failure on a redirect target is ROBOTS_REDIRECT_FAILED', () => {
    const notMapped = { code: 'HOST_NOT_MAPPED', message: 'elsewhere.test is not mapped' };
    expect(robotsFetchError(notMapped, 0)).toBe(notMapped);
    expect(robotsFetchError({ code: 'REDIRECT_LOOP', message: 'loop' }, 2)).toEqual({ code: 'REDIRECT_LOOP', message: 'loop' });
    expect(robotsFetchError(notMapped, 1)).toEqual({ code: 'ROBOTS_REDIRECT_FAILED', message: 'robots.txt redirected 1 time(s) to a URL that failed: HOST_NOT_MAPPED: elsewhere.test is not mapped' });
  });
});

describe('redirectRefusal', () => {
  const setup = (settings: Partial<CrawlSettings> = {}) => {
    const seeds = scopeSeeds(['http://a.test/docs/'], (host) => host.split('.').slice(-2).join('.'));
    const rules = compileLinkRules({ ...DEFAULT_CRAWL_SETTINGS, ...settings }, seeds);
    const refusal = (url: string, depth: number) => redirectRefusal(rules, seeds, { url, parts: linkParts(url), raw: url, registrableDomain: new URL(url).hostname.split('.').slice(-2).join('.') }, depth);
    return { seeds, refusal };
  };

  it('applies the rules about the target URL: protocol, length, extension, scope, domains', () => {
    const { refusal } = setup({ maxUrlLength: 40, excludeDomains: ['bad.test'] });
    expect(refusal('ftp://a.test/file', 1)).toBe('protocol');
    expect(refusal(`http://a.test/${'x'.repeat(40)}`, 1)).toBe('url-length');
    expect(refusal('http://a.test/photo.jpg', 1)).toBe('ignored-extension');
    expect(refusal('http://elsewhere.test/', 1)).toBe('scope');
    expect(refusal('http://a.test/page', 1)).toBeNull();
    expect(setup({ scope: 'any', excludeDomains: ['bad.test'] }).refusal('http://www.bad.test/', 1)).toBe('exclude-domains');
  });

  it('does not apply the query-string rule, nofollow or max-depth (the target keeps the redirecting depth)', () => {
    const { refusal } = setup({ followQueryStrings: false, maxDepth: 2 });
    expect(refusal('http://a.test/page?lang=en', 2)).toBeNull();
  });

  it('follows a listed URL\'s redirect in list mode, and applies the URL patterns to its target, query included', () => {
    expect(setup({ crawlMode: 'list' }).refusal('http://a.test/moved-here', 0)).toBeNull();
    expect(setup({ crawlMode: 'list', excludeUrlPatterns: ['[?&]session='] }).refusal('http://a.test/x?session=1', 0)).toBe('exclude-pattern');
    expect(setup({ includeUrlPatterns: ['/shop/'] }).refusal('http://a.test/blog/', 1)).toBe('include-pattern');
  });

  it('lets a seed\'s redirect target in and widens the scope with it; a refused one widens nothing', () => {
    const { seeds, refusal } = setup({ excludeDomains: ['bad.test'] });
    expect(refusal('http://www.a2.test/', 0)).toBeNull();
    expect(seeds.hosts.has('www.a2.test')).toBe(true);
    expect(refusal('http://www.a2.test/next', 1)).toBeNull();
    expect(refusal('http://bad.test/', 0)).toBe('exclude-domains');
    expect(seeds.hosts.has('bad.test')).toBe(false);
    expect(seeds.domains.has('bad.test')).toBe(false);
    expect(refusal('http://far.test/', 1)).toBe('scope');
  });

  it('addRedirectSeed takes back only what it added', () => {
    const seeds = scopeSeeds(['http://a.test/'], () => 'a.test');
    const undo = addRedirectSeed(seeds, 'http://a.test/sub/x', 'a.test');
    expect(seeds.directories).toEqual(['http://a.test/', 'http://a.test/sub/']);
    undo();
    expect([...seeds.hosts, ...seeds.domains, ...seeds.directories]).toEqual(['a.test', 'a.test', 'http://a.test/']);
  });
});
