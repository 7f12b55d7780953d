import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './normalize';
import { compileRuleContext, customProfile, PROFILES, validateProfile } from './profiles';
import { RULE_INFO, RULE_ORDER } from './rules';

const norm = (input: string, profile = PROFILES.standard): string => {
  const result = normalizeUrl(input, profile);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.normalized;
};

describe('built-in profiles', () => {
  it('safe holds exactly the semantics-preserving rules (RFC 3986 §6.2.2-6.2.3)', () => {
    const on = RULE_ORDER.filter((rule) => PROFILES.safe.rules[rule]);
    expect(on).toEqual(['lowercaseSchemeAndHost', 'uppercasePercentEscapes', 'decodeUnreservedCharacters', 'removeDefaultPort', 'removeDotSegments', 'addTrailingSlash']);
    expect(on.every((rule) => RULE_INFO[rule].semanticsPreserving)).toBe(true);
  });

  it('standard = safe + fragment, directory index, tracking/session variables, sorted query, empty "?"', () => {
    const extra = RULE_ORDER.filter((rule) => PROFILES.standard.rules[rule] && !PROFILES.safe.rules[rule]);
    expect(extra).toEqual(['removeDirectoryIndex', 'removeFragment', 'removeQueryParams', 'sortQueryParams', 'removeEmptyQuery']);
  });

  it('aggressive = standard + www, scheme folding, extension and trailing slash (seed 001)', () => {
    const extra = RULE_ORDER.filter((rule) => PROFILES.aggressive.rules[rule] && !PROFILES.standard.rules[rule]);
    expect(extra).toEqual(['removeWww', 'foldHttpsToHttp', 'removeFileExtension', 'removeTrailingSlash']);
  });

  it('are frozen', () => {
    expect(Object.isFrozen(PROFILES.standard)).toBe(true);
    expect(Object.isFrozen(PROFILES.standard.rules)).toBe(true);
  });

  const input = 'HTTPS://www.Example.com:443/a/./b/../%7euser/index.html?utm_source=x&b=2&a=1#top';
  it('safe keeps everything that may change meaning', () => {
    expect(norm(input, PROFILES.safe)).toBe('https://www.example.com/a/~user/index.html?utm_source=x&b=2&a=1#top');
  });
  it('standard also drops the fragment, index file and trackers, and sorts the query', () => {
    expect(norm(input, PROFILES.standard)).toBe('https://www.example.com/a/~user/?a=1&b=2');
  });
  it('aggressive also folds scheme and www and drops the trailing slash', () => {
    expect(norm(input, PROFILES.aggressive)).toBe('http://example.com/a/~user?a=1&b=2');
  });
  it('standard keeps www, https, extensions and trailing slashes', () => {
    expect(norm('https://www.example.com/document.html')).toBe('https://www.example.com/document.html');
    expect(norm('https://www.example.com/document/')).toBe('https://www.example.com/document/');
  });
});

describe('custom profiles', () => {
  it('customProfile copies a built-in profile and applies switches', () => {
    const profile = customProfile('mine', 'standard', { removeWww: true, removeFragment: false });
    expect(profile.rules.removeWww).toBe(true);
    expect(profile.rules.removeFragment).toBe(false);
    profile.removeQueryParams.push('ref');
    expect(PROFILES.standard.removeQueryParams).not.toContain('ref');
    expect(norm('http://www.a.test/x?ref=1&y=2#f', profile)).toBe('http://a.test/x?y=2#f');
  });

  it('round-trips through JSON (settings storage)', () => {
    const profile = customProfile('json', 'aggressive');
    const restored = validateProfile(JSON.parse(JSON.stringify(profile)));
    expect(restored).toEqual({ ok: true, value: profile });
  });

  it('editable lists drive the rules', () => {
    const profile = { ...customProfile('lists', 'standard', { removeDefaultQueryParams: true }), directoryIndexes: ['home.htm'], defaultQueryParams: ['lang=en'] };
    expect(norm('http://a.test/docs/home.htm?lang=en&q=1', profile)).toBe('http://a.test/docs/?q=1');
    expect(norm('http://a.test/docs/index.html', profile)).toBe('http://a.test/docs/index.html');
  });

  it('compileRuleContext splits prefix entries from exact names', () => {
    const context = compileRuleContext(PROFILES.standard);
    expect(context.removeParamPrefixes).toEqual(['utm_', 'aspsessionid']);
    expect(context.removeParamNames.has('phpsessid')).toBe(true);
  });
});

describe('validateProfile gives a clear error for a bad profile', () => {
  const good = () => JSON.parse(JSON.stringify(customProfile('ok', 'standard'))) as Record<string, unknown>;
  const cases: [string, (p: Record<string, unknown>) => unknown, string][] = [
    ['not an object', () => 'x', 'a profile must be an object'],
    ['empty name', (p) => ({ ...p, name: ' ' }), 'name must be a non-empty string'],
    ['missing rules', (p) => ({ ...p, rules: undefined }), 'rules must be an object with one true/false switch per rule'],
    ['unknown rule', (p) => ({ ...p, rules: { ...(p['rules'] as object), removeEverything: true } }), 'rules.removeEverything is not a rule'],
    ['missing switch', (p) => ({ ...p, rules: { ...(p['rules'] as object), removeWww: undefined } }), 'rules.removeWww must be true or false'],
    ['non-boolean switch', (p) => ({ ...p, rules: { ...(p['rules'] as object), removeWww: 'yes' } }), 'rules.removeWww must be true or false'],
    ['list not an array', (p) => ({ ...p, directoryIndexes: 'index.html' }), 'directoryIndexes must be an array of strings'],
    ['path in index list', (p) => ({ ...p, directoryIndexes: ['a/index.html'] }), 'directoryIndexes[0] "a/index.html" must be a file name'],
    ['lone star', (p) => ({ ...p, removeQueryParams: ['*'] }), 'removeQueryParams[0] "*" would remove every query variable'],
    ['inner star', (p) => ({ ...p, removeQueryParams: ['utm_source', 'u*m'] }), 'removeQueryParams[1] "u*m" must be a query name'],
    ['pair in remove list', (p) => ({ ...p, removeQueryParams: ['a=b'] }), 'removeQueryParams[0] "a=b" must be a query name'],
    ['default without =', (p) => ({ ...p, defaultQueryParams: ['sort'] }), 'defaultQueryParams[0] "sort" must be "name=value"'],
    ['extension with dot', (p) => ({ ...p, fileExtensions: ['.html'] }), 'fileExtensions[0] ".html" must be lowercase letters and digits'],
    ['blank entry', (p) => ({ ...p, fileExtensions: [' html'] }), 'fileExtensions[0] " html" is empty or has surrounding spaces'],
  ];
  for (const [name, mutate, message] of cases) {
    it(name, () => {
      const result = validateProfile(mutate(good()));
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('INVALID_PROFILE');
        expect(result.error.message).toContain(message);
      }
    });
  }
  it('createNormalizer refuses an invalid profile with the same message', () => {
    expect(() => normalizeUrl('http://a/', { ...customProfile('bad', 'safe'), fileExtensions: ['.x'] })).toThrow(/Invalid normalization profile "bad": fileExtensions\[0\]/);
  });
});
