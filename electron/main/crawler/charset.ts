/**
 * Picks the character encoding of an HTML body: the Content-Type charset first, then a
 * `<meta charset>` or `<meta http-equiv=Content-Type>` in the first 1024 bytes (HTML Standard
 * §13.2.3.2, simplified), else UTF-8. Labels are those TextDecoder accepts (WHATWG Encoding).
 * @example charsetOf('text/html; charset=Shift_JIS', bytes) // 'shift_jis'
 */
export function charsetOf(contentType: string | undefined, bytes: Uint8Array): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (fromHeader && isSupported(fromHeader)) return fromHeader.toLowerCase();
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  if (fromMeta && isSupported(fromMeta)) return fromMeta.toLowerCase();
  return 'utf-8';
}

function isSupported(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** Decodes `bytes` with the encoding {@link charsetOf} picks; malformed sequences become U+FFFD. */
export function decodeHtml(contentType: string | undefined, bytes: Uint8Array): { text: string; charset: string } {
  const charset = charsetOf(contentType, bytes);
  return { text: new TextDecoder(charset).decode(bytes), charset };
}
