import { describe, expect, it } from 'vitest';
import { base32, bodyBytes, payloadDigest, storedBody } from './stored-body';
import { BodyBudget } from './body-budget';

describe('base32 (RFC 4648 §10 test vectors)', () => {
  it.each([
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ])('%j → %s', (input, expected) => {
    expect(base32(Buffer.from(input))).toBe(expected);
  });
});

describe('payloadDigest', () => {
  it('is sha1: and the base32 SHA-1, as WARC tools write it', () => {
    // SHA-1("") = da39a3ee5e6b4b0d3255bfef95601890afd80709, the digest wget and Heritrix write for an empty payload.
    expect(payloadDigest(new Uint8Array(0))).toBe('sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ');
    expect(payloadDigest(Buffer.from('abc'))).toBe(`sha1:${base32(Buffer.from('a9993e364706816aba3e25717850c26c9cd0d89d', 'hex'))}`);
  });
});

describe('storedBody', () => {
  const body = Buffer.from('<html>' + 'crawl '.repeat(2000) + '</html>');

  it('compresses with brotli and reads back byte for byte', () => {
    const stored = storedBody(body, false, 1 << 20);
    expect(stored).toMatchObject({ encoding: 'br', rawBytes: body.length, truncated: false, payloadDigest: payloadDigest(body) });
    expect(stored.bytes.length).toBeLessThan(body.length / 10);
    expect(bodyBytes(stored.encoding, stored.bytes).equals(body)).toBe(true);
  });

  it('cuts at the cap, marks it truncated and digests what it kept', () => {
    const stored = storedBody(body, false, 100);
    expect(stored).toMatchObject({ rawBytes: 100, truncated: true, payloadDigest: payloadDigest(body.subarray(0, 100)) });
    expect(bodyBytes('br', stored.bytes).equals(body.subarray(0, 100))).toBe(true);
  });

  it('keeps the fetch’s own truncation mark', () => {
    expect(storedBody(body, true, 1 << 20).truncated).toBe(true);
  });

  it('refuses an encoding it does not read, with a code', () => {
    expect(() => bodyBytes('zstd', new Uint8Array(1))).toThrow(expect.objectContaining({ code: 'BODY_ENCODING_UNKNOWN' }));
  });
});

describe('BodyBudget', () => {
  it('admits bodies until the cap, counting what was stored before and what it refused', () => {
    const budget = new BodyBudget(100, 40);
    expect(budget.admit(60)).toBe(true);
    expect(budget.admit(1)).toBe(false);
    expect(budget.admit(0)).toBe(true);
    expect(budget).toMatchObject({ storedBytes: 100, refused: 1 });
  });
});
