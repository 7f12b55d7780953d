import { describe, expect, it, vi } from 'vitest';
import { createDomainResolver, fallbackAdvice, registrableDomain, type DomainResult } from './domain';
import { parsePublicSuffixList } from './psl';
import { DEFAULT_GENERIC_TLDS, type TldConfig } from './tld-config';

/** A small PSL with each rule kind (the full list is tested in tests/url/psl.conformance.test.ts). */
const psl = parsePublicSuffixList(`// ===BEGIN ICANN DOMAINS===
com
uk
co.uk
jp
kobe.jp
*.kobe.jp
!city.kobe.jp
ck
*.ck
!www.ck
公司.cn
cn
// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
uk.com
github.io
// ===END PRIVATE DOMAINS===
`);

const seed = (additional: string[] = []): TldConfig => ({ mode: 'seed', generic: [...DEFAULT_GENERIC_TLDS], additional });
const pslMode: TldConfig = { mode: 'psl', generic: [...DEFAULT_GENERIC_TLDS], additional: [] };
const texts = (result: DomainResult) => result.trace.map((step) => step.text);

describe('seed 000 mode, exactly as the seed describes it', () => {
  it('step 1: a generic last term gives the last two terms (http://www.xyz.com → xyz.com)', () => {
    const result = registrableDomain('http://www.xyz.com', seed());
    expect(result).toMatchObject({ registrableDomain: 'xyz.com', publicSuffix: 'com', fellBack: false });
    expect(texts(result)).toEqual(['Host: www.xyz.com', 'The generic TLD list contains "com": the last two terms are the domain', 'Registrable domain: xyz.com']);
  });

  it('the worked example: co.uk in the additional list gives xyz.co.uk after four checks', () => {
    const result = registrableDomain('http://www.xyz.co.uk', seed(['co.uk']));
    expect(result).toMatchObject({ host: 'www.xyz.co.uk', registrableDomain: 'xyz.co.uk', publicSuffix: 'co.uk', fellBack: false });
    expect(result.trace.map((step) => [step.step, step.candidate, step.matched])).toEqual([
      ['host', 'www.xyz.co.uk', undefined],
      ['generic', 'uk', false],
      ['check', 'www.xyz.co.uk', false],
      ['check', 'xyz.co.uk', false],
      ['check', 'co.uk', true],
      ['result', undefined, undefined],
    ]);
  });

  it('step 3: with no match the last two terms are used and the DEBUG message is logged', () => {
    const logger = vi.fn();
    const result = registrableDomain('http://www.xyz.co.uk', seed(), undefined, { logger });
    expect(result).toMatchObject({ registrableDomain: 'co.uk', fellBack: true });
    const message = 'Failed to get the domain name for url: http://www.xyz.co.uk using co.uk as the default domain name';
    expect(result.message).toBe(message);
    expect(logger).toHaveBeenCalledWith('debug', message);
    expect(result.trace.at(-2)?.step).toBe('fallback');
    expect(result.trace.filter((step) => step.step === 'check')).toHaveLength(4);
  });

  it('the longest listed suffix wins because the whole host is checked first', () => {
    expect(registrableDomain('a.b.example.co.uk', seed(['co.uk', 'example.co.uk'])).registrableDomain).toBe('b.example.co.uk');
  });

  it('a host that is itself a listed suffix has no registrable domain', () => {
    expect(registrableDomain('co.uk', seed(['co.uk']))).toMatchObject({ registrableDomain: null, publicSuffix: 'co.uk', site: 'co.uk' });
    expect(registrableDomain('com', seed())).toMatchObject({ registrableDomain: null, publicSuffix: 'com' });
  });

  it('single-label hosts fall back to themselves (localhost → localhost)', () => {
    expect(registrableDomain('localhost', seed())).toMatchObject({ registrableDomain: 'localhost', fellBack: true });
  });

  it('ignores the PSL even when one is passed', () => {
    expect(registrableDomain('example.uk.com', seed(), psl).registrableDomain).toBe('uk.com');
  });
});

describe('PSL mode', () => {
  const cases: [string, string | null, string | null][] = [
    ['www.example.com', 'example.com', 'com'],
    ['a.b.example.uk.com', 'example.uk.com', 'uk.com'],
    ['www.xyz.co.uk', 'xyz.co.uk', 'co.uk'],
    ['c.kobe.jp', null, 'c.kobe.jp'],
    ['a.b.c.kobe.jp', 'b.c.kobe.jp', 'c.kobe.jp'],
    ['www.city.kobe.jp', 'city.kobe.jp', 'kobe.jp'],
    ['www.ck', 'www.ck', 'ck'],
    ['www.www.ck', 'www.ck', 'ck'],
    ['test.ck', null, 'test.ck'],
    ['me.github.io', 'me.github.io', 'github.io'],
    ['www.食狮.公司.cn', '食狮.公司.cn', '公司.cn'],
    ['www.xn--85x722f.xn--55qx5d.cn', 'xn--85x722f.xn--55qx5d.cn', 'xn--55qx5d.cn'],
    ['WwW.Example.COM', 'example.com', 'com'],
  ];
  const resolve = createDomainResolver(pslMode, psl);
  for (const [host, domain, suffix] of cases) {
    it(`${host} → ${domain}`, () => {
      expect(registrableDomain(host, pslMode, psl)).toMatchObject({ registrableDomain: domain, publicSuffix: suffix, fellBack: false });
      expect(resolve(host)).toMatchObject({ registrableDomain: domain, publicSuffix: suffix, fellBack: false });
    });
  }

  it('generic entries are rules, but a longer PSL rule wins (the trace says so)', () => {
    const result = registrableDomain('example.uk.com', pslMode, psl);
    expect(texts(result)).toEqual([
      'Host: example.uk.com',
      'The generic TLD list contains "com"; in PSL mode it is a one-label rule and a longer PSL rule may still match',
      '"example.uk.com" does not match any rule',
      '"uk.com" matches the PSL rule (PRIVATE section) "uk.com"',
      'Registrable domain: example.uk.com (the match plus one more term)',
    ]);
  });

  it('traces wildcard and exception rules', () => {
    const exception = registrableDomain('www.city.kobe.jp', pslMode, psl).trace.find((step) => step.step === 'check' && step.matched);
    expect(exception).toMatchObject({ candidate: 'city.kobe.jp', rule: '!city.kobe.jp', source: 'icann' });
    const wildcard = registrableDomain('a.b.c.kobe.jp', pslMode, psl).trace.find((step) => step.step === 'check' && step.matched);
    expect(wildcard).toMatchObject({ candidate: 'c.kobe.jp', rule: '*.kobe.jp' });
  });

  it('unlisted TLDs use the PSL default rule "*" and log like the seed', () => {
    const logger = vi.fn();
    const result = registrableDomain('a.example.test', pslMode, psl, { logger });
    expect(result).toMatchObject({ registrableDomain: 'example.test', publicSuffix: 'test', fellBack: true });
    expect(logger).toHaveBeenCalledWith('debug', 'Failed to get the domain name for url: a.example.test using example.test as the default domain name');
  });

  it('user additional entries join the PSL without changing the shared list', () => {
    const config: TldConfig = { ...pslMode, additional: ['internal.example'] };
    expect(registrableDomain('a.b.internal.example', config, psl)).toMatchObject({ registrableDomain: 'b.internal.example', publicSuffix: 'internal.example' });
    expect(registrableDomain('a.b.internal.example', pslMode, psl).registrableDomain).toBe('internal.example');
  });

  it('needs a list', () => {
    expect(() => createDomainResolver(pslMode)).toThrow(/PSL mode needs a Public Suffix List/);
  });
});

describe('hosts that are not domain names', () => {
  for (const config of [seed(), pslMode]) {
    it(`${config.mode}: IP addresses are their own domain`, () => {
      expect(registrableDomain('http://127.0.0.1:8080/x', config, psl)).toMatchObject({ host: '127.0.0.1', kind: 'ipv4', registrableDomain: '127.0.0.1', publicSuffix: null, fellBack: false });
      expect(registrableDomain('http://[::1]/', config, psl)).toMatchObject({ host: '[::1]', kind: 'ipv6', registrableDomain: '[::1]' });
      expect(registrableDomain('3279880203', config, psl)).toMatchObject({ host: '195.127.0.11', kind: 'ipv4' });
    });
    it(`${config.mode}: localhost is its own domain`, () => {
      expect(registrableDomain('http://localhost:3000/', config, psl)).toMatchObject({ registrableDomain: 'localhost', site: 'localhost' });
    });
    it(`${config.mode}: empty labels and missing hosts are invalid, not a crash`, () => {
      for (const input of ['.com', 'a..b', '', 'http:///x', 'mailto:x@y']) {
        expect(registrableDomain(input, config, psl), input).toMatchObject({ kind: 'invalid', registrableDomain: null, error: { code: 'INVALID_HOST' } });
      }
      expect(registrableDomain(null, config, psl)).toMatchObject({ kind: 'invalid', registrableDomain: null });
    });
  }
  it('PSL mode: other single labels have no registrable domain but still a site key', () => {
    expect(registrableDomain('intranet', pslMode, psl)).toMatchObject({ registrableDomain: null, site: 'intranet', fellBack: true });
  });
});

describe('createDomainResolver (the hot path)', () => {
  it('agrees with registrableDomain, with and without its cache', () => {
    const inputs = ['www.example.com', 'https://a.b.c.kobe.jp/x', 'http://www.city.kobe.jp', 'example.test', 'localhost', '10.0.0.1', 'a..b', 'HTTP://WWW.XYZ.CO.UK:80/'];
    for (const config of [seed(['co.uk']), pslMode]) {
      for (const options of [{}, { cacheSize: 0 }, { cacheSize: 1 }]) {
        const resolve = createDomainResolver(config, psl, options);
        for (let round = 0; round < 2; round++) {
          for (const input of inputs) {
            const { trace: _fast, ...fast } = resolve(input);
            const { trace: _full, ...full } = registrableDomain(input, config, psl);
            expect(fast, `${config.mode} ${input}`).toEqual(full);
          }
        }
      }
    }
  });
  it('records the trace only when asked', () => {
    expect(createDomainResolver(pslMode, psl)('www.example.com').trace).toEqual([]);
    expect(createDomainResolver(pslMode, psl, { trace: true })('www.example.com').trace.length).toBeGreaterThan(2);
  });
  it('logs each fallback, cached or not, with the input that asked', () => {
    const logger = vi.fn();
    const resolve = createDomainResolver(seed(), undefined, { logger });
    resolve('http://a.example.zz/1');
    resolve('http://a.example.zz/2');
    expect(logger.mock.calls.map((call) => call[1])).toEqual([
      'Failed to get the domain name for url: http://a.example.zz/1 using example.zz as the default domain name',
      'Failed to get the domain name for url: http://a.example.zz/2 using example.zz as the default domain name',
    ]);
  });
  it('refuses invalid settings with the validator message', () => {
    expect(() => createDomainResolver({ mode: 'seed', generic: ['Com'], additional: [] })).toThrow('Invalid TLD settings: generic[0] "Com" must be lowercase');
  });
});

describe('fallbackAdvice', () => {
  it('says what to add to the lists, in words', () => {
    expect(fallbackAdvice('www.shop.example.zz')).toBe('No rule matches the suffix ".zz": add "zz" to the generic TLDs, or add "example.zz" to the additional TLDs if names are registered under it.');
    expect(fallbackAdvice('intranet')).toBe('No rule matches "intranet": add "intranet" to the generic TLDs if it is a top-level domain.');
  });

  it('replaces the DEBUG line in the trace (the logger still gets the seed\'s message)', () => {
    const result = registrableDomain('http://www.xyz.co.uk', { mode: 'seed', generic: ['com'], additional: [] });
    const fallback = result.trace.find((step) => step.step === 'fallback');
    expect(fallback?.text).toBe('No term matched the additional list: the last two terms. No rule matches the suffix ".uk": add "uk" to the generic TLDs, or add "co.uk" to the additional TLDs if names are registered under it.');
  });
});
