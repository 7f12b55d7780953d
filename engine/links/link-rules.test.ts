import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../shared/types/crawl';
import { compileLinkRules, extensionOf, linkParts, parseExtensionList, relSaysNofollow, type LinkUnderTest } from './link-rules';
import { scopeSeeds } from './scope';

const seeds = scopeSeeds(['http://site.test/docs/index.html'], (host) => host.split('.').slice(-2).join('.'));

function test(href: string, settings: Partial<CrawlSettings> = {}, extra: Partial<LinkUnderTest> = {}) {
  const rules = compileLinkRules({ ...DEFAULT_CRAWL_SETTINGS, ...settings }, seeds);
  const url = linkParts(new URL(href).href);
  return rules.test({ url, raw: href, registrableDomain: url.hostname.split('.').slice(-2).join('.'), depth: 1, pageNofollow: false, ...extra });
}

describe('link rules (seed 004)', () => {
  it('follows an ordinary same-host link', () => {
    expect(test('http://site.test/a.html')).toBeNull();
  });

  it('refuses schemes outside allowedProtocols (seed 004: protocol)', () => {
    expect(test('ftp://site.test/file')).toBe('protocol');
    expect(test('https://site.test/a', { allowedProtocols: ['http'] })).toBe('protocol');
    expect(test('https://site.test/a', { allowedProtocols: ['http', 'https'] })).toBeNull();
  });

  it('refuses URLs longer than maxUrlLength (seed 004: address length, its tool used 128)', () => {
    const long = `http://site.test/${'a'.repeat(120)}`;
    expect(test(long, { maxUrlLength: 128 })).toBe('url-length');
    expect(test('http://site.test/short', { maxUrlLength: 128 })).toBeNull();
  });

  it('refuses query strings when followQueryStrings is off (seed 004: query strings)', () => {
    expect(test('http://site.test/file.pl?test', { followQueryStrings: false })).toBe('query-string');
    expect(test('http://site.test/file.pl?test', { followQueryStrings: true })).toBeNull();
  });

  it('refuses ignored file extensions, case-insensitively, from the last path segment only', () => {
    expect(test('http://site.test/photo.JPG')).toBe('ignored-extension');
    expect(test('http://site.test/archive.tar.gz')).toBe('ignored-extension');
    expect(test('http://site.test/page.html?img=a.png')).toBeNull();
    expect(test('http://site.test/server.log', { ignoredExtensions: 'log|old' })).toBe('ignored-extension');
    expect(test('http://site.test/photo.jpg', { ignoredExtensions: '' })).toBeNull();
  });

  it('refuses links of a nofollow page unless rogue mode (obeyNofollow false) is on', () => {
    expect(test('http://site.test/a.html', {}, { pageNofollow: true })).toBe('nofollow');
    expect(test('http://site.test/a.html', { obeyNofollow: false }, { pageNofollow: true })).toBeNull();
  });

  it('applies the scope: host, registrable domain, whole site (directory) and any', () => {
    expect(test('http://other.test/')).toBe('scope');
    expect(test('http://www.site.test/', { scope: 'host' })).toBe('scope');
    expect(test('http://www.site.test/', { scope: 'domain' })).toBeNull();
    expect(test('http://site.test/other/x.html', { scope: 'directory' })).toBe('scope');
    expect(test('http://site.test/docs/deeper/x.html', { scope: 'directory' })).toBeNull();
    expect(test('http://other.test/', { scope: 'any' })).toBeNull();
  });

  it('applies include and exclude lists by registrable domain (IIR 20.2 URL filter)', () => {
    expect(test('http://a.other.test/', { scope: 'any', includeDomains: ['site.test'] })).toBe('include-domains');
    expect(test('http://a.site.test/', { scope: 'any', includeDomains: ['site.test'] })).toBeNull();
    expect(test('http://a.other.test/', { scope: 'any', excludeDomains: ['other.test'] })).toBe('exclude-domains');
  });

  it('refuses links deeper than maxDepth (0 = no limit)', () => {
    expect(test('http://site.test/a', { maxDepth: 2 }, { depth: 3 })).toBe('max-depth');
    expect(test('http://site.test/a', { maxDepth: 2 }, { depth: 2 })).toBeNull();
    expect(test('http://site.test/a', { maxDepth: 0 }, { depth: 99 })).toBeNull();
  });

  it('reports the first refusing rule in the documented order', () => {
    expect(test('http://other.test/x.jpg?q', { followQueryStrings: false })).toBe('query-string');
  });
});

describe('linkParts', () => {
  it.each([
    'http://a.test/',
    'http://a.test:8080/x/y.jpg?q=1#frag',
    'https://user:pw@a.test/p?',
    'http://[::1]:81/x',
    'http://a.test/x#y?z',
    'https://xn--bcher-kva.example/%C3%BC/',
  ])('agrees with URL for %s', (href) => {
    const url = new URL(href);
    expect(linkParts(url.href)).toEqual({ protocol: url.protocol, hostname: url.hostname, origin: url.origin, pathname: url.pathname, search: url.search });
  });
  it('keeps the scheme of non-hierarchical links', () => {
    expect(linkParts('mailto:a@b.test').protocol).toBe('mailto:');
  });
});

describe('host-not-mapped (closed mode, issue 15 part 6)', () => {
  const closed = { closedResolver: true, scope: 'any' as const, hostOverrides: [{ host: 'site.test', address: '127.0.0.1' }, { host: '*.mirror.test', address: '127.0.0.1', port: 8080 }] };

  it('refuses a link to a host no override maps, exact or wildcard', () => {
    expect(test('http://elsewhere.test/', closed)).toBe('host-not-mapped');
    expect(test('http://mirror.test/', closed)).toBe('host-not-mapped');
    expect(test('http://site.test/a.html', closed)).toBeNull();
    expect(test('http://a.mirror.test/a.html', closed)).toBeNull();
    expect(test('http://WWW.Mirror.Test/a.html', closed)).toBeNull();
  });

  it('refuses nothing when the resolver is open (DNS decides there)', () => {
    expect(test('http://elsewhere.test/', { ...closed, closedResolver: false })).toBeNull();
  });

  it('comes after the scope and domain lists, before the depth limit', () => {
    expect(test('http://elsewhere.test/', { ...closed, scope: 'host' })).toBe('scope');
    expect(test('http://elsewhere.test/', { ...closed, excludeDomains: ['elsewhere.test'] })).toBe('exclude-domains');
    expect(test('http://elsewhere.test/', { ...closed, maxDepth: 1 }, { depth: 2 })).toBe('host-not-mapped');
  });
});

describe('list mode, per-link nofollow and URL patterns (issue 12)', () => {
  it('list mode refuses every page link by list-mode, after the rules about the URL form; never a redirect target', () => {
    expect(test('http://site.test/a.html', { crawlMode: 'list' })).toBe('list-mode');
    expect(test('http://site.test/a.html?q', { crawlMode: 'list', followQueryStrings: false })).toBe('list-mode');
    expect(test('http://site.test/a.html', { crawlMode: 'list', maxUrlLength: 16 })).toBe('url-length');
    expect(test('http://site.test/a.html', { crawlMode: 'list' }, { redirect: true })).toBeNull();
    expect(test('http://other.test/a.html', { crawlMode: 'list' }, { redirect: true })).toBe('scope');
    expect(test('http://site.test/a.html', { crawlMode: 'spider' })).toBeNull();
  });

  it('refuses links whose own rel says nofollow, ugc or sponsored (link-nofollow) unless followNofollowLinks', () => {
    expect(test('http://site.test/a.html', {}, { rel: 'nofollow' })).toBe('link-nofollow');
    expect(test('http://site.test/a.html', {}, { rel: 'noopener ugc' })).toBe('link-nofollow');
    expect(test('http://site.test/a.html', {}, { rel: 'sponsored' })).toBe('link-nofollow');
    expect(test('http://site.test/a.html', {}, { rel: 'noopener noreferrer' })).toBeNull();
    expect(test('http://site.test/a.html', { followNofollowLinks: true }, { rel: 'nofollow' })).toBeNull();
    // Page-level nofollow is counted first; rogue mode (obeyNofollow off) leaves the link's own rel in force.
    expect(test('http://site.test/a.html', {}, { rel: 'nofollow', pageNofollow: true })).toBe('nofollow');
    expect(test('http://site.test/a.html', { obeyNofollow: false }, { rel: 'nofollow', pageNofollow: true })).toBe('link-nofollow');
    // A redirect is not a link: its target carries no rel.
    expect(test('http://site.test/a.html', {}, { redirect: true })).toBeNull();
  });

  it('relSaysNofollow matches whole tokens only', () => {
    expect(relSaysNofollow(undefined)).toBe(false);
    expect(relSaysNofollow('nofollowing')).toBe(false);
    expect(relSaysNofollow('external nofollow')).toBe(true);
  });

  it('include patterns: a link must match one; exclude patterns: a match refuses it; matched on the URL without fragment', () => {
    const patterns = { includeUrlPatterns: ['/docs/', '\\.pdf$'], excludeUrlPatterns: ['[?&]sessionid=', '#'] };
    expect(test('http://site.test/docs/a.html', patterns)).toBeNull();
    expect(test('http://site.test/docs/a.html#part', patterns)).toBeNull();
    expect(test('http://site.test/files/x.pdf', patterns)).toBeNull();
    expect(test('http://site.test/blog/a.html', patterns)).toBe('include-pattern');
    expect(test('http://site.test/docs/a.html?x=1&sessionid=2', patterns)).toBe('exclude-pattern');
    // Case-sensitive, as written (the host is lower case once parsed).
    expect(test('http://SITE.TEST/DOCS/a.html', patterns)).toBe('include-pattern');
    expect(test('http://site.test/blog/', { excludeUrlPatterns: ['^http://site\\.test/blog/'] })).toBe('exclude-pattern');
    // A redirect target's query is matched too.
    expect(test('http://site.test/docs/a?sessionid=1', patterns, { redirect: true })).toBe('exclude-pattern');
  });

  it('pattern rules come after the domain lists and before host-not-mapped and max-depth', () => {
    expect(test('http://other.test/x', { scope: 'any', excludeDomains: ['other.test'], excludeUrlPatterns: ['x'] })).toBe('exclude-domains');
    expect(test('http://site.test/x', { excludeUrlPatterns: ['x'], maxDepth: 1 }, { depth: 5 })).toBe('exclude-pattern');
  });

  it('decides every link alike from a kept verdict on its URL (ofTarget) and from scratch (test), in every rule order case', () => {
    const settings: CrawlSettings = {
      ...DEFAULT_CRAWL_SETTINGS,
      scope: 'domain',
      maxDepth: 3,
      obeyNofollow: true,
      followQueryStrings: false,
      excludeDomains: ['blocked.test'],
      excludeUrlPatterns: ['/private/'],
      maxUrlLength: 60,
    };
    const urls = [
      'http://site.test/docs/a.html',
      'http://site.test/x.jpg',
      'http://site.test/q?x=1',
      'http://other.test/',
      'http://blocked.test/',
      'http://site.test/private/p',
      `http://site.test/${'long/'.repeat(12)}`,
      'mailto:someone@site.test',
      'ftp://site.test/file',
    ];
    const contexts = [
      { depth: 1, pageNofollow: false },
      { depth: 4, pageNofollow: false },
      { depth: 1, pageNofollow: true },
      { depth: 1, pageNofollow: false, rel: 'nofollow' },
      { depth: 2, pageNofollow: false, rel: 'noopener' },
      { depth: 0, pageNofollow: false, redirect: true },
    ];
    const seen = new Set<string | null>();
    for (const [listMode, scope] of [[false, 'domain'], [false, 'any'], [true, 'domain']] as const) {
      const rules = compileLinkRules({ ...settings, scope, crawlMode: listMode ? 'list' : 'spider' }, seeds);
      for (const href of urls) {
        const url = linkParts(href);
        const registrableDomain = url.hostname === '' ? null : url.hostname.split('.').slice(-2).join('.');
        // The verdict kept from the first link to the URL (a plain one, and a redirect, whose early
        // rules differ) decides every later link to it, whatever its depth, rel or page.
        const kept = new Map<boolean, number>();
        for (const context of contexts) {
          const link: LinkUnderTest = { url, raw: href, registrableDomain, ...context };
          const redirect = link.redirect === true;
          if (!kept.has(redirect)) kept.set(redirect, rules.ofTarget(link));
          const whole = rules.test(link);
          expect(rules.decide(kept.get(redirect)!, href, link), `${href} ${JSON.stringify(context)}`).toBe(whole);
          seen.add(whole);
        }
      }
    }
    // The cases reach rules of every group: the URL's own, the link's, and none.
    expect([...seen].sort()).toEqual(['exclude-domains', 'exclude-pattern', 'ignored-extension', 'link-nofollow', 'list-mode', 'max-depth', 'nofollow', 'protocol', 'query-string', 'scope', 'url-length', null].sort());
  });

  it('refuses at compile time a pattern the linear engine cannot run, naming it', () => {
    expect(() => compileLinkRules({ ...DEFAULT_CRAWL_SETTINGS, includeUrlPatterns: ['/ok/', '(?<=/)x'] }, seeds)).toThrow(
      expect.objectContaining({ code: 'INVALID_URL_REGEX', message: expect.stringContaining('--include pattern "(?<=/)x": This regular expression needs backtracking') }),
    );
  });
});

describe('extension helpers', () => {
  it('parses the pipe-separated list', () => {
    expect([...parseExtensionList(' JPG|png||.zip ')]).toEqual(['jpg', 'png', 'zip']);
  });
  it('reads the last segment extension', () => {
    expect(extensionOf(linkParts('http://a/x/Photo.JPG?s=1'))).toBe('jpg');
    expect(extensionOf(linkParts('http://a/x.tar/'))).toBe('');
    expect(extensionOf(linkParts('http://a/.hidden'))).toBe('');
  });
});
