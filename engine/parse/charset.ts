/** Character encoding of an HTML body (WHATWG encoding sniffing: BOM, Content-Type charset, meta charset) and its decoding. */
import iconv from 'iconv-lite';

/**
 * The canonical name of a WHATWG Encoding Standard label (§4.2 "get an encoding"), lowercase, or
 * null when the label is none of the standard's. Node's TextDecoder implements that label table
 * (full ICU), so UTF-7, UTF-32, CESU-8 and the other encodings iconv-lite knows but no browser
 * decodes are null, as are `replacement` labels (iso-2022-kr…), which TextDecoder refuses.
 * @example whatwgEncoding(' Latin1 ') // 'windows-1252'
 * @example whatwgEncoding('utf-7') // null
 */
export function whatwgEncoding(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/**
 * The encoding a `<meta>` declares, as the HTML Standard's prescan takes it (§13.2.3.2): a
 * UTF-16 label means UTF-8 (a document read as ASCII-compatible bytes cannot be UTF-16), and
 * x-user-defined means windows-1252; a label that is no encoding is skipped (null).
 */
function metaEncoding(label: string): string | null {
  if (label.trim().toLowerCase() === 'x-user-defined') return 'windows-1252';
  const encoding = whatwgEncoding(label);
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
}

/** The encoding a byte order mark names (Encoding Standard "BOM sniff"), or null. */
function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/gi;

/**
 * Picks the character encoding of an HTML body as a browser does (HTML Standard §13.2.3.1
 * encoding sniffing, simplified): a byte order mark; else the Content-Type charset if it is a
 * WHATWG label; else the first `<meta charset>` or `<meta http-equiv=Content-Type>` in the first
 * 1024 bytes that names one (UTF-16 there meaning UTF-8); else UTF-8. Labels no browser decodes
 * (UTF-7, UTF-32…) are ignored, never decoded. Returns the canonical lowercase WHATWG name.
 * @example charsetOf('text/html; charset=Shift_JIS', bytes) // 'shift_jis'
 * @example charsetOf('text/html; charset=ISO-8859-1', bytes) // 'windows-1252'
 * @example charsetOf('text/html; charset=utf-7', bytes) // 'utf-8' (or what a meta declares)
 */
export function charsetOf(contentType: string | undefined, bytes: Uint8Array): string {
  const bom = bomEncoding(bytes);
  if (bom) return bom;
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  const header = fromHeader ? whatwgEncoding(fromHeader) : null;
  if (header) return header;
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  for (const match of head.matchAll(META_CHARSET)) {
    const meta = metaEncoding(match[1]!);
    if (meta) return meta;
  }
  return 'utf-8';
}

/**
 * Decodes `bytes` with the encoding {@link charsetOf} picks; malformed sequences become U+FFFD and
 * a byte order mark is dropped. windows-1252 and most others go through iconv-lite (Node
 * 20.18.3+'s TextDecoder decodes windows-1252 as plain Latin-1, nodejs/node#56542); the few
 * iconv-lite lacks (x-mac-cyrillic) through TextDecoder.
 */
export function decodeHtml(contentType: string | undefined, bytes: Uint8Array): { text: string; charset: string } {
  const charset = charsetOf(contentType, bytes);
  if (charset === 'utf-8') return { text: new TextDecoder('utf-8').decode(bytes), charset };
  if (!iconv.encodingExists(charset)) return { text: new TextDecoder(charset).decode(bytes), charset };
  return { text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset), charset };
}
