import { describe, expect, it } from 'vitest';
import { customProfile } from './profiles';
import { normalizeUrl } from './normalize';
import { RULE_INFO, RULE_ORDER, removeDotSegmentsFromPath, type NormalizationRuleName } from './rules';

/** A profile with exactly one rule switched on. */
function only(rule: NormalizationRuleName, lists: Partial<{ defaultQueryParams: string[] }> = {}) {
  const off = Object.fromEntries(RULE_ORDER.map((name) => [name, name === rule])) as Record<NormalizationRuleName, boolean>;
  return { ...customProfile(`only-${rule}`, 'safe', off), ...lists };
}

function apply(rule: NormalizationRuleName, input: string, lists: Partial<{ defaultQueryParams: string[] }> = {}) {
  const result = normalizeUrl(input, only(rule, lists), { explain: true });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('each rule alone turns its documented example (seed 002 where it has one) into the documented output', () => {
  for (const rule of RULE_ORDER) {
    it(rule, () => {
      const { input, output } = RULE_INFO[rule].example;
      const lists = rule === 'removeDefaultQueryParams' ? { defaultQueryParams: ['id=', 'sort=ascending'] } : {};
      const result = apply(rule, input, lists);
      expect(result.normalized).toBe(output);
      expect(result.rules).toEqual([{ rule, before: input, after: output }]);
    });
  }
});

describe('rules report nothing when there is nothing to do', () => {
  const clean = 'http://example.com/a/b?x=1';
  for (const rule of RULE_ORDER) {
    it(rule, () => {
      const result = apply(rule, clean);
      expect(result.rules).toEqual([]);
      expect(result.normalized).toBe(clean);
    });
  }
});

describe('rule details', () => {
  const cases: [NormalizationRuleName, string, string][] = [
    ['lowercaseSchemeAndHost', 'HTTPS://EXAMPLE.com/Path', 'https://example.com/Path'],
    ['lowercaseSchemeAndHost', 'FOO://Host.Example/Path', 'foo://Host.Example/Path'],
    ['lowercaseUrl', 'HTTP://Example.com/A?B=C#D', 'http://example.com/a?b=c#d'],
    ['uppercasePercentEscapes', 'http://a/%7e?%3d#%2f', 'http://a/%7E?%3D#%2F'],
    ['uppercasePercentEscapes', 'http://a/100%zz', 'http://a/100%zz'],
    ['decodeUnreservedCharacters', 'http://a/%41%2D%2e%5F%7E%2F%20', 'http://a/A-._~%2F%20'],
    ['removeDefaultPort', 'https://a:443/', 'https://a/'],
    ['removeDefaultPort', 'https://a:80/', 'https://a:80/'],
    ['removeDefaultPort', 'ftp://a:21/', 'ftp://a/'],
    ['removeDotSegments', 'http://a/b/c/./../../g', 'http://a/g'],
    ['removeDotSegments', 'http://a/b/%2E%2e/c', 'http://a/c'],
    ['removeDotSegments', 'http://a/b/..', 'http://a/'],
    ['addTrailingSlash', 'https://a.test?x', 'https://a.test/?x'],
    ['addTrailingSlash', 'foo://a.test', 'foo://a.test'],
    ['removeDirectoryIndex', 'http://a/default.asp', 'http://a/'],
    ['removeDirectoryIndex', 'http://a/x/INDEX.HTML?y=1', 'http://a/x/?y=1'],
    ['removeDirectoryIndex', 'http://a/myindex.html', 'http://a/myindex.html'],
    ['removeFragment', 'http://a/b#', 'http://a/b'],
    ['removeWww', 'http://www.example.co.uk/', 'http://example.co.uk/'],
    ['removeWww', 'http://www.com/', 'http://www.com/'],
    ['removeWww', 'http://www2.example.com/', 'http://www2.example.com/'],
    ['removeQueryParams', 'http://a/?utm_source=x&UTM_Medium=y&gclid=1&keep=2&PHPSESSID=3', 'http://a/?keep=2'],
    ['removeQueryParams', 'http://a/?fbclid=1', 'http://a/?'],
    ['removeQueryParams', 'http://a/?x=1&&jsessionid=2', 'http://a/?x=1'],
    ['removeQueryParams', 'http://a/item;jsessionid=XYZ', 'http://a/item'],
    ['removeQueryParams', 'http://a/x;v=1;JSESSIONID=A?q=1&sid=2', 'http://a/x;v=1?q=1'],
    ['removeQueryParams', 'http://a/dir;jsessionid=1/x', 'http://a/dir;jsessionid=1/x'],
    ['sortQueryParams', 'http://a/?b=1&a=2&a=1', 'http://a/?a=1&a=2&b=1'],
    ['sortQueryParams', 'http://a/?b&&a', 'http://a/?a&b'],
    ['removeEmptyQuery', 'http://a/b?#f', 'http://a/b#f'],
    ['foldHttpsToHttp', 'wss://a/', 'ws://a/'],
    ['foldHttpsToHttp', 'http://a/', 'http://a/'],
    ['removeFileExtension', 'http://a/b/c.ASPX?x', 'http://a/b/c?x'],
    ['removeFileExtension', 'http://a/b/archive.tar.gz', 'http://a/b/archive.tar.gz'],
    ['removeFileExtension', 'http://a/b.html/c', 'http://a/b.html/c'],
    ['removeTrailingSlash', 'http://a/', 'http://a/'],
    ['removeTrailingSlash', 'http://a/b/?q', 'http://a/b?q'],
  ];
  for (const [rule, input, output] of cases) {
    it(`${rule}: ${input} → ${output}`, () => {
      expect(apply(rule, input).normalized).toBe(output);
    });
  }

  it('removeDefaultQueryParams matches name case-insensitively and value exactly', () => {
    const lists = { defaultQueryParams: ['sort=ascending', 'page=1'] };
    expect(apply('removeDefaultQueryParams', 'http://a/?Sort=ascending&page=2&x', lists).normalized).toBe('http://a/?page=2&x');
    expect(apply('removeDefaultQueryParams', 'http://a/?sort=Ascending', lists).normalized).toBe('http://a/?sort=Ascending');
  });
});

describe('removeDotSegmentsFromPath agrees with the WHATWG parser', () => {
  const paths = ['/a/b/c/./../../g', '/./g', '/../g', '/g.', '/.g', '/g..', '/..g', '/a/./', '/a/../', '////../..', '/a/.%2E/b', '/%2e', '/a/%2e%2E'];
  for (const path of paths) {
    it(path, () => {
      expect(removeDotSegmentsFromPath(path)).toBe(new URL('http://h' + path).pathname);
    });
  }
});
