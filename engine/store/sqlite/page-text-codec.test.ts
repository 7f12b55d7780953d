import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { packPageText, unpackPageText } from './page-text-codec';

describe('page text codec', () => {
  it('packs a page text to well under half, and reads it back exactly, non-ASCII included', () => {
    const text = Array.from({ length: 300 }, (_, i) => `mot ${i % 40} überall ${i % 7} 東京`).join(' ');
    const packed = packPageText(text);
    expect(Buffer.isBuffer(packed)).toBe(true);
    expect((packed as Buffer).length).toBeLessThan(Buffer.byteLength(text) / 2);
    expect(unpackPageText(packed)).toBe(text);
  });

  it('keeps short texts as they are, and reads a text value back as it is', () => {
    expect(packPageText('a short text')).toBe('a short text');
    const older = crypto.randomBytes(600).toString('hex');
    expect(unpackPageText(older)).toBe(older);
  });

  it('refuses a BLOB that is not raw DEFLATE', () => {
    expect(() => unpackPageText(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow();
  });
});
