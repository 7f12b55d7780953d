/**
 * Stored bodies (issue 14 part 1): a fetched body as the crawl store keeps it, brotli-compressed
 * (RFC 7932, Node's zlib) at a quality chosen for the crawl's hot path, with its size before
 * compression and the SHA-1 payload digest a WARC response record names (WARC/1.1 §5.9,
 * `WARC-Payload-Digest`, base32 as Heritrix, wget and pywb write it). Compressed in the worker
 * that fetched it, so neither the scheduler nor the store-writer thread pays for it.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** How a stored body is compressed (the `page_bodies.encoding` column). */
export type BodyEncoding = 'br';

/** A body as the store keeps it. */
export interface StoredBody {
  encoding: BodyEncoding;
  /** The compressed bytes. */
  bytes: Uint8Array;
  /** Bytes of the body before compression (after Content-Encoding decoding; at most the per-body cap). */
  rawBytes: number;
  /** The body was cut: by the fetch's maxBodyBytes, or by the per-body cap of the store. */
  truncated: boolean;
  /** `sha1:` and the RFC 4648 base32 SHA-1 of the kept (uncompressed) bytes: a WARC payload digest. */
  payloadDigest: string;
}

/**
 * Brotli quality 4: on Debian's Python HTML manuals (30 KB-750 KB pages) it compressed 4.8-10.7×
 * at 7-15 ms a megabyte on this project's 2-core machine, smaller and faster than gzip level 6
 * (4.8-9.3×, 11-17 ms/MB); quality 5 gained ~10% in size for ~50% more time.
 */
export const BODY_BROTLI_QUALITY = 4;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * RFC 4648 §6 base32 (upper case, `=` padded), the alphabet WARC digests use.
 * @example base32(Buffer.from('foobar')) // 'MZXW6YTBOI======'
 */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

/**
 * The WARC payload digest of a body: `sha1:` + base32(SHA-1(bytes)) (WARC/1.1 §5.9, the
 * labelled-digest form; 32 base32 characters, no padding for 20 bytes).
 */
export function payloadDigest(bytes: Uint8Array): string {
  return `sha1:${base32(createHash('sha1').update(bytes).digest())}`;
}

/**
 * A fetched body as the store keeps it: cut at `maxBytes`, brotli-compressed, digested.
 * @param body the body after Content-Encoding decoding (FetchedResponse.body)
 * @param truncated the fetch already cut it (at maxBodyBytes)
 * @param maxBytes the crawl's maxStoredBodyBytes
 */
export function storedBody(body: Uint8Array, truncated: boolean, maxBytes: number): StoredBody {
  const kept = body.length > maxBytes ? body.subarray(0, maxBytes) : body;
  const compressed = brotliCompressSync(kept, {
    params: { [constants.BROTLI_PARAM_QUALITY]: BODY_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: kept.length },
  });
  // A copy of its own, so the message that carries it neither clones nor pins a larger buffer.
  const bytes = new Uint8Array(compressed.length);
  bytes.set(compressed);
  return { encoding: 'br', bytes, rawBytes: kept.length, truncated: truncated || kept.length < body.length, payloadDigest: payloadDigest(kept) };
}

/**
 * The body bytes of a stored body.
 * @throws Error BODY_ENCODING_UNKNOWN for an encoding this version does not read; zlib's error for corrupt bytes
 */
export function bodyBytes(encoding: string, bytes: Uint8Array): Buffer {
  if (encoding !== 'br') throw Object.assign(new Error(`Stored body encoding "${encoding}" is not one this Crawlbench reads`), { code: 'BODY_ENCODING_UNKNOWN' });
  return brotliDecompressSync(bytes);
}
