/**
 * URL lists for list mode (issue 12): `crawlbench crawl --list FILE` and the crawl form's
 * "Import URL list" read the same text the same way.
 */
import { MAX_SEED_CHARS, MAX_SEED_LIST_CHARS, MAX_SEEDS } from '../ipc/limits';
import type { Result } from '../types/result';
import { parseWhatwg } from './whatwg-url';

/**
 * Reads a URL list: one absolute http(s) URL a line; blank lines and lines whose first
 * non-space character is `#` are skipped (a `#` later in a line is the URL's fragment, not a
 * comment); spaces around a URL, CR before LF and a leading byte-order mark are ignored.
 * Duplicates are kept (the crawl's URL-seen test fetches each URL once).
 * Bounds are those of a crawl's seeds (shared/ipc/limits.ts): at most MAX_SEEDS URLs, each at most
 * MAX_SEED_CHARS, MAX_SEED_LIST_CHARS in all. Linear in the text's length.
 * @returns the URLs in order (WHATWG-serialized, fragment kept: the crawl drops it), or
 *   INVALID_URL_LIST naming the first bad line by its 1-based number
 * @example parseUrlList('# shop\nhttps://a.test/x\n\nhttp://a.test/y#top\n') // { ok: true, value: ['https://a.test/x', 'http://a.test/y#top'] }
 * @example parseUrlList('https://a.test/\nwww.a.test/x') // { ok: false, error: { code: 'INVALID_URL_LIST', message: 'Line 2: "www.a.test/x" is not an absolute URL …' } }
 */
export function parseUrlList(text: string): Result<string[]> {
  const urls: string[] = [];
  let chars = 0;
  let lineNumber = 0;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (message: string): Result<string[]> => ({ ok: false, error: { code: 'INVALID_URL_LIST', message } });
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lineNumber += 1;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === '' || line.startsWith('#')) continue;
    const shown = JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}…` : line);
    if (line.length > MAX_SEED_CHARS) return fail(`Line ${lineNumber}: the URL is longer than ${MAX_SEED_CHARS} characters`);
    const url = parseWhatwg(line);
    if (url === null) return fail(`Line ${lineNumber}: ${shown} is not an absolute URL (one URL a line, e.g. https://example.com/page; # starts a comment line)`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`Line ${lineNumber}: ${shown} is not an http(s) URL`);
    if (urls.length === MAX_SEEDS) return fail(`Line ${lineNumber}: more than ${MAX_SEEDS.toLocaleString('en-US')} URLs; split the list into several crawls`);
    chars += url.href.length;
    if (chars > MAX_SEED_LIST_CHARS) return fail(`Line ${lineNumber}: the URLs total more than ${MAX_SEED_LIST_CHARS.toLocaleString('en-US')} characters; split the list into several crawls`);
    urls.push(url.href);
  }
  if (urls.length === 0) return fail('The list has no URL (one URL a line; blank lines and # comment lines are skipped)');
  return { ok: true, value: urls };
}
