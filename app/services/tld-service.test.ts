import { describe, expect, it } from 'vitest';
import { DEFAULT_TLD_CONFIG } from '../../shared/url/tld-config';
import { publicSuffixImport, testDomain } from './tld-service';

describe('testDomain', () => {
  it('shows the seed algorithm step by step, with the fallback warning when no list matches', () => {
    const before = testDomain('http://www.xyz.co.uk/', { mode: 'seed', generic: ['com'], additional: [] });
    expect(before).toMatchObject({ host: 'www.xyz.co.uk', registrableDomain: 'co.uk', fellBack: true, error: null });
    expect(before.warning).toBe('No rule matches the suffix ".uk": add "uk" to the generic TLDs, or add "co.uk" to the additional TLDs if names are registered under it.');
    expect(before.trace.map((step) => step.text).join('\n')).not.toContain('DEBUG');
    expect(before.trace.map((step) => step.step)).toEqual(['host', 'generic', 'check', 'check', 'check', 'check', 'fallback', 'result']);

    const after = testDomain('http://www.xyz.co.uk/', { mode: 'seed', generic: ['com'], additional: ['co.uk'] });
    expect(after).toMatchObject({ registrableDomain: 'xyz.co.uk', publicSuffix: 'co.uk', fellBack: false, warning: null });
    expect(after.trace.find((step) => step.matched === true)).toMatchObject({ candidate: 'co.uk', rule: 'co.uk', source: 'additional' });
  });

  it('uses the shipped Public Suffix List in PSL mode, and reports an unusable host', () => {
    expect(testDomain('https://a.b.c.kobe.jp/', DEFAULT_TLD_CONFIG).registrableDomain).toBe('b.c.kobe.jp');
    expect(testDomain('http://a..b/', DEFAULT_TLD_CONFIG)).toMatchObject({ registrableDomain: null, error: expect.stringContaining('empty label') });
  });
});

describe('publicSuffixImport', () => {
  it('offers the PSL snapshot’s plain rules as list entries and counts the wildcard and exception rules it leaves out', () => {
    const psl = publicSuffixImport();
    expect(psl.rules).toContain('co.uk');
    expect(psl.rules).toContain('github.io');
    expect(psl.rules.some((rule) => rule.includes('*') || rule.startsWith('!'))).toBe(false);
    expect(new Set(psl.rules).size).toBe(psl.rules.length);
    expect(psl.skipped).toBeGreaterThan(10);
    expect(psl.rules.length + psl.skipped).toBeGreaterThan(10_000);
    expect(psl.snapshotDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
