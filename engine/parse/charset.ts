import iconv from 'iconv-lite';

/**
 * WHATWG Encoding labels that mean windows-1252 (Encoding Standard §4.2): browsers decode pages
 * labelled latin1/iso-8859-1/ascii as windows-1252, so 0x80–0x9F are “smart quotes”, €, etc.
 * Node 20.18.3+'s TextDecoder decodes these as plain Latin-1 (nodejs/node#56542), so decoding
 * goes through iconv-lite instead.
 */
const WINDOWS_1252_LABELS = new Set([
  'ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100', 'iso8859-1', 'iso88591',
  'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252',
]);

function canonicalLabel(label: string): string | null {
  const lower = label.trim().toLowerCase();
  if (WINDOWS_1252_LABELS.has(lower)) return 'windows-1252';
  if (lower === 'x-sjis' || lower === 'ms_kanji' || lower === 'csshiftjis' || lower === 'windows-31j' || lower === 'ms932') return 'shift_jis';
  return iconv.encodingExists(lower) ? lower : null;
}

/**
 * Picks the character encoding of an HTML body: the Content-Type charset first, then a
 * `<meta charset>` or `<meta http-equiv=Content-Type>` in the first 1024 bytes (HTML Standard
 * §13.2.3.2, simplified), else UTF-8. Returns a canonical lowercase label.
 * @example charsetOf('text/html; charset=Shift_JIS', bytes) // 'shift_jis'
 * @example charsetOf('text/html; charset=ISO-8859-1', bytes) // 'windows-1252'
 */
export function charsetOf(contentType: string | undefined, bytes: Uint8Array): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  const header = fromHeader ? canonicalLabel(fromHeader) : null;
  if (header) return header;
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  const meta = fromMeta ? canonicalLabel(fromMeta) : null;
  return meta ?? 'utf-8';
}

/** Decodes `bytes` with the encoding {@link charsetOf} picks; malformed sequences become U+FFFD. */
export function decodeHtml(contentType: string | undefined, bytes: Uint8Array): { text: string; charset: string } {
  const charset = charsetOf(contentType, bytes);
  if (charset === 'utf-8') return { text: new TextDecoder('utf-8').decode(bytes), charset };
  return { text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset), charset };
}
