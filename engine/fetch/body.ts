/** Response bodies: read with a byte cap (also after decoding), undoing Content-Encodings (gzip, deflate, br, stacked). */
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { CodedError } from '../../shared/types/result';

/** A response body read under a byte cap. */
export interface CappedBody {
  /** Decoded bytes (after Content-Encoding), at most `maxBytes`. */
  bytes: Buffer;
  /** Bytes received on the wire (compressed size when encoded). */
  wireBytes: number;
  /** True when reading stopped at the cap (wire or decoded): the body is incomplete. */
  truncated: boolean;
}

/** zlib's zstd decoder where this Node has one (22.15+); Node 20 has none. */
const createZstdDecompress = (zlib as unknown as { createZstdDecompress?: () => Transform }).createZstdDecompress;

/**
 * The content codings of a Content-Encoding value, in the order they were applied (RFC 9110
 * §8.4: "listed in the order in which they were applied"), lowercase, `identity` dropped.
 * @example contentCodings('gzip, br') // ['gzip', 'br']
 */
export function contentCodings(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** True when {@link readCappedBody} can decode `coding` on this Node. */
export function canDecode(coding: string): boolean {
  return ['gzip', 'x-gzip', 'deflate', 'br'].includes(coding) || (coding === 'zstd' && createZstdDecompress !== undefined);
}

function decoderFor(coding: string): Transform {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      if (createZstdDecompress) return createZstdDecompress();
  }
  throw new Error(`No decoder for ${coding}`);
}

/**
 * The decoders for a Content-Encoding, undoing the last coding applied first, chained; null for
 * none (identity).
 * @throws CodedError UNSUPPORTED_ENCODING naming the codings this Node cannot decode
 */
function decodersFor(contentEncoding: string | undefined): { input: Transform; output: Transform; all: Transform[] } | null {
  const codings = contentCodings(contentEncoding);
  if (codings.length === 0) return null;
  const unsupported = codings.filter((coding) => !canDecode(coding));
  if (unsupported.length > 0) {
    throw new CodedError(
      'UNSUPPORTED_ENCODING',
      `Content-Encoding "${contentEncoding}": cannot decode ${unsupported.join(', ')} (gzip, deflate and br are decoded${createZstdDecompress ? ', and zstd' : ''}); the body was not stored. Ask the server for another encoding or fetch the page with a tool that decodes it`,
    );
  }
  const all = codings.reverse().map(decoderFor);
  if (all.length > 1) pipeline(all, () => undefined);
  return { input: all[0]!, output: all.at(-1)!, all };
}

/**
 * Reads a response body, stopping at `maxBytes` on the wire and, for encoded bodies, at
 * `maxBytes` of decoded output, so a 50 MB body or a decompression bomb costs at most the cap.
 * Stacked codings (`gzip, br`) are undone in reverse order (RFC 9110 §8.4).
 * @throws Error with code BODY_DECODE_FAILED when a complete encoded body is corrupt
 * @throws CodedError UNSUPPORTED_ENCODING when a coding is unknown (or zstd on a Node without it)
 */
export async function readCappedBody(body: Readable, contentEncoding: string | undefined, maxBytes: number): Promise<CappedBody> {
  let decoders: ReturnType<typeof decodersFor>;
  try {
    decoders = decodersFor(contentEncoding);
  } catch (error) {
    body.destroy();
    throw error;
  }
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

  if (!decoders) {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      wireBytes += chunk.length;
      if (!keep(chunk)) break;
    }
    if (truncated) body.destroy();
    return { bytes: Buffer.concat(chunks), wireBytes, truncated };
  }

  const decoder = decoders.input;
  const output = decoders.output;
  const destroyAll = () => {
    for (const stream of decoders.all) stream.destroy();
  };
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
    for await (const chunk of output as AsyncIterable<Buffer>) {
      if (!keep(chunk)) break;
    }
  } catch (error) {
    // A body cut at the wire cap ends mid-stream; that is truncation, not corruption.
    if (!wireCut) {
      destroyAll();
      body.destroy();
      throw Object.assign(new Error(`Cannot decode ${contentEncoding} body: ${(error as Error).message}`), { code: 'BODY_DECODE_FAILED' });
    }
  }
  if (truncated || wireCut) {
    truncated = true;
    destroyAll();
    body.destroy();
  }
  await pump.catch(() => undefined);
  return { bytes: Buffer.concat(chunks), wireBytes, truncated };
}
