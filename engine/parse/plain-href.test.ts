/** The parser-free resolution of plain hrefs (plain-href.ts) agrees with the platform's WHATWG URL parser. */
import { describe, expect, it } from 'vitest';
import { readConformanceJson } from '../../tests/url/conformance';
import { basePrefix, resolvePlainHref } from './plain-href';

type WptCase = string | { input: string; base: string | null; href?: string; failure?: boolean };

/** What `new URL(href, base).href` gives, or null when it throws. */
function platform(href: string, base: string): string | null {
  try {
    return new URL(href, base).href;
  } catch {
    return null;
  }
}

const BASES = ['http://a.test/', 'HTTP://Mixed.TEST:80/Dir/x', 'http://a.test/x/y.html?q=1#f', 'https://user:pw@b.example.test:8443/dir/', 'http://127.0.0.1:8080/p', 'https://xn--nxasmq6b.test/a/b/'];

describe('resolvePlainHref', () => {
  it('resolves root-relative and absolute plain hrefs as the URL parser does', () => {
    expect(resolvePlainHref('/p/2', basePrefix('http://a.test/x/y?z'))).toBe('http://a.test/p/2');
    expect(resolvePlainHref('/', basePrefix('https://u:p@a.test:81/x'))).toBe('https://u:p@a.test:81/');
    expect(resolvePlainHref('https://b.test', basePrefix('http://a.test/'))).toBe('https://b.test/');
    expect(resolvePlainHref('http://h0.synthetic.test/p/7', null)).toBe('http://h0.synthetic.test/p/7');
  });

  it('leaves to the parser what it would change or read otherwise', () => {
    const prefix = basePrefix('http://a.test/x/');
    for (const href of ['../x', 'x.html', '/a/../b', '/a/./b', '/a/.', '/a?q', '/a#f', '/a%2e', '/a b', '/a\\b', '//b.test/', '/\\b.test', ' /a', '/a\t', 'HTTP://A.TEST/', 'http://A.test/', 'http://a.test:80/', 'http://1.2.3.4/', 'http://a.0x10/', 'http://a..test/', 'http://a.test./', 'http://xn--abc.test/', 'http://a.test?q', 'mailto:x@a.test', 'http:/a.test/', '/ä']) {
      expect(resolvePlainHref(href, prefix), href).toBeNull();
    }
    expect(basePrefix('file:///x')).toBeNull();
    expect(basePrefix('not a url')).toBeNull();
    // A base as a user may type it (a seed) is read as the parser serializes it.
    expect(basePrefix('HTTP://U:P@A.Test:80/x/y?q')).toBe('http://U:P@a.test');
    expect(resolvePlainHref('/p', basePrefix('https://A.test:443'))).toBe(platform('/p', 'https://A.test:443'));
    expect(resolvePlainHref('/a', null)).toBeNull();
  });

  it('agrees with the WPT URL test data wherever it answers', () => {
    const cases = readConformanceJson<WptCase[]>('urltestdata.json').filter((c): c is Exclude<WptCase, string> => typeof c === 'object');
    let answered = 0;
    for (const c of cases) {
      const bases = c.base === null ? BASES : [c.base, ...BASES];
      for (const base of bases) {
        const fast = resolvePlainHref(c.input, basePrefix(base));
        if (fast === null) continue;
        answered += 1;
        expect(fast, `${JSON.stringify(c.input)} against ${base}`).toBe(platform(c.input, base));
      }
    }
    expect(answered).toBeGreaterThan(50);
  });

  it('agrees with the URL parser on 50,000 random hrefs, and answers for most plain ones', () => {
    const alphabet = ['/', '/', '/', 'a', 'b', 'Z', '0', '9', '-', '.', '.', '_', '~', '%', '2', 'e', '?', '#', '\\', ':', '@', ' ', '\t', 'x', 'n', '!', '$', '&', "'", '(', '*', '+', ',', ';', '=', '|', '[', '^', '`', '{', 'é'];
    const starts = ['/', '//', 'http://', 'https://', 'http://a', 'https://h0.b-c.test', 'http://xn--', 'http://1.', ''];
    let state = 2026;
    const random = (n: number) => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n;
    let answered = 0;
    for (let i = 0; i < 50_000; i += 1) {
      let href = starts[random(starts.length)]!;
      for (let length = random(14); length > 0; length -= 1) href += alphabet[random(alphabet.length)]!;
      const base = BASES[random(BASES.length)]!;
      const fast = resolvePlainHref(href, basePrefix(base));
      if (fast === null) continue;
      answered += 1;
      expect(fast, `${JSON.stringify(href)} against ${base}`).toBe(platform(href, base));
    }
    expect(answered).toBeGreaterThan(2_000);
  });
});
