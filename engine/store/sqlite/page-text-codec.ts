/**
 * How a SQLite crawl store keeps a page's text excerpt (page_texts.text, seed 005's near-duplicate
 * diffs): raw DEFLATE (RFC 1951, zlib level 6) as a BLOB, which takes 2,000 characters of page text
 * to about 750 bytes (the 20,200-page synthetic crawl: 2,038 → 780 bytes a page of database), or
 * the text itself when deflating would not save a tenth. Readers take either (older databases hold
 * text only).
 */
import zlib from 'node:zlib';

/** Texts shorter than this (UTF-8 bytes) are kept as they are: DEFLATE would save nothing worth a BLOB. */
const PACK_MIN_BYTES = 128;

/**
 * The value to store for `text`: its raw DEFLATE bytes, or `text` itself when short or when
 * deflating saves less than a tenth.
 * @example packPageText('short') → 'short'
 */
export function packPageText(text: string): string | Buffer {
  if (text.length < PACK_MIN_BYTES) return text;
  const raw = Buffer.from(text, 'utf8');
  const packed = zlib.deflateRawSync(raw);
  return packed.length * 10 <= raw.length * 9 ? packed : text;
}

/**
 * The text of a stored page_texts value: a string as it is, a BLOB inflated (RFC 1951) as UTF-8.
 * @throws Error (zlib's Z_DATA_ERROR) when a BLOB is not raw DEFLATE: the database was changed by another program
 */
export function unpackPageText(stored: string | Uint8Array): string {
  return typeof stored === 'string' ? stored : zlib.inflateRawSync(stored).toString('utf8');
}
