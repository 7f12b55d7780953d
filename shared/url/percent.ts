/**
 * Percent-encoding helpers: the WHATWG URL Standard's percent-encode sets (so the parser encodes
 * exactly what `new URL()` encodes) and the two RFC 3986 §6.2.2 percent-encoding normalizations
 * (uppercase hex digits, decode unreserved characters). All functions return their input string
 * unchanged (same identity) when there is nothing to do, so callers can test `result !== input`.
 */

/** Bit flags for {@link ENCODE_TABLE}: which component's percent-encode set holds an ASCII code. */
export const EncodeSet = {
  fragment: 1,
  query: 2,
  specialQuery: 4,
  path: 8,
  userinfo: 16,
  c0Control: 32,
} as const;

/** Per ASCII code unit, the OR of the {@link EncodeSet} flags whose set contains it. */
const ENCODE_TABLE = (() => {
  const table = new Uint8Array(128);
  const add = (flags: number, chars: string): void => {
    for (const char of chars) table[char.charCodeAt(0)]! |= flags;
  };
  const all = EncodeSet.fragment | EncodeSet.query | EncodeSet.specialQuery | EncodeSet.path | EncodeSet.userinfo | EncodeSet.c0Control;
  for (let code = 0; code < 0x20; code++) table[code] = all;
  table[0x7f] = all;
  add(EncodeSet.fragment, ' "<>`');
  add(EncodeSet.query | EncodeSet.specialQuery | EncodeSet.path | EncodeSet.userinfo, ' "#<>');
  add(EncodeSet.specialQuery, "'");
  add(EncodeSet.path | EncodeSet.userinfo, '?`{}');
  add(EncodeSet.userinfo, '/:;=@[\\]^|');
  return table;
})();

const HEX_DIGITS = '0123456789ABCDEF';

function pushEscaped(out: string, byte: number): string {
  return out + '%' + HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
}

/**
 * Percent-encodes the code points of `text` that are in the given WHATWG percent-encode set
 * (ASCII per {@link EncodeSet}, and every non-ASCII code point as UTF-8). Lone surrogates become
 * U+FFFD first, as the WHATWG parser does. Existing `%` escapes are left alone.
 * @param set one {@link EncodeSet} flag
 * @example percentEncode('/a b/ä', EncodeSet.path) → '/a%20b/%C3%A4'
 */
export function percentEncode(text: string, set: number): string {
  let start = 0;
  for (; start < text.length; start++) {
    const code = text.charCodeAt(start);
    if (code >= 0x80 || (ENCODE_TABLE[code]! & set) !== 0) break;
  }
  if (start === text.length) return text;
  let out = text.slice(0, start);
  for (let i = start; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      out = (ENCODE_TABLE[code]! & set) !== 0 ? pushEscaped(out, code) : out + text[i]!;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x800) {
      out = pushEscaped(pushEscaped(out, 0xc0 | (code >> 6)), 0x80 | (code & 63));
    } else if (code < 0x10000) {
      out = pushEscaped(pushEscaped(pushEscaped(out, 0xe0 | (code >> 12)), 0x80 | ((code >> 6) & 63)), 0x80 | (code & 63));
    } else {
      out = pushEscaped(out, 0xf0 | (code >> 18));
      out = pushEscaped(pushEscaped(pushEscaped(out, 0x80 | ((code >> 12) & 63)), 0x80 | ((code >> 6) & 63)), 0x80 | (code & 63));
    }
  }
  return out;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/**
 * Uppercases the hex digits of every `%XX` escape (RFC 3986 §6.2.2.1); malformed `%` are kept.
 * @example uppercasePercentEscapes('/a%c2%b1b') → '/a%C2%B1b'
 */
export function uppercasePercentEscapes(text: string): string {
  let index = text.indexOf('%');
  if (index === -1) return text;
  let out = '';
  let last = 0;
  for (; index !== -1 && index + 2 < text.length; index = text.indexOf('%', index + 1)) {
    const high = text.charCodeAt(index + 1);
    const low = text.charCodeAt(index + 2);
    if (hexValue(high) < 0 || hexValue(low) < 0) continue;
    if ((high >= 97 && high <= 102) || (low >= 97 && low <= 102)) {
      out += text.slice(last, index + 1) + text.slice(index + 1, index + 3).toUpperCase();
      last = index + 3;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * True for RFC 3986 §2.3 unreserved characters: ALPHA / DIGIT / "-" / "." / "_" / "~".
 * @example isUnreserved('~'.charCodeAt(0)) → true
 */
export function isUnreserved(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 45 ||
    code === 46 ||
    code === 95 ||
    code === 126
  );
}

/**
 * Decodes `%XX` escapes of unreserved characters (RFC 3986 §6.2.2.2); other escapes stay encoded.
 * @example decodeUnreservedEscapes('/%7Euser/%41b%2F') → '/~user/Ab%2F'
 */
export function decodeUnreservedEscapes(text: string): string {
  let index = text.indexOf('%');
  if (index === -1) return text;
  let out = '';
  let last = 0;
  for (; index !== -1; index = text.indexOf('%', index + 1)) {
    if (index + 2 >= text.length) break;
    const high = hexValue(text.charCodeAt(index + 1));
    const low = hexValue(text.charCodeAt(index + 2));
    if (high < 0 || low < 0) continue;
    const code = high * 16 + low;
    if (!isUnreserved(code)) continue;
    out += text.slice(last, index) + String.fromCharCode(code);
    last = index + 3;
    index += 2;
  }
  return last === 0 ? text : out + text.slice(last);
}
