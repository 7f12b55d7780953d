/** Checks of text a user gives that ends up in requests (headers, user agent). */

/**
 * True when `text` holds a control character (U+0000-U+001F, U+007F): a header value with CR/LF
 * would split the request (header injection), other controls are refused by HTTP (RFC 9110 §5.5).
 * @example hasControlCharacters('bot\r\nX-Injected: 1') // true
 */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
