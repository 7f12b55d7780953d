/**
 * How a SQLite crawl store keeps pages' text excerpts (seed 005's near-duplicate diffs).
 *
 * Since migration 0026 the texts of one commit batch go into one row of `page_text_blocks`: a
 * block, raw DEFLATE (RFC 1951) of a header and the texts' UTF-8 bytes back to back; a page row
 * names its text by block id and slot (`pages.text_block_id`, `pages.text_slot`). One DEFLATE call
 * a batch instead of one a page, and one row appended instead of one B-tree leaf rewritten a page:
 * on the 20,200-page synthetic crawl's texts (2,000 characters a page, 31 a batch, 3,100 texts)
 * zlib level 6 a text took 55–59 µs and 752 bytes a page; level 1 a block 11–13 µs and 522 bytes.
 *
 * Before it (migrations 0005–0025) each text was its own `page_texts` row: raw DEFLATE (level 6)
 * as a BLOB, or the text itself when short or when deflating saved less than a tenth. Readers take
 * every form; writers write blocks only.
 */
import zlib from 'node:zlib';
import { CodedError } from '../../../shared/types/result';

/**
 * Raw text bytes (UTF-8) a block holds at most before the next text starts another one, so reading
 * one page's text inflates at most about this much (128 KiB: about 0.2 ms). A longer text has a
 * block of its own.
 */
export const TEXT_BLOCK_MAX_BYTES = 128 * 1024;

/**
 * zlib level of a block: 1, the fastest. Level 3 made the synthetic crawl's blocks 12% smaller
 * (461 against 522 bytes a page) for 60% more time (19 against 12 µs a page); level 6, 19% smaller
 * for four times the time.
 */
const TEXT_BLOCK_LEVEL = 1;

/** Bytes of a block header's fields: the text count, then each text's byte length (uint32 little-endian). */
const HEADER_FIELD_BYTES = 4;

/** Where a page's text is: its block's row id (`page_text_blocks.id`) and its 0-based slot in the block. */
export interface TextBlockPlace {
  blockId: number;
  slot: number;
}

/** Blocks of a batch's texts ({@link packTextBlocks}). */
export interface PackedTextBlocks {
  /** Each block's bytes, to store in this order. */
  blocks: Buffer[];
  /** For each text given, in order: the index of its block in `blocks` and its slot in that block. */
  places: { block: number; slot: number }[];
}

/**
 * Texts packed into blocks in the order given: consecutive texts share a block while their UTF-8
 * bytes stay within TEXT_BLOCK_MAX_BYTES (a longer text has a block of its own). A block is raw
 * DEFLATE of [count, the byte length of each text, the texts' UTF-8 bytes], the header's fields
 * uint32 little-endian.
 */
export function packTextBlocks(texts: readonly string[]): PackedTextBlocks {
  const blocks: Buffer[] = [];
  const places: { block: number; slot: number }[] = [];
  let group: Buffer[] = [];
  let groupBytes = 0;
  const close = (): void => {
    const header = Buffer.allocUnsafe(HEADER_FIELD_BYTES * (1 + group.length));
    header.writeUInt32LE(group.length, 0);
    group.forEach((bytes, index) => header.writeUInt32LE(bytes.length, HEADER_FIELD_BYTES * (1 + index)));
    blocks.push(zlib.deflateRawSync(Buffer.concat([header, ...group]), { level: TEXT_BLOCK_LEVEL }));
    group = [];
    groupBytes = 0;
  };
  for (const text of texts) {
    const bytes = Buffer.from(text, 'utf8');
    if (group.length > 0 && groupBytes + bytes.length > TEXT_BLOCK_MAX_BYTES) close();
    places.push({ block: blocks.length, slot: group.length });
    group.push(bytes);
    groupBytes += bytes.length;
  }
  if (group.length > 0) close();
  return { blocks, places };
}

/**
 * Text number `slot` of a block {@link packTextBlocks} made.
 * @throws CodedError DB_CORRUPT when the block does not inflate, its header does not fit its
 *   bytes, or it holds no text `slot` (the database was changed by another program)
 */
export function unpackTextBlockEntry(block: Uint8Array, slot: number): string {
  let raw: Buffer;
  try {
    raw = zlib.inflateRawSync(block);
  } catch (error) {
    throw corruptBlock(`it does not inflate (${(error as Error).message})`);
  }
  if (raw.length < HEADER_FIELD_BYTES) throw corruptBlock('it has no header');
  const count = raw.readUInt32LE(0);
  if (!Number.isInteger(slot) || slot < 0 || slot >= count) throw corruptBlock(`it holds ${count} texts, not text ${slot}`);
  const headerBytes = HEADER_FIELD_BYTES * (1 + count);
  if (raw.length < headerBytes) throw corruptBlock(`its header names ${count} texts but it is ${raw.length} bytes`);
  let offset = headerBytes;
  for (let i = 0; i < slot; i += 1) offset += raw.readUInt32LE(HEADER_FIELD_BYTES * (1 + i));
  const length = raw.readUInt32LE(HEADER_FIELD_BYTES * (1 + slot));
  if (offset + length > raw.length) throw corruptBlock(`text ${slot} ends past its end`);
  return raw.toString('utf8', offset, offset + length);
}

/** The error for a stored text block that cannot be read: DB_CORRUPT, and why. */
function corruptBlock(reason: string): CodedError {
  return new CodedError('DB_CORRUPT', `A page text block cannot be read: ${reason} (the database was changed by another program)`);
}

/**
 * The text of a `page_texts` row (migrations 0005–0025): a string as it is, a BLOB inflated (RFC
 * 1951) as UTF-8.
 * @throws Error (zlib's Z_DATA_ERROR) when a BLOB is not raw DEFLATE: the database was changed by another program
 */
export function unpackPageText(stored: string | Uint8Array): string {
  return typeof stored === 'string' ? stored : zlib.inflateRawSync(stored).toString('utf8');
}
