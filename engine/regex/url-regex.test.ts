import { describe, expect, it } from 'vitest';
import { compileUrlRegex } from './url-regex';

describe('compileUrlRegex: linear-time URL patterns', () => {
  it('matches a hostile pattern-plus-URL pair that backtracks catastrophically in irregexp in well under 10 ms', () => {
    // Irregexp needs about 2^n steps for ^(a+)+$ on n a's and a '!' (about 1 s at n = 24 on this
    // machine, so n = 40 would take hours); the linear engine walks the text once per NFA state.
    const hostile = compileUrlRegex('^(a+)+$');
    const url = `${'a'.repeat(40)}!`;
    const startedAt = performance.now();
    expect(hostile.test(url)).toBe(false);
    const elapsedMs = performance.now() - startedAt;
    // A longer hostile URL, as a crawl could meet: 8 KB of a's.
    const long = `http://a.test/${'a'.repeat(8192)}!`;
    const nested = compileUrlRegex('/(a|aa)*$');
    const longStartedAt = performance.now();
    expect(nested.test(long)).toBe(false);
    const longElapsedMs = performance.now() - longStartedAt;
    console.log(`hostile ^(a+)+$ on 40 a's + '!': ${elapsedMs.toFixed(3)} ms; /(a|aa)*$ on an 8 KB URL: ${longElapsedMs.toFixed(3)} ms`);
    expect(elapsedMs).toBeLessThan(10);
    expect(longElapsedMs).toBeLessThan(10);
  });

  it('refuses patterns that need backtracking, saying which constructs', () => {
    for (const pattern of ['(a)\\1', 'x(?=y)', 'x(?!y)', '(?<=/)x', '(?<n>a)\\k<n>', 'a{1,50}']) {
      expect(() => compileUrlRegex(pattern), pattern).toThrow(expect.objectContaining({ code: 'INVALID_URL_REGEX', message: expect.stringContaining('backreferences') }));
    }
  });

  it('refuses empty, too long and invalid patterns with INVALID_URL_REGEX', () => {
    expect(() => compileUrlRegex('')).toThrow(expect.objectContaining({ code: 'INVALID_URL_REGEX', message: 'The regular expression is empty' }));
    expect(() => compileUrlRegex('a'.repeat(1001))).toThrow(expect.objectContaining({ code: 'INVALID_URL_REGEX', message: expect.stringContaining('longer than 1000') }));
    expect(() => compileUrlRegex('(unclosed')).toThrow(expect.objectContaining({ code: 'INVALID_URL_REGEX', message: expect.stringMatching(/^Not a valid regular expression: .*(Unterminated group)/) }));
  });

  it('runs ordinary URL patterns as written (case-sensitive, unanchored unless anchored)', () => {
    expect(compileUrlRegex('/docs/.*\\.html$').test('http://a.test/docs/x.html')).toBe(true);
    expect(compileUrlRegex('/docs/').test('http://a.test/DOCS/x')).toBe(false);
    expect(compileUrlRegex('^https://').test('http://a.test/')).toBe(false);
    expect(compileUrlRegex('[?&]sessionid=').test('http://a.test/x?a=1&sessionid=2')).toBe(true);
  });
});
