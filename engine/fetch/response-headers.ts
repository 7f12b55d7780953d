/** Every response header of a fetch as stored with its page: one JSON object, size-capped. */

/** Characters of JSON kept per response's headers (16 KiB); see {@link recordResponseHeaders}. */
export const RESPONSE_HEADERS_MAX_CHARS = 16 * 1024;

/**
 * The key that says headers were cut or left out. A colon cannot start an HTTP field name
 * (RFC 9110 §5.1: a token), so it never collides with a real header.
 */
export const HEADERS_TRUNCATED_KEY = ':truncated';

/** Characters kept free for the {@link HEADERS_TRUNCATED_KEY} entry. */
const MARKER_RESERVE = 96;
/** A value cut shorter than this is left out instead: a stub says nothing. */
const MIN_CUT_CHARS = 64;

/** What a Set-Cookie value is stored as: the cookie's value is a secret (a session id is a credential). */
export const MASKED_COOKIE_VALUE = '(masked)';

/**
 * A Set-Cookie header (RFC 6265 §4.1) with its cookie's value masked: the name and the attributes
 * (Path, Domain, Expires, Secure, HttpOnly, SameSite) are kept, what an audit of them needs.
 * @example maskSetCookie('sid=s-42; Path=/; HttpOnly') → 'sid=(masked); Path=/; HttpOnly'
 */
export function maskSetCookie(header: string): string {
  const semicolon = header.indexOf(';');
  const pair = semicolon < 0 ? header : header.slice(0, semicolon);
  const equals = pair.indexOf('=');
  const name = equals < 0 ? '' : pair.slice(0, equals).trim();
  return `${name}=${MASKED_COOKIE_VALUE}${semicolon < 0 ? '' : header.slice(semicolon)}`;
}

/** Characters `value` takes as a JSON string. */
const jsonLength = (value: string): number => JSON.stringify(value).length;

/**
 * Every response header as a JSON object of lower-case names in the order received (undici
 * lower-cases them; a repeated header, e.g. Set-Cookie, is joined with ", "; each Set-Cookie's
 * value masked by {@link maskSetCookie}, so no session cookie is stored in clear), at most
 * `maxChars` characters of JSON. A header that does not fit whole is cut to what fits, ending
 * in "…" (or left out when under 64 characters would fit), and later headers still go in if
 * they fit; when any was cut or left out the object ends with `":truncated": "N of M headers
 * cut or left out (16 KiB cap)"`.
 * @param raw response headers as undici gives them (lower-case names)
 * @param maxChars @default RESPONSE_HEADERS_MAX_CHARS
 * @returns the JSON text, at most `maxChars` characters
 * @example recordResponseHeaders({ 'content-type': 'text/html', 'set-cookie': ['a=1', 'b=2; Path=/'] }) → '{"content-type":"text/html","set-cookie":"a=(masked), b=(masked); Path=/"}'
 */
export function recordResponseHeaders(raw: Record<string, string | string[] | undefined>, maxChars = RESPONSE_HEADERS_MAX_CHARS): string {
  const kept: Record<string, string> = {};
  // `{}` and the commas between entries.
  let used = 2;
  let total = 0;
  let cut = 0;
  const budget = maxChars - MARKER_RESERVE;
  for (const [rawName, rawValue] of Object.entries(raw)) {
    if (rawValue === undefined) continue;
    total += 1;
    const name = rawName.toLowerCase();
    const values = name === 'set-cookie' || name === 'set-cookie2' ? (Array.isArray(rawValue) ? rawValue : [rawValue]).map(maskSetCookie) : rawValue;
    const value = Array.isArray(values) ? values.join(', ') : values;
    // name, colon, value, comma
    const fixed = jsonLength(name) + 2;
    if (used + fixed + jsonLength(value) <= budget) {
      kept[name] = value;
      used += fixed + jsonLength(value);
      continue;
    }
    cut += 1;
    const room = budget - used - fixed;
    if (room < MIN_CUT_CHARS) continue;
    let shortened = `${value.slice(0, room - 3)}…`;
    // Escapes make JSON longer than the text: shorten until it fits.
    while (jsonLength(shortened) > room) shortened = `${shortened.slice(0, shortened.length - 1 - (jsonLength(shortened) - room))}…`;
    kept[name] = shortened;
    used += fixed + jsonLength(shortened);
  }
  if (cut > 0) kept[HEADERS_TRUNCATED_KEY] = `${cut} of ${total} headers cut or left out (${Math.round(maxChars / 1024)} KiB cap)`;
  return JSON.stringify(kept);
}
