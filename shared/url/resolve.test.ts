import { describe, expect, it } from 'vitest';
import { documentBaseUrl, rawUrlOfLink, resolveHref } from './resolve';

describe('raw URLs (seed 001: new URL(a.href, document.baseURI))', () => {
  it('resolves relative links against the page', () => {
    expect(resolveHref('datetime.html#datetime.date', 'http://docs.python.test/library/os.html')).toEqual({ ok: true, value: 'http://docs.python.test/library/datetime.html#datetime.date' });
    expect(resolveHref('  ../index.html\n', 'http://docs.python.test/library/os.html')).toEqual({ ok: true, value: 'http://docs.python.test/index.html' });
  });
  it('uses <base href>, itself resolved against the document URL', () => {
    expect(documentBaseUrl('http://a.test/x/y.html', '/base/')).toEqual({ ok: true, value: 'http://a.test/base/' });
    expect(rawUrlOfLink('z.html', 'http://a.test/x/y.html', 'http://cdn.test/d/')).toEqual({ ok: true, value: 'http://cdn.test/d/z.html' });
    expect(rawUrlOfLink('z.html', 'http://a.test/x/y.html', 'http://[bad')).toEqual({ ok: true, value: 'http://a.test/x/z.html' });
  });
  it('reports errors as data', () => {
    expect(resolveHref('x', 'not absolute')).toMatchObject({ ok: false, error: { code: 'INVALID_BASE' } });
    expect(resolveHref('http://[::1', 'http://a.test/')).toMatchObject({ ok: false, error: { code: 'INVALID_URL' } });
  });
});
