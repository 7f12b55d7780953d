import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** A response body read under a byte cap. */
export interface CappedBody {
  /** Decoded bytes (after Content-Encoding), at most `maxBytes`. */
  bytes: Buffer;
  /** Bytes received on the wire (compressed size when encoded). */
  wireBytes: number;
  /** True when reading stopped at the cap (wire or decoded): the body is incomplete. */
  truncated: boolean;
}

function decoderFor(contentEncoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((contentEncoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * Reads a response body, stopping at `maxBytes` on the wire and, for gzip/deflate/br, at
 * `maxBytes` of decoded output, so a 50 MB body or a decompression bomb costs at most the cap.
 * @throws Error with code BODY_DECODE_FAILED when a complete encoded body is corrupt
 */
export async function readCappedBody(body: Readable, contentEncoding: string | undefined, maxBytes: number): Promise<CappedBody> {
  const decoder = decoderFor(contentEncoding);
  const chunks: Buffer[] = [];
  let decodedBytes = 0;
  let wireBytes = 0;
  let truncated = false;

  const keep = (chunk: Buffer): boolean => {
    const room = maxBytes - decodedBytes;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      decodedBytes = maxBytes;
      truncated = true;
      return false;
    }
    chunks.push(chunk);
    decodedBytes += chunk.length;
    return true;
  };

  if (!decoder) {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      wireBytes += chunk.length;
      if (!keep(chunk)) break;
    }
    if (truncated) body.destroy();
    return { bytes: Buffer.concat(chunks), wireBytes, truncated };
  }

  let wireCut = false;
  const pump = (async () => {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      wireBytes += chunk.length;
      if (wireBytes > maxBytes) {
        wireCut = true;
        break;
      }
      if (truncated || decoder.destroyed) break;
      // The reader destroys the decoder at the cap; a destroyed stream never emits 'drain', so wait for either.
      if (!decoder.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            decoder.off('drain', done);
            decoder.off('close', done);
            resolve();
          };
          decoder.once('drain', done);
          decoder.once('close', done);
        });
      }
    }
    if (!decoder.destroyed) decoder.end();
  })();
  try {
    for await (const chunk of decoder as AsyncIterable<Buffer>) {
      if (!keep(chunk)) break;
    }
  } catch (error) {
    // A body cut at the wire cap ends mid-stream; that is truncation, not corruption.
    if (!wireCut) {
      body.destroy();
      throw Object.assign(new Error(`Cannot decode ${contentEncoding} body: ${(error as Error).message}`), { code: 'BODY_DECODE_FAILED' });
    }
  }
  if (truncated || wireCut) {
    truncated = true;
    decoder.destroy();
    body.destroy();
  }
  await pump.catch(() => undefined);
  return { bytes: Buffer.concat(chunks), wireBytes, truncated };
}
