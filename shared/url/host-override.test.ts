import { describe, expect, it } from 'vitest';
import { CodedError } from '../types/result';
import { hostOverrideMatcher, isIpAddress, overrideHostProblem, parseHostOverride, readHostOverride } from './host-override';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CodedError);
    return (error as CodedError).code;
  }
  return undefined;
}

describe('parseHostOverride', () => {
  it('parses host=ipv4 without a port', () => {
    expect(parseHostOverride('docs.python.test=127.0.0.1')).toEqual({ host: 'docs.python.test', address: '127.0.0.1' });
  });

  it('parses host=ipv4:port', () => {
    expect(parseHostOverride('docs.python.test=127.0.0.1:8080')).toEqual({ host: 'docs.python.test', address: '127.0.0.1', port: 8080 });
  });

  it('parses an IPv6 address in brackets, with and without a port', () => {
    expect(parseHostOverride('a.test=[::1]:81')).toEqual({ host: 'a.test', address: '::1', port: 81 });
    expect(parseHostOverride('a.test=[2001:db8::5]')).toEqual({ host: 'a.test', address: '2001:db8::5' });
  });

  it('lowercases the host and trims surrounding whitespace', () => {
    expect(parseHostOverride('  Site.TEST=10.0.0.2:9000  ')).toEqual({ host: 'site.test', address: '10.0.0.2', port: 9000 });
  });

  it('accepts the port bounds 1 and 65535', () => {
    expect(parseHostOverride('a.test=127.0.0.1:1').port).toBe(1);
    expect(parseHostOverride('a.test=127.0.0.1:65535').port).toBe(65_535);
  });

  it.each([
    '',
    'a.test',
    '=127.0.0.1',
    'a.test=',
    'a.test=not-an-ip',
    'a.test=example.com:80',
    'a.test=256.1.1.1',
    'a.test=127.0.0.1:0',
    'a.test=127.0.0.1:65536',
    'a.test=127.0.0.1:99999',
    'a.test=127.0.0.1:port',
    'a.test=127.0.0.1:',
    'a.test=::1:80',
    'a.test=[nothex]:80',
    'a b=127.0.0.1',
  ])('rejects %j with INVALID_RESOLVE', (value) => {
    expect(codeOf(() => parseHostOverride(value))).toBe('INVALID_RESOLVE');
  });

  it('names the bad value in the error message', () => {
    expect(() => parseHostOverride('bogus')).toThrow(/bogus/);
  });
});

describe('readHostOverride (the form and IPC wording)', () => {
  it('quotes the trimmed value and says what is wrong', () => {
    expect(readHostOverride(' [::1] ')).toEqual({ ok: false, error: { code: 'INVALID_RESOLVE', message: '"[::1]" is not host=address[:port]' } });
    expect(readHostOverride('a.test=127.0.0.1:0')).toEqual({ ok: false, error: { code: 'INVALID_RESOLVE', message: '"a.test=127.0.0.1:0": port must be 1-65535' } });
    expect(readHostOverride('a.test=256.1.1.1')).toMatchObject({ ok: false });
  });

  it('the CLI error wraps the same message', () => {
    expect(() => parseHostOverride('a.test=127.0.0.1:70000')).toThrow('Invalid --resolve "a.test=127.0.0.1:70000": port must be 1-65535');
  });
});

describe('isIpAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['0.0.0.0', true],
    ['255.255.255.255', true],
    ['::1', true],
    ['2001:db8::5', true],
    ['::ffff:10.0.0.1', true],
    ['256.1.1.1', false],
    ['01.2.3.4', false],
    ['1.2.3', false],
    ['example.com', false],
    ['1::2::3', false],
    ['[::1]', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(isIpAddress(text)).toBe(expected);
  });
});

describe('wildcard host overrides (issue 15 part 6)', () => {
  it('reads *.suffix=address[:port], lowercased', () => {
    expect(readHostOverride('*.Site.Test=127.0.0.1:8080')).toEqual({ ok: true, value: { host: '*.site.test', address: '127.0.0.1', port: 8080 } });
    expect(parseHostOverride('*.test=[::1]')).toEqual({ host: '*.test', address: '::1' });
  });

  it.each(['*=127.0.0.1', '*.=127.0.0.1', '*example.test=127.0.0.1', 'a.*.test=127.0.0.1', '*.*.test=127.0.0.1', '**.test=127.0.0.1', '*..test=127.0.0.1', 'a*=127.0.0.1'])(
    '%s is refused with INVALID_RESOLVE saying where "*" may go',
    (value) => {
      expect(readHostOverride(value)).toEqual({ ok: false, error: { code: 'INVALID_RESOLVE', message: `"${value}": "*" may only be the whole first label, as in *.example.test` } });
      expect(() => parseHostOverride(value)).toThrow(/Invalid --resolve .*"\*" may only be the whole first label/);
    },
  );

  it('overrideHostProblem is the one host check (also behind the settings schema)', () => {
    expect(overrideHostProblem('*.example.test')).toBeNull();
    expect(overrideHostProblem('example.test')).toBeNull();
    expect(overrideHostProblem('a b')).toBe('a host of 1-253 characters without "=" or spaces');
    expect(overrideHostProblem('x.*')).toBe('"*" may only be the whole first label, as in *.example.test');
  });

  const a = { host: '*.example.test', address: '127.0.0.1', port: 1 };
  const b = { host: '*.deep.example.test', address: '127.0.0.2', port: 2 };
  const exact = { host: 'www.deep.example.test', address: '127.0.0.3', port: 3 };
  const match = hostOverrideMatcher([a, b, exact]);

  it('maps every host under the suffix at any depth, not the bare suffix', () => {
    expect(match('www.example.test')).toBe(a);
    expect(match('x.y.example.test')).toBe(a);
    expect(match('example.test')).toBeNull();
    expect(match('notexample.test')).toBeNull();
    expect(match('example.test.evil')).toBeNull();
  });

  it('an exact entry wins over wildcards, and the longest suffix wins among wildcards, whatever the order given', () => {
    expect(match('www.deep.example.test')).toBe(exact);
    expect(match('other.deep.example.test')).toBe(b);
    expect(match('deep.example.test')).toBe(a);
    expect(hostOverrideMatcher([exact, b, a])('other.deep.example.test')).toBe(b);
    // The bare suffix only when given too.
    const bare = { host: 'example.test', address: '127.0.0.9' };
    expect(hostOverrideMatcher([a, bare])('example.test')).toBe(bare);
  });

  it('matches case-insensitively, and IPv6 literals with or without brackets', () => {
    expect(match('WWW.Example.TEST')).toBe(a);
    const v6 = { host: '::1', address: '127.0.0.1' };
    expect(hostOverrideMatcher([v6])('[::1]')).toBe(v6);
    expect(hostOverrideMatcher([v6])('::1')).toBe(v6);
    expect(hostOverrideMatcher([{ host: '[::1]', address: '127.0.0.1' }])('::1')).not.toBeNull();
    expect(hostOverrideMatcher([v6, a])('[::1]')).toBe(v6);
    expect(hostOverrideMatcher([])('a.test')).toBeNull();
  });

  it('answers a host asked again as the first time, past the hosts it remembers too', () => {
    const many = hostOverrideMatcher([a, b]);
    for (let i = 0; i < 10_000; i += 1) expect(many(`h${i}.example.test`)).toBe(a);
    expect(many('h1.deep.example.test')).toBe(b);
    expect(many('h1.deep.example.test')).toBe(b);
    expect(many('H1.DEEP.example.test')).toBe(b);
    expect(many('other.test')).toBeNull();
    expect(many('other.test')).toBeNull();
  });
});
