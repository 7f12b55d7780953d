import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { NORMALIZED_KEY_NAMESPACE, normalizedKey } from './key';
import { parseUuid, uuidV5 } from './sha1';

describe('normalized key (UUIDv5)', () => {
  it('uses the fixed Crawlbench namespace', () => {
    expect(NORMALIZED_KEY_NAMESPACE).toBe('2016d1e3-9968-4735-8dc0-90274ae5f527');
  });

  it('matches the uuid package byte for byte, across SHA-1 block boundaries and non-ASCII text', () => {
    const names = ['', 'a', 'http://example.com/document', '食狮.公司.cn', '𝄞 clef'];
    for (let length = 30; length <= 140; length++) names.push('http://x.test/' + 'p'.repeat(length - 14));
    for (const name of names) expect(normalizedKey(name), name).toBe(v5(name, NORMALIZED_KEY_NAMESPACE));
  });

  it('hashes a lone surrogate as U+FFFD (as UTF-8 encoders do; the uuid package throws instead)', () => {
    expect(normalizedKey('a\ud800b')).toBe(v5('a\ufffdb', NORMALIZED_KEY_NAMESPACE));
  });

  it('is a version 5, RFC variant UUID', () => {
    expect(normalizedKey('http://example.com/document')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('uuidV5 works for any namespace (RFC 9562 Appendix A: DNS namespace, "www.example.com")', () => {
    expect(uuidV5('www.example.com', parseUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8'))).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('parseUuid rejects malformed input', () => {
    expect(() => parseUuid('not-a-uuid')).toThrow(TypeError);
  });
});
