import { describe, expect, it } from 'vitest';
import { parseUrlParts, parseUrlPartsFast, serializeUrlParts } from './parse';

describe('parseUrlParts keeps the URL as written (rules do the normalizing)', () => {
  it('splits without normalizing', () => {
    expect(parseUrlParts('HTTP://Example.COM:80/a/../b?q#f')).toEqual({
      ok: true,
      value: expect.objectContaining({ scheme: 'HTTP', host: 'Example.COM', port: '80', path: '/a/../b', query: 'q', fragment: 'f', userinfo: '', special: true }),
    });
  });
  it('distinguishes "no query" from an empty query', () => {
    expect(parseUrlParts('http://a/b').ok && (parseUrlParts('http://a/b') as { value: { query: null } }).value.query).toBeNull();
    expect(parseUrlParts('http://a/b?')).toMatchObject({ value: { query: '' } });
  });
  it('handles userinfo, IPv6, opaque paths and file URLs', () => {
    expect(parseUrlParts('https://us@er:p@ss@a.test/')).toMatchObject({ value: { userinfo: 'us%40er:p%40ss', host: 'a.test' } });
    expect(parseUrlParts('http://[0:0::1]:8080/')).toMatchObject({ value: { host: '[::1]', port: '8080' } });
    expect(parseUrlParts('mailto:a@b.test?subject=x')).toMatchObject({ value: { opaquePath: true, path: 'a@b.test', query: 'subject=x', hasAuthority: false } });
    expect(parseUrlParts('file:///C:/x/../y')).toMatchObject({ value: { scheme: 'file', path: '/C:/y' } });
  });
  it('fast path and general path agree', () => {
    for (const url of ['http://a.test/x?y#z', 'HTTPS://A.TEST:8443/', 'ws://a.test', 'ftp://a.test:21/f', 'http://a.test/%7e?%41']) {
      const fast = parseUrlPartsFast(url);
      expect(fast).not.toBeNull();
      const general = parseUrlParts(' ' + url);
      expect(general.ok && { ...general.value, schemeAndHostLowercase: fast?.schemeAndHostLowercase, noPercent: fast?.noPercent }).toEqual(fast);
    }
  });
  it('fast-path hints say what the parser saw', () => {
    expect(parseUrlPartsFast('HTTP://a.test/%7e')).toMatchObject({ schemeAndHostLowercase: false, noPercent: false });
    expect(parseUrlPartsFast('http://a.test/x')).toMatchObject({ schemeAndHostLowercase: true, noPercent: true });
  });
  it('leaves unusual input to the general path', () => {
    for (const url of ['http://a.test/ä', 'http://a.test/a b', 'http://u@a.test/', 'http://1.2.3.4/', 'http://xn--85x722f.cn/', 'mailto:x']) {
      expect(parseUrlPartsFast(url), url).toBeNull();
    }
  });
  it('serializes back, guarding a "//" path without authority', () => {
    const parsed = parseUrlParts('web+x:/.//p');
    expect(parsed.ok && serializeUrlParts(parsed.value)).toBe('web+x:/.//p');
  });
});
