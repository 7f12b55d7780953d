import { describe, expect, it } from 'vitest';
import type { FetchedResponse } from '../fetch/fetcher';
import type { DiscoveredLink } from '../worker/protocol';
import { createHash } from 'node:crypto';
import { canonicalTarget, fingerprintText, headerDirectives, isHtml, processFetch } from './page-processor';

/** Links without their anchor text and rel (tests of resolution compare URLs and kinds only). */
function addresses<T extends DiscoveredLink | DiscoveredLink[] | undefined>(links: T): T {
  const strip = ({ anchorText: _text, rel: _rel, ...address }: DiscoveredLink): DiscoveredLink => address;
  return (Array.isArray(links) ? links.map(strip) : links === undefined ? undefined : strip(links)) as T;
}

function response(overrides: Partial<FetchedResponse> & { html?: string } = {}): FetchedResponse {
  const { html, ...rest } = overrides;
  const body = rest.body ?? Buffer.from(html ?? '', 'utf8');
  return {
    ok: true,
    finalUrl: 'http://site.test/dir/page.html',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    headers: { 'content-type': 'text/html; charset=utf-8' },
    responseHeadersJson: '{"content-type":"text/html; charset=utf-8"}',
    wireBytes: body.length,
    truncated: false,
    redirectChain: [],
    redirect: null,
    fetchMs: 12,
    setCookies: [],
    protocols: ['http/1.1'],
    ...rest,
    body,
  };
}

describe('fingerprintText', () => {
  it('is the SHA-256 of the normalized text, its length and excerpt, whether the text is all ASCII or not', () => {
    const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    for (const [text, normalized] of [
      ['  Hello,\n WORLD! One two THREE ', 'hello world one two three'],
      ['Ünïcode — TEXT, déjà vu 東京 ', 'ünïcode text déjà vu 東京'],
    ] as const) {
      const content = fingerprintText(text, 7)!;
      expect(content.fingerprint).toBe(sha(normalized));
      expect(content.textChars).toBe(normalized.length);
      expect(content.excerpt).toBe(normalized.slice(0, 7));
      expect(content.words).toBe(normalized.split(' ').length);
    }
    // The ASCII path reuses one buffer: a longer text sketched in between leaves nothing behind.
    const first = fingerprintText('alpha beta gamma', 20);
    fingerprintText('a much longer text with many more words than the first one had', 20);
    expect(fingerprintText('alpha beta gamma', 20)).toEqual(first);
    expect(first?.fingerprint).toBe(sha('alpha beta gamma'));
    expect(fingerprintText(' ,.; ', 5)).toBeNull();
  });
});

describe('isHtml', () => {
  it.each([
    ['text/html', true],
    ['text/html; charset=utf-8', true],
    ['TEXT/HTML', true],
    ['  text/html  ', true],
    ['application/xhtml+xml', true],
    ['application/xhtml+xml; charset=utf-8', true],
    ['text/plain', false],
    ['application/json', false],
    ['image/png', false],
    ['text/htmlx', false],
    ['application/pdf', false],
  ])('content type %j → %s', (type, expected) => {
    expect(isHtml(type, Buffer.from('<html><body>x</body></html>'))).toBe(expected);
  });

  it('trusts a declared non-HTML type even if the body looks like HTML', () => {
    expect(isHtml('text/plain', Buffer.from('<!DOCTYPE html><html>'))).toBe(false);
  });

  it('sniffs <html and <!doctype html (any case) when no type is given', () => {
    expect(isHtml(undefined, Buffer.from('  \n<HTML lang="en">'))).toBe(true);
    expect(isHtml(undefined, Buffer.from('<!DOCTYPE HTML><p>x'))).toBe(true);
    expect(isHtml(undefined, Buffer.from('{"json": true}'))).toBe(false);
    expect(isHtml(undefined, Buffer.from(''))).toBe(false);
  });

  it('only sniffs the first 512 bytes', () => {
    expect(isHtml(undefined, Buffer.from(`${' '.repeat(600)}<html>`))).toBe(false);
    expect(isHtml(undefined, Buffer.from(`${' '.repeat(500)}<html>`))).toBe(true);
  });
});

describe('processFetch', () => {
  it('copies the response fields into the page result', () => {
    const result = processFetch(response({ html: '<title> Hi </title>', status: 203, fetchMs: 34, truncated: true, headers: { 'retry-after': '120' } }));
    expect(result).toMatchObject({
      finalUrl: 'http://site.test/dir/page.html',
      status: 203,
      contentType: 'text/html; charset=utf-8',
      bodyBytes: Buffer.byteLength('<title> Hi </title>'),
      truncated: true,
      fetchMs: 34,
      redirect: null,
      title: 'Hi',
      retryAfter: '120',
      nofollow: false,
      noindex: false,
    });
  });

  it('resolves relative links against the final URL', () => {
    const html = '<a href="other.html">1</a><a href="/root">2</a><a href="../up?q=1#frag">3</a><a href="//cdn.test/x">4</a><a href="https://abs.test/y">5</a>';
    expect(addresses(processFetch(response({ html })).links)).toEqual([
      { url: 'http://site.test/dir/other.html', kind: 'a' },
      { url: 'http://site.test/root', kind: 'a' },
      { url: 'http://site.test/up?q=1#frag', kind: 'a' },
      { url: 'http://cdn.test/x', kind: 'a' },
      { url: 'https://abs.test/y', kind: 'a' },
    ]);
  });

  it('resolves links against <base href>, itself resolved against the final URL', () => {
    const html = '<head><base href="/base/sub/"></head><a href="x.html">x</a><link rel="canonical" href="../canon">';
    expect(addresses(processFetch(response({ html })).links)).toEqual([
      { url: 'http://site.test/base/sub/x.html', kind: 'a' },
      { url: 'http://site.test/base/canon', kind: 'canonical' },
    ]);
  });

  it('uses an absolute <base href> on another host', () => {
    const html = '<base href="https://mirror.test/m/"><a href="x">x</a>';
    expect(addresses(processFetch(response({ html })).links)).toEqual([{ url: 'https://mirror.test/m/x', kind: 'a' }]);
  });

  it('resolves against the final URL of the response', () => {
    const result = processFetch(response({ html: '<a href="next">n</a>', finalUrl: 'http://other.test/moved/here' }));
    expect(addresses(result.links)).toEqual([{ url: 'http://other.test/moved/next', kind: 'a' }]);
  });

  it('a redirect answer keeps its target and status, and its body is neither parsed nor fingerprinted (RFC 9110 §15.4)', () => {
    const redirect = { location: 'http://site.test/new', raw: '/new' };
    const result = processFetch(response({ html: '<title>Moved</title><a href="/elsewhere">here</a> Moved permanently', status: 301, redirect }));
    expect(result).toMatchObject({ status: 301, redirect, title: null, links: [], content: null });
    // A 3xx without a Location is not parsed either.
    expect(processFetch(response({ html: '<title>Choices</title><a href="/a">a</a> some words here', status: 300 }))).toMatchObject({ status: 300, redirect: null, links: [], content: null });
  });

  it('ignores an unusable <base href> and falls back to the final URL', () => {
    const html = '<base href="http://[bad"><a href="x">x</a>';
    expect(addresses(processFetch(response({ html })).links)).toEqual([{ url: 'http://site.test/dir/x', kind: 'a' }]);
  });

  it('decodes &amp; in hrefs before resolving', () => {
    const result = processFetch(response({ html: '<a href="/s?a=1&amp;b=2">s</a>' }));
    expect(addresses(result.links)).toEqual([{ url: 'http://site.test/s?a=1&b=2', kind: 'a' }]);
  });

  it('passes javascript:, mailto:, data:, tel: and ftp: links on (the link rules count them under protocol) and counts only malformed hrefs as unresolvable', () => {
    const html = [
      '<a href="javascript:void(0)">js</a>',
      '<a href="JavaScript:alert(1)">js2</a>',
      '<a href="mailto:me@site.test">mail</a>',
      `<a href="data:text/html,${'x'.repeat(5000)}">data</a>`,
      '<a href="tel:+1555">tel</a>',
      '<a href="ftp://files.test/f">ftp</a>',
      '<a href="http://[::1">bad</a>',
      '<a href="/kept">ok</a>',
    ].join('');
    const result = processFetch(response({ html }));
    expect(result.links.map((link) => link.url.split(':')[0])).toEqual(['javascript', 'javascript', 'mailto', 'data', 'tel', 'ftp', 'http']);
    expect(addresses(result.links.at(-1))).toEqual({ url: 'http://site.test/kept', kind: 'a' });
    // A long data: URL is cut: the rules only need its scheme.
    expect(result.links[3]!.url.length).toBeLessThanOrEqual(256);
    expect(result.unresolvableLinks).toBe(1);
  });

  it('takes meta robots from the page', () => {
    const result = processFetch(response({ html: '<meta name="robots" content="noindex,nofollow"><a href="/x">x</a>' }));
    expect(result).toMatchObject({ nofollow: true, noindex: true });
    expect(result.links).toHaveLength(1); // nofollow is reported, the caller decides
  });

  it.each([
    ['nofollow', { nofollow: true, noindex: false }],
    ['NoIndex', { nofollow: false, noindex: true }],
    ['noindex, nofollow', { nofollow: true, noindex: true }],
    ['none', { nofollow: true, noindex: true }],
    ['noarchive', { nofollow: false, noindex: false }],
  ])('X-Robots-Tag %j → %o', (header, expected) => {
    expect(processFetch(response({ html: '<p>x</p>', headers: { 'x-robots-tag': header } }))).toMatchObject(expected);
  });

  it('does not parse non-HTML content types', () => {
    const body = Buffer.from('<html><title>T</title><a href="/x">x</a></html>');
    const result = processFetch(response({ body, contentType: 'text/plain', headers: { 'x-robots-tag': 'nofollow' } }));
    expect(result).toMatchObject({ title: null, links: [], unresolvableLinks: 0, nofollow: false, noindex: false, contentType: 'text/plain', bodyBytes: body.length });
  });

  it('does not parse a binary body without a content type; contentType becomes null', () => {
    const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.from('<a href="/x">')]);
    const result = processFetch(response({ body, contentType: undefined, headers: {} }));
    expect(result.contentType).toBeNull();
    expect(addresses(result.links)).toEqual([]);
  });

  it('parses a body without a content type when it sniffs as HTML', () => {
    const result = processFetch(response({ html: '<!doctype html><title>Sniffed</title><a href="s">s</a>', contentType: undefined, headers: {} }));
    expect(result.title).toBe('Sniffed');
    expect(addresses(result.links)).toEqual([{ url: 'http://site.test/dir/s', kind: 'a' }]);
  });

  it('decodes the body with the declared charset before parsing', () => {
    const body = Buffer.concat([Buffer.from('<title>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b]), Buffer.from('</title>')]);
    const result = processFetch(response({ body, contentType: 'text/html; charset=Shift_JIS' }));
    expect(result.title).toBe('日本');
  });

  it('retryAfter is null when the header is absent', () => {
    expect(processFetch(response({ html: '' })).retryAfter).toBeNull();
  });
});

describe('processFetch: links too long or past the cap (issue 9)', () => {
  it('refuses an href longer than maxUrlLength before resolving it, and sends it cut to 2048 characters', () => {
    const long = `/x/${'a'.repeat(60 * 1024)}`;
    const result = processFetch(response({ html: `<a href="${long}">1</a><a href="${long}">again</a><a href="/ok">ok</a>` }), { maxUrlLength: 2048 });
    expect(result.links).toHaveLength(2);
    expect(addresses(result.links[0])).toEqual({ url: long.slice(0, 2048), kind: 'a', tooLong: true });
    expect(addresses(result.links[1])).toEqual({ url: 'http://site.test/ok', kind: 'a' });
    // The whole message the worker posts stays small.
    expect(JSON.stringify(result.links).length).toBeLessThan(3_000);
  });

  it('refuses a short href that resolves to a URL longer than maxUrlLength', () => {
    const result = processFetch(response({ finalUrl: `http://site.test/${'d/'.repeat(40)}`, html: '<a href="page.html">p</a>' }), { maxUrlLength: 64 });
    expect(addresses(result.links)).toEqual([{ url: `http://site.test/${'d/'.repeat(40)}page.html`, kind: 'a', tooLong: true }]);
  });

  it('counts links past the per-page cap', async () => {
    const { MAX_LINKS_PER_PAGE } = await import('./parse-html');
    const html = Array.from({ length: MAX_LINKS_PER_PAGE + 7 }, (_, k) => `<a href="/${k}">`).join('');
    const result = processFetch(response({ html }));
    expect(result.links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(result.linksOverCap).toBe(7);
  });
});

describe('processFetch page analysis (issue 11)', () => {
  it('records the page fields: headers, meta description, H1, canonical resolved against <base> without fragment, directives, words, lang', () => {
    const html = `<html lang="en"><head><base href="/base/"><meta name="description" content="About us">
      <meta name="robots" content="noarchive"><link rel="canonical" href="../canon.html#top"></head>
      <body><h1>Welcome</h1><p>one two three</p><a href="/x" rel="UGC">Link text</a></body></html>`;
    const result = processFetch(response({ html, headers: { 'content-type': 'text/html', 'x-robots-tag': 'NoIndex, googlebot:nofollow' }, responseHeadersJson: '{"x":"y"}' }));
    expect(result).toMatchObject({
      responseHeadersJson: '{"x":"y"}',
      metaDescription: 'About us',
      h1: 'Welcome',
      canonicalUrl: 'http://site.test/canon.html',
      robotsDirectives: 'noarchive, noindex, googlebot: nofollow',
      wordCount: 6,
      lang: 'en',
    });
    expect(result.links).toContainEqual({ url: 'http://site.test/x', kind: 'a', anchorText: 'Link text', rel: 'ugc' });
  });

  it('takes the canonical from a Link header when the page names none, and Content-Language when there is no <html lang>', () => {
    const result = processFetch(
      response({ html: '<p>x</p>', headers: { 'content-type': 'text/html', link: '</style.css>; rel=preload, <../other#a>; rel="canonical"', 'content-language': 'de' } }),
    );
    expect(result).toMatchObject({ canonicalUrl: 'http://site.test/other', lang: 'de', robotsDirectives: null, metaDescription: null, h1: null });
  });

  it('the page’s own <link rel=canonical> wins over the Link header', () => {
    const result = processFetch(response({ html: '<link rel="canonical" href="/mine">', headers: { 'content-type': 'text/html', link: '</header>; rel=canonical' } }));
    expect(result.canonicalUrl).toBe('http://site.test/mine');
  });

  it('a non-HTML answer keeps its header fields (a PDF with X-Robots-Tag and a canonical Link) and has no word count', () => {
    const result = processFetch(
      response({ contentType: 'application/pdf', body: Buffer.from('%PDF'), headers: { 'content-type': 'application/pdf', 'x-robots-tag': 'noindex', link: '<http://site.test/doc.html>; rel="canonical"' } }),
    );
    expect(result).toMatchObject({ canonicalUrl: 'http://site.test/doc.html', robotsDirectives: 'noindex', wordCount: null, h1: null });
  });

  it('an HTML page without text has 0 words; a canonical to another scheme is no canonical', () => {
    expect(processFetch(response({ html: '<link rel="canonical" href="mailto:a@b.test"><img src="/x.png">' }))).toMatchObject({ wordCount: 0, canonicalUrl: null });
  });
});

describe('canonicalTarget and headerDirectives', () => {
  it.each([
    ['/b#top', 'http://a.test/x/', 'http://a.test/b'],
    ['c', 'http://a.test/x/', 'http://a.test/x/c'],
    ['javascript:void(0)', 'http://a.test/', null],
    ['http://[bad', 'http://a.test/', null],
  ])('canonicalTarget(%j, %j) → %j', (href, base, expected) => {
    expect(canonicalTarget(href, base)).toBe(expected);
  });

  it('splits X-Robots-Tag on commas, lower case, a user-agent prefix kept on its directive', () => {
    expect(headerDirectives('NoIndex,  googlebot:  nofollow, , max-snippet : 20')).toEqual(['noindex', 'googlebot: nofollow', 'max-snippet: 20']);
    expect(headerDirectives(undefined)).toEqual([]);
  });
});
