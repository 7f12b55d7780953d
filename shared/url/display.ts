/**
 * Display forms: keys and normalized strings hold ASCII (punycode) hosts; people read Unicode.
 */
import { parseUrlParts, serializeUrlParts } from './parse';
import { domainToUnicode } from './punycode';

/**
 * The URL with its host shown in Unicode (`xn--` labels decoded); other parts unchanged. Input
 * that is not a URL is returned as it is (display never fails).
 * @example toDisplayUrl('http://xn--85x722f.xn--55qx5d.cn/a') → 'http://食狮.公司.cn/a'
 */
export function toDisplayUrl(url: string): string {
  const parsed = parseUrlParts(url);
  if (!parsed.ok || !parsed.value.host.includes('xn--')) return url;
  return serializeUrlParts({ ...parsed.value, host: domainToUnicode(parsed.value.host) });
}
