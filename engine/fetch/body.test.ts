import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readCappedBody } from './body';

function chunked(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}

/** Fails the test quickly instead of letting a hung promise run into the 60 s test timeout. */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`readCappedBody did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const TEXT = Buffer.from('<html><body>' + 'hello crawler '.repeat(2_000) + '</body></html>'); // ~28 kB

describe('readCappedBody', () => {
  describe('plain bodies', () => {
    it('returns a body under the cap whole, not truncated', async () => {
      const result = await readCappedBody(Readable.from(chunked(TEXT, 1_000)), undefined, 100_000);
      expect(result.truncated).toBe(false);
      expect(result.bytes.equals(TEXT)).toBe(true);
      expect(result.wireBytes).toBe(TEXT.length);
    });

    it('a body of exactly the cap is not truncated', async () => {
      const result = await readCappedBody(Readable.from(chunked(TEXT, 777)), undefined, TEXT.length);
      expect(result.truncated).toBe(false);
      expect(result.bytes.length).toBe(TEXT.length);
    });

    it('cuts a body over the cap at exactly maxBytes and flags it truncated', async () => {
      const result = await readCappedBody(Readable.from(chunked(TEXT, 1_000)), undefined, 2_500);
      expect(result.truncated).toBe(true);
      expect(result.bytes.length).toBe(2_500);
      expect(result.bytes.equals(TEXT.subarray(0, 2_500))).toBe(true);
    });

    it('stops reading the stream at the cap', async () => {
      let produced = 0;
      const source = Readable.from(
        (function* () {
          for (let i = 0; i < 10_000; i++) {
            produced += 1;
            yield Buffer.alloc(1_024, 0x61);
          }
        })(),
      );
      const result = await readCappedBody(source, undefined, 10_000);
      expect(result.bytes.length).toBe(10_000);
      expect(result.truncated).toBe(true);
      expect(produced).toBeLessThan(100);
      expect(source.destroyed).toBe(true);
    });

    it('treats identity and no encoding as plain', async () => {
      for (const encoding of ['identity', '', ' IDENTITY ']) {
        const result = await readCappedBody(Readable.from([Buffer.from('abc')]), encoding, 10);
        expect(result.bytes.toString()).toBe('abc');
      }
    });

    it('refuses an unknown encoding with UNSUPPORTED_ENCODING instead of storing it as if decoded (issue 9)', async () => {
      for (const encoding of ['x-unknown', 'gzip, x-unknown', 'compress']) {
        const source = Readable.from([Buffer.from('abc')]);
        const error = await rejection(readCappedBody(source, encoding, 10));
        expect(error.code, encoding).toBe('UNSUPPORTED_ENCODING');
        expect(error.message).toContain('cannot decode');
        expect(source.destroyed).toBe(true);
      }
    });

    it('an empty body is empty, not truncated', async () => {
      const result = await readCappedBody(Readable.from([] as Buffer[]), undefined, 10);
      expect(result).toEqual({ bytes: Buffer.alloc(0), wireBytes: 0, truncated: false });
    });
  });

  describe('encoded bodies', () => {
    it('undoes stacked encodings in reverse order (RFC 9110 §8.4): gzip, gzip and gzip, br', async () => {
      const twice = await readCappedBody(Readable.from(chunked(zlib.gzipSync(zlib.gzipSync(TEXT)), 700)), 'gzip, gzip', 1_000_000);
      expect(twice.bytes.equals(TEXT)).toBe(true);
      const mixed = await readCappedBody(Readable.from(chunked(zlib.brotliCompressSync(zlib.gzipSync(TEXT)), 700)), 'gzip, br', 1_000_000);
      expect(mixed.bytes.equals(TEXT)).toBe(true);
    });

    it('caps the decoded output of stacked encodings too', async () => {
      const bomb = zlib.gzipSync(zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024)));
      const result = await withinMs(readCappedBody(Readable.from(chunked(bomb, 4_096)), 'gzip, gzip', 1_000_000), 10_000);
      expect(result.truncated).toBe(true);
      expect(result.bytes.length).toBe(1_000_000);
    });

    it('fails a corrupt stacked body as BODY_DECODE_FAILED', async () => {
      const error = await withinMs(rejection(readCappedBody(Readable.from([zlib.gzipSync(Buffer.from('not gzip inside'))]), 'gzip, gzip', 1_000)), 5_000);
      expect(error.code).toBe('BODY_DECODE_FAILED');
    });

    it('zstd: decoded where zlib has it, else UNSUPPORTED_ENCODING (Node 20)', async () => {
      const zstd = (zlib as unknown as { zstdCompressSync?: (data: Buffer) => Buffer }).zstdCompressSync;
      if (zstd) {
        const result = await readCappedBody(Readable.from([zstd(TEXT)]), 'zstd', 1_000_000);
        expect(result.bytes.equals(TEXT)).toBe(true);
      } else {
        const error = await rejection(readCappedBody(Readable.from([Buffer.from([0x28, 0xb5, 0x2f, 0xfd])]), 'zstd', 1_000));
        expect(error.code).toBe('UNSUPPORTED_ENCODING');
      }
    });

    it.each([
      ['gzip', zlib.gzipSync(TEXT)],
      ['x-gzip', zlib.gzipSync(TEXT)],
      ['GZIP', zlib.gzipSync(TEXT)],
      ['deflate', zlib.deflateSync(TEXT)],
      ['br', zlib.brotliCompressSync(TEXT)],
    ])('decodes %s', async (encoding, wire) => {
      const result = await readCappedBody(Readable.from(chunked(wire, 64)), encoding, 1_000_000);
      expect(result.truncated).toBe(false);
      expect(result.bytes.equals(TEXT)).toBe(true);
      expect(result.wireBytes).toBe(wire.length);
    });

    it.each([
      ['gzip', zlib.gzipSync(TEXT)],
      ['deflate', zlib.deflateSync(TEXT)],
      ['br', zlib.brotliCompressSync(TEXT)],
    ])('caps decoded %s output at maxBytes', async (encoding, wire) => {
      const result = await withinMs(readCappedBody(Readable.from(chunked(wire, 64)), encoding, 5_000), 1_500);
      expect(result.truncated).toBe(true);
      expect(result.bytes.length).toBe(5_000);
      expect(result.bytes.equals(TEXT.subarray(0, 5_000))).toBe(true);
    });

    it('stops a gzip bomb (200 MB of zeros) at the cap, quickly', async () => {
      const bomb = zlib.gzipSync(Buffer.alloc(200 * 1024 * 1024), { level: 9 }); // ~200 kB on the wire
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const started = performance.now();
      const result = await withinMs(readCappedBody(Readable.from(chunked(bomb, 16 * 1024)), 'gzip', 1024 * 1024), 1_500);
      const elapsed = performance.now() - started;
      expect(result.truncated).toBe(true);
      expect(result.bytes.length).toBe(1024 * 1024);
      expect(result.bytes.every((b) => b === 0)).toBe(true);
      expect(result.wireBytes).toBeLessThan(bomb.length);
      expect(elapsed).toBeLessThan(2_000);
    });

    it('stops at the cap when a single compressed chunk above 16 KiB decodes past the cap', async () => {
      // 20 MB of zeros gzip to ~20 kB: one write larger than the decoder's highWaterMark.
      const wire = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024));
      expect(wire.length).toBeGreaterThan(16 * 1024);
      const result = await withinMs(readCappedBody(Readable.from([wire]), 'gzip', 1024 * 1024), 1_500);
      expect(result).toMatchObject({ truncated: true });
      expect(result.bytes.length).toBe(1024 * 1024);
    });

    it('caps an ordinary large gzip page (not a bomb) without hanging', async () => {
      const page = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `<p id="r${i}">row ${i * 7919}</p>`).join('\n'));
      const wire = zlib.gzipSync(page);
      expect(wire.length).toBeLessThan(page.length / 4);
      const result = await withinMs(readCappedBody(Readable.from(chunked(wire, 32 * 1024)), 'gzip', 256 * 1024), 1_500);
      expect(result.truncated).toBe(true);
      expect(result.bytes.equals(page.subarray(0, 256 * 1024))).toBe(true);
    });

    it('treats an encoded body larger than the cap on the wire as truncated, not corrupt', async () => {
      // Incompressible bytes: the wire size exceeds the cap before the decoded size does.
      const random = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919 + ((i * i) >> 3)) & 0xff));
      const wire = zlib.gzipSync(random, { level: 0 });
      const result = await withinMs(readCappedBody(Readable.from(chunked(wire, 4_096)), 'gzip', 20_000), 1_500);
      expect(result.truncated).toBe(true);
      expect(result.bytes.length).toBeLessThanOrEqual(20_000);
      expect(result.bytes.equals(random.subarray(0, result.bytes.length))).toBe(true);
    });

    it('rejects corrupt gzip with code BODY_DECODE_FAILED', async () => {
      const error = await rejection(readCappedBody(Readable.from([Buffer.from('this is definitely not gzip data')]), 'gzip', 1_000_000));
      expect(error.code).toBe('BODY_DECODE_FAILED');
      expect(error.message).toMatch(/gzip/);
    });

    it('rejects a gzip body whose middle was damaged with BODY_DECODE_FAILED', async () => {
      const wire = Buffer.from(zlib.gzipSync(TEXT));
      for (let i = 20; i < 60; i++) wire[i] = 0xff;
      const error = await rejection(readCappedBody(Readable.from(chunked(wire, 64)), 'gzip', 1_000_000));
      expect(error.code).toBe('BODY_DECODE_FAILED');
    });

    it('rejects corrupt br and deflate with BODY_DECODE_FAILED', async () => {
      for (const encoding of ['br', 'deflate']) {
        const error = await rejection(readCappedBody(Readable.from([Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0x00, 0x01, 0x02])]), encoding, 1_000));
        expect(error.code, encoding).toBe('BODY_DECODE_FAILED');
      }
    });
  });
});
