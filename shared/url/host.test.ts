import { describe, expect, it } from 'vitest';
import { extractHost, fastHost } from './host';

describe('extractHost', () => {
  const cases: [string, string, string][] = [
    ['https://user:pw@WWW.Example.com.:8443/x?y#z', 'www.example.com', 'domain'],
    ['example.com:8080', 'example.com', 'domain'],
    ['example.com/path?x', 'example.com', 'domain'],
    ['http://[::1]:80/', '[::1]', 'ipv6'],
    ['::1', '[::1]', 'ipv6'],
    ['192.168.0.1', '192.168.0.1', 'ipv4'],
    ['http://0x7f.1/', '127.0.0.1', 'ipv4'],
    ['食狮.公司.cn', '食狮.公司.cn', 'domain'],
    ['http://ex%41mple.com/', 'example.com', 'domain'],
  ];
  for (const [input, host, kind] of cases) {
    it(`${input} → ${host} (${kind})`, () => {
      expect(extractHost(input)).toEqual({ host, kind });
    });
  }
  it('reports unusable input', () => {
    expect(extractHost('http://exa mple.com/')).toMatchObject({ kind: 'invalid' });
    expect(extractHost('')).toMatchObject({ kind: 'invalid', problem: 'no host found' });
    expect(extractHost('example.123')).toMatchObject({ kind: 'invalid' });
    expect(extractHost('mailto:someone@example.com')).toMatchObject({ kind: 'invalid', problem: '"mailto:someone@example.com" is a URL without a host' });
  });
});

describe('fastHost (the resolver\'s cache key)', () => {
  const cases: [string, string | null][] = [
    ['https://Docs.Python.org:443/3/', 'docs.python.org'],
    ['http://a.test?x', 'a.test'],
    ['a.test:8080', 'a.test'],
    ['localhost', 'localhost'],
    ['http://user@a.test/', null],
    ['http://[::1]/', null],
    ['http://a.test./', null],
    ['http://a.test:80x/', null],
    ['mailto:x@y.test', null],
    ['http://ä.test/', null],
    ['', null],
  ];
  for (const [input, host] of cases) {
    it(`${input || '(empty)'} → ${String(host)}`, () => {
      expect(fastHost(input)).toBe(host);
      if (host !== null) expect(extractHost(input).host).toBe(host);
    });
  }
});
