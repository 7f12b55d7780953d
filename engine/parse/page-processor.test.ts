import { describe, expect, it } from 'vitest';
import type { FetchedResponse } from '../fetch/fetcher';
import { isHtml, processFetch } from './page-processor';

function response(overrides: Partial<FetchedResponse> & { html?: string } = {}): FetchedResponse {
  const { html, ...rest } = overrides;
  const body = rest.body ?? Buffer.from(html ?? '', 'utf8');
  return {
    ok: true,
    finalUrl: 'http://site.test/dir/page.html',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    headers: { 'content-type': 'text/html; charset=utf-8' },
    wireBytes: body.length,
    truncated: false,
    redirectChain: [],
    redirect: null,
    fetchMs: 12,
    ...rest,
    body,
  };
}

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
    expect(processFetch(response({ html })).links).toEqual([
      { url: 'http://site.test/dir/other.html', kind: 'a' },
      { url: 'http://site.test/root', kind: 'a' },
      { url: 'http://site.test/up?q=1#frag', kind: 'a' },
      { url: 'http://cdn.test/x', kind: 'a' },
      { url: 'https://abs.test/y', kind: 'a' },
    ]);
  });

  it('resolves links against <base href>, itself resolved against the final URL', () => {
    const html = '<head><base href="/base/sub/"></head><a href="x.html">x</a><link rel="canonical" href="../canon">';
    expect(processFetch(response({ html })).links).toEqual([
      { url: 'http://site.test/base/sub/x.html', kind: 'a' },
      { url: 'http://site.test/base/canon', kind: 'canonical' },
    ]);
  });

  it('uses an absolute <base href> on another host', () => {
    const html = '<base href="https://mirror.test/m/"><a href="x">x</a>';
    expect(processFetch(response({ html })).links).toEqual([{ url: 'https://mirror.test/m/x', kind: 'a' }]);
  });

  it('resolves against the final URL of the response', () => {
    const result = processFetch(response({ html: '<a href="next">n</a>', finalUrl: 'http://other.test/moved/here' }));
    expect(result.links).toEqual([{ url: 'http://other.test/moved/next', kind: 'a' }]);
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
    expect(processFetch(response({ html })).links).toEqual([{ url: 'http://site.test/dir/x', kind: 'a' }]);
  });

  it('decodes &amp; in hrefs before resolving', () => {
    const result = processFetch(response({ html: '<a href="/s?a=1&amp;b=2">s</a>' }));
    expect(result.links).toEqual([{ url: 'http://site.test/s?a=1&b=2', kind: 'a' }]);
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
    expect(result.links.at(-1)).toEqual({ url: 'http://site.test/kept', kind: 'a' });
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
    expect(result.links).toEqual([]);
  });

  it('parses a body without a content type when it sniffs as HTML', () => {
    const result = processFetch(response({ html: '<!doctype html><title>Sniffed</title><a href="s">s</a>', contentType: undefined, headers: {} }));
    expect(result.title).toBe('Sniffed');
    expect(result.links).toEqual([{ url: 'http://site.test/dir/s', kind: 'a' }]);
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
    expect(result.links[0]).toEqual({ url: long.slice(0, 2048), kind: 'a', tooLong: true });
    expect(result.links[1]).toEqual({ url: 'http://site.test/ok', kind: 'a' });
    // The whole message the worker posts stays small.
    expect(JSON.stringify(result.links).length).toBeLessThan(3_000);
  });

  it('refuses a short href that resolves to a URL longer than maxUrlLength', () => {
    const result = processFetch(response({ finalUrl: `http://site.test/${'d/'.repeat(40)}`, html: '<a href="page.html">p</a>' }), { maxUrlLength: 64 });
    expect(result.links).toEqual([{ url: `http://site.test/${'d/'.repeat(40)}page.html`, kind: 'a', tooLong: true }]);
  });

  it('counts links past the per-page cap', async () => {
    const { MAX_LINKS_PER_PAGE } = await import('./parse-html');
    const html = Array.from({ length: MAX_LINKS_PER_PAGE + 7 }, (_, k) => `<a href="/${k}">`).join('');
    const result = processFetch(response({ html }));
    expect(result.links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(result.linksOverCap).toBe(7);
  });
});
