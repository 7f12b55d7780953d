import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/types/result';
import { packTextBlocks, TEXT_BLOCK_MAX_BYTES, unpackPageText, unpackTextBlockEntry } from './page-text-codec';

describe('page text blocks', () => {
  it('packs a batch of texts into one block, well under half their size, and reads each back exactly, non-ASCII included', () => {
    const texts = Array.from({ length: 30 }, (_, page) => Array.from({ length: 60 }, (_, i) => `mot ${(i * page) % 40} überall ${i % 7} 東京 😀`).join(' '));
    texts.push('x');
    const { blocks, places } = packTextBlocks(texts);
    expect(blocks).toHaveLength(1);
    expect(places).toEqual(texts.map((_, slot) => ({ block: 0, slot })));
    expect(blocks[0]!.length).toBeLessThan(texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 2);
    texts.forEach((text, slot) => expect(unpackTextBlockEntry(blocks[0]!, slot)).toBe(text));
  });

  it('starts a new block before the texts pass TEXT_BLOCK_MAX_BYTES, and gives a longer text a block of its own', () => {
    const quarter = 'a'.repeat(TEXT_BLOCK_MAX_BYTES / 4);
    const long = crypto.randomBytes(TEXT_BLOCK_MAX_BYTES).toString('hex');
    const { blocks, places } = packTextBlocks([quarter, quarter, quarter, quarter, `${quarter}b`, long, 'tail']);
    expect(places).toEqual([
      { block: 0, slot: 0 },
      { block: 0, slot: 1 },
      { block: 0, slot: 2 },
      { block: 0, slot: 3 },
      { block: 1, slot: 0 },
      { block: 2, slot: 0 },
      { block: 3, slot: 0 },
    ]);
    expect(unpackTextBlockEntry(blocks[1]!, 0)).toBe(`${quarter}b`);
    expect(unpackTextBlockEntry(blocks[2]!, 0)).toBe(long);
    expect(unpackTextBlockEntry(blocks[3]!, 0)).toBe('tail');
  });

  it('packs nothing for no texts', () => {
    expect(packTextBlocks([])).toEqual({ blocks: [], places: [] });
  });

  it('refuses, as DB_CORRUPT, a block that does not inflate, a slot it does not hold, and a header its bytes do not match', () => {
    const { blocks } = packTextBlocks(['one', 'two']);
    const codeOf = (read: () => unknown) => {
      try {
        read();
      } catch (error) {
        return error instanceof CodedError ? error.code : 'not coded';
      }
      return 'no error';
    };
    expect(codeOf(() => unpackTextBlockEntry(Buffer.from([0xff, 0xff, 0xff, 0xff]), 0))).toBe('DB_CORRUPT');
    expect(codeOf(() => unpackTextBlockEntry(blocks[0]!, 2))).toBe('DB_CORRUPT');
    expect(codeOf(() => unpackTextBlockEntry(blocks[0]!, -1))).toBe('DB_CORRUPT');
    // A header claiming a text longer than the block.
    const lying = Buffer.alloc(12);
    lying.writeUInt32LE(2, 0);
    lying.writeUInt32LE(1_000, 4);
    lying.writeUInt32LE(1, 8);
    expect(codeOf(() => unpackTextBlockEntry(zlib.deflateRawSync(Buffer.concat([lying, Buffer.from('ab')])), 0))).toBe('DB_CORRUPT');
    expect(codeOf(() => unpackTextBlockEntry(zlib.deflateRawSync(Buffer.alloc(2)), 0))).toBe('DB_CORRUPT');
  });
});

describe('page_texts rows of older runs', () => {
  it('reads a DEFLATE-packed row back as UTF-8, and a text row as it is', () => {
    const text = Array.from({ length: 300 }, (_, i) => `mot ${i % 40} überall ${i % 7} 東京`).join(' ');
    expect(unpackPageText(zlib.deflateRawSync(Buffer.from(text, 'utf8')))).toBe(text);
    const older = crypto.randomBytes(600).toString('hex');
    expect(unpackPageText(older)).toBe(older);
  });

  it('refuses a BLOB that is not raw DEFLATE', () => {
    expect(() => unpackPageText(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow();
  });
});
