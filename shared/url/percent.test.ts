import { describe, expect, it } from 'vitest';
import { decodeUnreservedEscapes, EncodeSet, percentEncode, uppercasePercentEscapes } from './percent';

describe('percentEncode uses the WHATWG percent-encode sets', () => {
  const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).filter((char) => !'#?/\\%'.includes(char));
  it('path set', () => {
    for (const char of printable) expect(percentEncode(`a${char}b`, EncodeSet.path), char).toBe(new URL(`http://h/a${char}b`).pathname.slice(1));
  });
  it('special-query set', () => {
    for (const char of printable) expect(percentEncode(`a${char}b`, EncodeSet.specialQuery), char).toBe(new URL(`http://h/?a${char}b`).search.slice(1));
  });
  it('fragment set', () => {
    for (const char of printable) expect(percentEncode(`a${char}b`, EncodeSet.fragment), char).toBe(new URL(`http://h/#a${char}b`).hash.slice(1));
  });
  it('encodes non-ASCII as UTF-8 and a lone surrogate as U+FFFD', () => {
    expect(percentEncode('/ä𝄞', EncodeSet.path)).toBe('/%C3%A4%F0%9D%84%9E');
    expect(percentEncode('\ud800', EncodeSet.path)).toBe('%EF%BF%BD');
  });
  it('returns the same string when nothing needs encoding', () => {
    const text = '/plain/path';
    expect(percentEncode(text, EncodeSet.path)).toBe(text);
  });
});

describe('RFC 3986 §6.2.2 percent-encoding normalization', () => {
  it('uppercases hex digits, leaves malformed escapes', () => {
    expect(uppercasePercentEscapes('/a%c2%b1b%zz%4')).toBe('/a%C2%B1b%zz%4');
  });
  it('decodes unreserved characters only', () => {
    expect(decodeUnreservedEscapes('%41%5a%61%7a%30%39%2D%2E%5F%7E%2F%3F%25')).toBe('AZaz09-._~%2F%3F%25');
  });
});
