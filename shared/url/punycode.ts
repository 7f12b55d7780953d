/**
 * Punycode (RFC 3492 Bootstring with the IDNA parameters) for host labels: encoding turns a
 * Unicode label into its `xn--` form for keys and PSL lookups, decoding turns it back for
 * display. No IDNA mapping (UTS #46) is done here: hosts from the WHATWG URL parser are already
 * mapped; PSL rules are already lowercase NFC.
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_INT = 0x7fffffff;
const ACE_PREFIX = 'xn--';

function adapt(delta: number, numPoints: number, firstTime: boolean): number {
  let d = firstTime ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / numPoints);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digitToChar(digit: number): string {
  // 0..25 → a..z, 26..35 → 0..9
  return String.fromCharCode(digit < 26 ? digit + 97 : digit + 22);
}

function charToDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 22;
  if (code >= 65 && code <= 90) return code - 65;
  if (code >= 97 && code <= 122) return code - 97;
  return BASE;
}

function codePoints(text: string): number[] {
  const points: number[] = [];
  for (const char of text) points.push(char.codePointAt(0) ?? 0);
  return points;
}

/**
 * Encodes a Unicode string with Punycode (no `xn--` prefix).
 * @throws RangeError on overflow (labels longer than any DNS label could be)
 * @example punycodeEncode('食狮') → '85x722f'
 */
export function punycodeEncode(input: string): string {
  const points = codePoints(input);
  let output = '';
  for (const point of points) if (point < 0x80) output += String.fromCharCode(point);
  const basicLength = output.length;
  let handled = basicLength;
  if (basicLength > 0) output += '-';
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < points.length) {
    let m = MAX_INT;
    for (const point of points) if (point >= n && point < m) m = point;
    if (m - n > Math.floor((MAX_INT - delta) / (handled + 1))) throw new RangeError('punycode overflow');
    delta += (m - n) * (handled + 1);
    n = m;
    for (const point of points) {
      if (point < n && ++delta > MAX_INT) throw new RangeError('punycode overflow');
      if (point !== n) continue;
      let q = delta;
      for (let k = BASE; ; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        output += digitToChar(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      output += digitToChar(q);
      bias = adapt(delta, handled + 1, handled === basicLength);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}

/**
 * Decodes a Punycode string (no `xn--` prefix) to Unicode.
 * @throws RangeError for invalid input or overflow
 * @example punycodeDecode('85x722f') → '食狮'
 */
export function punycodeDecode(input: string): string {
  const output: number[] = [];
  const basicEnd = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(basicEnd, 0); j++) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) throw new RangeError('punycode: non-basic code point before the delimiter');
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = basicEnd > 0 ? basicEnd + 1 : 0; index < input.length; ) {
    const oldI = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) throw new RangeError('punycode: truncated input');
      const digit = charToDigit(input.charCodeAt(index++));
      if (digit >= BASE || digit > Math.floor((MAX_INT - i) / w)) throw new RangeError('punycode: invalid digit or overflow');
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      if (w > Math.floor(MAX_INT / (BASE - t))) throw new RangeError('punycode overflow');
      w *= BASE - t;
    }
    const length = output.length + 1;
    bias = adapt(i - oldI, length, oldI === 0);
    if (Math.floor(i / length) > MAX_INT - n) throw new RangeError('punycode overflow');
    n += Math.floor(i / length);
    i %= length;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

function hasNonAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return true;
  return false;
}

/**
 * Converts each non-ASCII label of a domain to its `xn--` form and lowercases the result. Labels
 * that are already ASCII are only lowercased. Not a full IDNA ToASCII (no UTS #46 mapping).
 * @throws RangeError when a label cannot be encoded
 * @example domainToAscii('食狮.公司.cn') → 'xn--85x722f.xn--55qx5d.cn'
 */
export function domainToAscii(domain: string): string {
  const lower = domain.toLowerCase();
  if (!hasNonAscii(lower)) return lower;
  return lower
    .split('.')
    .map((label) => (hasNonAscii(label) ? ACE_PREFIX + punycodeEncode(label) : label))
    .join('.');
}

/**
 * Converts each `xn--` label of a domain to Unicode for display; a label that does not decode
 * is kept as it is (display must never fail).
 * @example domainToUnicode('xn--85x722f.xn--55qx5d.cn') → '食狮.公司.cn'
 */
export function domainToUnicode(domain: string): string {
  if (!domain.toLowerCase().includes(ACE_PREFIX)) return domain;
  return domain
    .split('.')
    .map((label) => {
      if (label.length <= ACE_PREFIX.length || label.slice(0, 4).toLowerCase() !== ACE_PREFIX) return label;
      try {
        return punycodeDecode(label.slice(4).toLowerCase());
      } catch {
        return label;
      }
    })
    .join('.');
}
