import { describe, expect, it } from 'vitest';
import { applySiteRules, parseSiteRules } from './site-rules';
import { DEFAULT_SITE_RULES } from './site-rules.default';

const compiled = parseSiteRules(DEFAULT_SITE_RULES);
if (!compiled.ok) throw new Error(compiled.error.message);
const rules = compiled.value;

describe('default site rules', () => {
  const cases: [string, string | null, string | null][] = [
    ['https://en.wikipedia.org/w/index.php?title=URL_normalization', 'https://en.wikipedia.org/wiki/URL_normalization', 'wikipedia-index-php-title'],
    ['https://de.m.wikipedia.org/w/index.php?title=Uniform+Resource+Locator', 'https://de.m.wikipedia.org/wiki/Uniform_Resource_Locator', 'wikipedia-index-php-title'],
    ['https://en.wikipedia.org/w/index.php?title=URL_normalization&action=edit', null, null],
    ['https://en.wikipedia.org/w/index.php?search=url', null, null],
    ['https://stackoverflow.com/questions/1732348/regex-match-open-tags-except-xhtml-self-contained-tags', 'https://stackoverflow.com/questions/1732348', 'stackoverflow-question-slug'],
    ['https://stackoverflow.com/questions/1732348/you-can-actually-put-anything-here', 'https://stackoverflow.com/questions/1732348', 'stackoverflow-question-slug'],
    ['https://stackoverflow.com/q/1732348', 'https://stackoverflow.com/questions/1732348', 'stackoverflow-question-short'],
    ['http://www.stackoverflow.com/q/1732348/12345?noredirect=1', 'https://stackoverflow.com/questions/1732348', 'stackoverflow-question-short'],
    ['https://stackoverflow.com/questions/1732348/slug/1732454#1732454', 'https://stackoverflow.com/questions/1732348', 'stackoverflow-question-slug'],
    ['https://stackoverflow.com/questions/tagged/regex', null, null],
    ['https://stackoverflow.com/a/1732454', null, null],
    ['https://example.com/q/1732348', null, null],
  ];
  for (const [url, rewritten, ruleId] of cases) {
    it(`${url} → ${rewritten ?? 'no rewrite'}`, () => {
      expect(applySiteRules(url, rules)).toEqual(rewritten === null ? null : { url: rewritten, ruleId });
    });
  }
});

describe('parseSiteRules validation', () => {
  const rule = { id: 'r', description: '', hosts: ['a.test'], path: '/p/{id:int}', otherQuery: 'drop', to: '/x/{id}' };
  const cases: [unknown, string][] = [
    [[], 'site rules must be { "version": 1, "rules": [...] }'],
    [{ version: 1, rules: [{ ...rule, id: '' }] }, 'rules[0].id must be a non-empty string'],
    [{ version: 1, rules: [rule, rule] }, 'rules[1].id "r" is used twice'],
    [{ version: 1, rules: [{ ...rule, path: 'p' }] }, 'rules[0] (r): path must start with "/"'],
    [{ version: 1, rules: [{ ...rule, path: '/p/*x' }] }, 'rules[0] (r): path segment "*x" must be literal'],
    [{ version: 1, rules: [{ ...rule, to: '/x/{name}' }] }, 'rules[0] (r): "to" uses {name}, which the path and query do not capture'],
    [{ version: 1, rules: [{ ...rule, hosts: [] }] }, 'rules[0] (r).hosts must be a non-empty array'],
    [{ version: 1, rules: [{ ...rule, otherQuery: 'keep' }] }, 'rules[0] (r).otherQuery must be "forbid" or "drop"'],
  ];
  for (const [value, message] of cases) {
    it(message, () => {
      expect(parseSiteRules(value)).toMatchObject({ ok: false, error: { code: 'INVALID_SITE_RULES' } });
      const result = parseSiteRules(value);
      expect(!result.ok && result.error.message).toContain(message);
    });
  }
  it('literal query values must match', () => {
    const parsed = parseSiteRules({ version: 1, rules: [{ ...rule, path: '/view', query: { kind: 'page', id: '{id}' }, otherQuery: 'forbid', to: '/page/{id}' }] });
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(applySiteRules('http://a.test/view?id=7&kind=page', parsed.value)?.url).toBe('http://a.test/page/7');
    expect(applySiteRules('http://a.test/view?id=7&kind=post', parsed.value)).toBeNull();
  });
});
