import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { NORMALIZED_KEY_NAMESPACE, normalizedKey } from './key';
import { createNormalizer, createStringNormalizer, normalizeUrl } from './normalize';
import { PROFILES } from './profiles';

describe('seed 001: a URL by many names', () => {
  const raw = ['https://example.com/document/index.aspx', 'http://www.example.com/document.html', 'http://example.com/document/?utm_source=ref'];
  it('the three raw URLs share one normalized string and key under aggressive', () => {
    const results = raw.map((url) => normalizeUrl(url, PROFILES.aggressive));
    const expectedKey = v5('http://example.com/document', NORMALIZED_KEY_NAMESPACE);
    for (const result of results) {
      expect(result).toEqual({ ok: true, value: { normalized: 'http://example.com/document', key: expectedKey } });
    }
  });
  it('explain lists the rules that made each one', () => {
    const fired = raw.map((url) => {
      const result = normalizeUrl(url, PROFILES.aggressive, { explain: true });
      return result.ok ? result.value.rules?.map((firing) => firing.rule) : [];
    });
    expect(fired).toEqual([
      ['removeDirectoryIndex', 'foldHttpsToHttp', 'removeTrailingSlash'],
      ['removeWww', 'removeFileExtension'],
      ['removeQueryParams', 'removeEmptyQuery', 'removeTrailingSlash'],
    ]);
  });
  it('under standard they stay apart (only aggressive guesses that far)', () => {
    const keys = raw.map((url) => {
      const result = normalizeUrl(url);
      return result.ok ? result.value.key : null;
    });
    expect(new Set(keys).size).toBe(3);
    expect(keys).not.toContain(null);
  });
});

describe('seed 002 examples under the profile they belong to', () => {
  const cases: [string, string, keyof typeof PROFILES][] = [
    ['HTTP://www.Example.com/', 'http://www.example.com/', 'safe'],
    ['http://www.example.com', 'http://www.example.com/', 'safe'],
    ['http://www.example.com/default.asp', 'http://www.example.com/', 'standard'],
    ['http://www.example.com/a/index.html', 'http://www.example.com/a/', 'standard'],
    ['http://www.example.com/a%c2%b1b', 'http://www.example.com/a%C2%B1b', 'safe'],
    ['http://www.example.com/bar.html#section1', 'http://www.example.com/bar.html', 'standard'],
    ['http://www.example.com:80/bar.html', 'http://www.example.com/bar.html', 'safe'],
    ['http://www.example.com/../a/b/../c/./d.html', 'http://www.example.com/a/c/d.html', 'safe'],
    ['http://www.example.com/', 'http://example.com/', 'aggressive'],
    ['http://www.example.com/display?lang=en&article=fred', 'http://www.example.com/display?article=fred&lang=en', 'standard'],
    ['http://www.example.com/display?', 'http://www.example.com/display', 'standard'],
  ];
  for (const [input, output, profile] of cases) {
    it(`${profile}: ${input} → ${output}`, () => {
      const result = normalizeUrl(input, PROFILES[profile]);
      expect(result.ok && result.value.normalized).toBe(output);
    });
  }
});

describe('normalizeUrl', () => {
  it('defaults to the standard profile', () => {
    expect(normalizeUrl('http://a.test/x#y')).toEqual(normalizeUrl('http://a.test/x#y', PROFILES.standard));
  });
  it('sends IDN hosts to punycode and percent-encodes like the WHATWG parser', () => {
    const result = normalizeUrl('http://食狮.公司.cn/ä b?q=ä#x y', PROFILES.safe);
    expect(result.ok && result.value.normalized).toBe('http://xn--85x722f.xn--55qx5d.cn/%C3%A4%20b?q=%C3%A4#x%20y');
  });
  it('reads IPv4 in numeric forms and backslashes as the WHATWG parser does', () => {
    expect(normalizeUrl('http://3279880203/blah', PROFILES.safe)).toMatchObject({ ok: true, value: { normalized: 'http://195.127.0.11/blah' } });
    expect(normalizeUrl('http:\\\\www.google.com\\foo', PROFILES.safe)).toMatchObject({ ok: true, value: { normalized: 'http://www.google.com/foo' } });
  });
  it('keeps userinfo, non-default ports and non-special schemes', () => {
    expect(normalizeUrl('http://u:p@a.test:8080/x', PROFILES.standard)).toMatchObject({ value: { normalized: 'http://u:p@a.test:8080/x' } });
    expect(normalizeUrl('mailto:Someone@Example.com', PROFILES.standard)).toMatchObject({ value: { normalized: 'mailto:Someone@Example.com' } });
  });
  it('returns typed errors for input that is not a URL', () => {
    expect(normalizeUrl('www.example.com')).toMatchObject({ ok: false, error: { code: 'MISSING_SCHEME' } });
    expect(normalizeUrl('http://exa mple.com/')).toMatchObject({ ok: false, error: { code: 'INVALID_HOST' } });
    expect(normalizeUrl('http://a.test:99999/')).toMatchObject({ ok: false, error: { code: 'INVALID_PORT' } });
    expect(normalizeUrl('http:///')).toMatchObject({ ok: false, error: { code: 'INVALID_HOST' } });
  });
  it('is idempotent: normalizing a normalized URL changes nothing', () => {
    for (const profile of Object.values(PROFILES)) {
      for (const url of ['HTTP://Www.A.test:80/x/../Index.html?utm_term=1&z=1&a=2#f', 'https://a.test/%7euser/', 'http://a.test']) {
        const once = normalizeUrl(url, profile);
        const twice = once.ok ? normalizeUrl(once.value.normalized, profile) : once;
        expect(twice).toEqual(once);
      }
    }
  });
});

describe('createNormalizer (the hot path)', () => {
  const urls = ['https://Example.com/a/index.php?b=1&a=2#x', 'http://a.test', 'not a url', 'https://a.test/x?utm_source=1'];
  it('gives the same results as normalizeUrl, with and without the key cache', () => {
    for (const options of [{}, { keyCacheSize: 0 }, { keyCacheSize: 1 }]) {
      const normalize = createNormalizer(PROFILES.standard, options);
      for (let round = 0; round < 3; round++) for (const url of urls) expect(normalize(url)).toEqual(normalizeUrl(url, PROFILES.standard));
    }
  });
  it('explains when asked', () => {
    const result = createNormalizer(PROFILES.standard, { explain: true })('http://a.test/x#y');
    expect(result).toEqual({ ok: true, value: { normalized: 'http://a.test/x', key: normalizedKey('http://a.test/x'), rules: [{ rule: 'removeFragment', before: 'http://a.test/x#y', after: 'http://a.test/x' }] } });
  });
  it('createStringNormalizer returns the string only', () => {
    expect(createStringNormalizer(PROFILES.safe)('http://a/b/%7e')).toEqual({ ok: true, value: 'http://a/b/~' });
    expect(createStringNormalizer(PROFILES.safe)('nope')).toMatchObject({ ok: false, error: { code: 'MISSING_SCHEME' } });
  });
});
