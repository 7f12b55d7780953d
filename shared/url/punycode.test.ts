import { describe, expect, it } from 'vitest';
import { domainToAscii, domainToUnicode, punycodeDecode, punycodeEncode } from './punycode';

describe('punycode (RFC 3492)', () => {
  const pairs: [string, string][] = [
    ['食狮', '85x722f'],
    ['公司', '55qx5d'],
    ['中国', 'fiqs8s'],
    ['bücher', 'bcher-kva'],
    ['☃', 'n3h'],
    ['faß', 'fa-hia'],
    // RFC 3492 §7.1 sample (L): 3<nen>B<gumi><kinpachi><sensei>
    ['3年B組金八先生', '3B-ww4c5e180e575a65lsy2b'],
  ];
  for (const [unicode, encoded] of pairs) {
    it(`${unicode} ↔ ${encoded}`, () => {
      expect(punycodeEncode(unicode)).toBe(encoded);
      expect(punycodeDecode(encoded)).toBe(unicode);
    });
  }
  it('rejects invalid input when decoding', () => {
    expect(() => punycodeDecode('99999999999')).toThrow(RangeError);
  });
  it('agrees with the WHATWG parser on IDN hosts', () => {
    for (const host of ['食狮.公司.cn', 'bücher.example', 'мойдомен.рф']) {
      expect(domainToAscii(host)).toBe(new URL(`http://${host}/`).hostname);
    }
  });
  it('domainToUnicode decodes xn-- labels for display and keeps undecodable ones', () => {
    expect(domainToUnicode('www.xn--85x722f.xn--55qx5d.cn')).toBe('www.食狮.公司.cn');
    expect(domainToUnicode('xn--99999999999.example')).toBe('xn--99999999999.example');
    expect(domainToUnicode('example.com')).toBe('example.com');
  });
});
