/**
 * Name-based UUIDs (RFC 9562 §5.5, version 5: SHA-1) in pure TypeScript. Written here rather than
 * calling the `uuid` package on the hot path because `uuid`'s Node build hashes through
 * `crypto.createHash`, whose per-call cost is several times this function's for URL-sized names
 * (measured in bench/url.ts); tests check the output against `uuid`'s `v5` byte for byte.
 */

const W = new Int32Array(80);
let bytes = new Uint8Array(512);

/** Writes `text` as UTF-8 into `bytes` from `offset` (lone surrogates as U+FFFD); returns the end. */
function writeUtf8(text: string, offset: number): number {
  const needed = offset + text.length * 3 + 72;
  if (bytes.length < needed) {
    const grown = new Uint8Array(needed * 2);
    grown.set(bytes.subarray(0, offset));
    bytes = grown;
  }
  let p = offset;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[p++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[p++] = 0xc0 | (code >> 6);
      bytes[p++] = 0x80 | (code & 63);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const point = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        bytes[p++] = 0xf0 | (point >> 18);
        bytes[p++] = 0x80 | ((point >> 12) & 63);
        bytes[p++] = 0x80 | ((point >> 6) & 63);
        bytes[p++] = 0x80 | (point & 63);
        continue;
      }
      code = 0xfffd;
    }
    bytes[p++] = 0xe0 | (code >> 12);
    bytes[p++] = 0x80 | ((code >> 6) & 63);
    bytes[p++] = 0x80 | (code & 63);
  }
  return p;
}

/**
 * Parses a UUID string into its 16 bytes.
 * @throws TypeError when `uuid` is not 8-4-4-4-12 hex digits
 * @example parseUuid('6ba7b811-9dad-11d1-80b4-00c04fd430c8')[0] → 0x6b
 */
export function parseUuid(uuid: string): Uint8Array {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) throw new TypeError(`Not a UUID: "${uuid}"`);
  const hex = uuid.replaceAll('-', '');
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * The version 5 UUID of `name` (UTF-8) under `namespace` (16 bytes): SHA-1 of namespace ‖ name,
 * with the version and variant bits set (RFC 9562 §5.5).
 * @example uuidV5('www.example.com', parseUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8')) → '2ed6657d-e927-568b-95e1-2665a8aea6a2' (RFC 9562 Appendix A.4)
 */
export function uuidV5(name: string, namespace: Uint8Array): string {
  bytes.set(namespace.subarray(0, 16), 0);
  const length = writeUtf8(name, 16);
  let p = length;
  bytes[p++] = 0x80;
  while ((p & 63) !== 56) bytes[p++] = 0;
  const bitsHigh = Math.floor(length / 0x20000000);
  const bitsLow = (length << 3) >>> 0;
  bytes[p++] = 0;
  bytes[p++] = 0;
  bytes[p++] = 0;
  bytes[p++] = bitsHigh & 0xff;
  bytes[p++] = bitsLow >>> 24;
  bytes[p++] = (bitsLow >>> 16) & 0xff;
  bytes[p++] = (bitsLow >>> 8) & 0xff;
  bytes[p++] = bitsLow & 0xff;

  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  for (let block = 0; block < p; block += 64) {
    for (let t = 0; t < 16; t++) {
      const q = block + t * 4;
      W[t] = (bytes[q]! << 24) | (bytes[q + 1]! << 16) | (bytes[q + 2]! << 8) | bytes[q + 3]!;
    }
    for (let t = 16; t < 80; t++) {
      const x = W[t - 3]! ^ W[t - 8]! ^ W[t - 14]! ^ W[t - 16]!;
      W[t] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let t = 0;
    for (; t < 20; t++) {
      const x = (((((a << 5) | (a >>> 27)) + ((b & c) | (~b & d))) | 0) + e + W[t]! + 0x5a827999) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = x;
    }
    for (; t < 40; t++) {
      const x = (((((a << 5) | (a >>> 27)) + (b ^ c ^ d)) | 0) + e + W[t]! + 0x6ed9eba1) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = x;
    }
    for (; t < 60; t++) {
      const x = (((((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d))) | 0) + e + W[t]! - 0x70e44324) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = x;
    }
    for (; t < 80; t++) {
      const x = (((((a << 5) | (a >>> 27)) + (b ^ c ^ d)) | 0) + e + W[t]! - 0x359d3e2a) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = x;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const version = ((h1 >>> 8) & 0x0f) | 0x50;
  const variant = ((h2 >>> 24) & 0x3f) | 0x80;
  putHex(0, h0, 8);
  putHex(9, h1 >>> 16, 4);
  putHex(14, (version << 8) | (h1 & 255), 4);
  putHex(19, (variant << 8) | ((h2 >>> 16) & 255), 4);
  putHex(24, h2 & 0xffff, 4);
  putHex(28, h3, 8);
  return String.fromCharCode.apply(null, UUID_CODES);
}

/** Lowercase hex digits' character codes by value. */
const HEX_CODES: readonly number[] = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
/**
 * The UUID being spelled, as character codes, dashes in place (RFC 9562 §4's 8-4-4-4-12 form).
 * Built here and made a string in one step: a string of 20 concatenated hex pairs is a tree of
 * about 14 V8 cons-string nodes (471 heap bytes, against 64 for a flat 36-character string), and a
 * crawl keeps hundreds of thousands of keys in its caches.
 */
const UUID_CODES: number[] = Array.from('00000000-0000-0000-0000-000000000000', (char) => char.charCodeAt(0));

/** Writes the low `digits` hex digits of `value` into UUID_CODES from `at`. */
function putHex(at: number, value: number, digits: number): void {
  let rest = value;
  for (let i = digits - 1; i >= 0; i -= 1) {
    UUID_CODES[at + i] = HEX_CODES[rest & 15]!;
    rest >>>= 4;
  }
}
