/**
 * Raw URLs (seed 001): "the destination of an `<a href>` link … `new URL(a.href,
 * window.document.baseURI)`", i.e. WHATWG URL resolution against the document's base URL, which
 * is the `<base href>` (itself resolved against the document URL) when the page has one.
 */
import { err, ok, type Result } from './result';
import { parseWhatwg } from './whatwg-url';

/**
 * Resolves `href` against an absolute `base` with WHATWG URL semantics (RFC 3986 §5 reference
 * resolution, with the WHATWG differences listed in tests/url/rfc3986-resolution.test.ts).
 * @returns the absolute URL as the WHATWG parser serializes it, or INVALID_BASE / INVALID_URL
 * @example resolveHref('../g?y#s', 'http://a/b/c/d;p?q') → ok('http://a/b/g?y#s')
 * @example resolveHref('//g', 'http://a/b/c/d;p?q') → ok('http://g/')
 */
export function resolveHref(href: string, base: string): Result<string> {
  const baseUrl = parseWhatwg(base);
  if (baseUrl === null) return err('INVALID_BASE', `The base URL is not an absolute URL: "${base}"`);
  const url = parseWhatwg(href, baseUrl.href);
  if (url === null) return err('INVALID_URL', `"${href}" does not resolve to a URL against ${baseUrl.href}`);
  return ok(url.href);
}

/**
 * The base URL of a document (HTML Standard, "document base URL"): the first `<base href>`
 * resolved against the document URL, or the document URL when there is no usable `<base href>`.
 * @returns the base URL, or INVALID_BASE when `documentUrl` itself is not absolute
 * @example documentBaseUrl('http://docs.python.test/library/os.html', '../') → ok('http://docs.python.test/')
 */
export function documentBaseUrl(documentUrl: string, baseHref?: string | null): Result<string> {
  const document = parseWhatwg(documentUrl);
  if (document === null) return err('INVALID_BASE', `The document URL is not an absolute URL: "${documentUrl}"`);
  if (baseHref === undefined || baseHref === null) return ok(document.href);
  return ok(parseWhatwg(baseHref, document.href)?.href ?? document.href);
}

/**
 * The raw URL of a link found in a document: `href` resolved against the document's base URL.
 * @returns the raw URL, or INVALID_BASE / INVALID_URL
 * @example rawUrlOfLink('datetime.html#module', 'http://docs.python.test/library/os.html') → ok('http://docs.python.test/library/datetime.html#module')
 * @example rawUrlOfLink('x', 'http://a/b/c', 'http://cdn.test/d/') → ok('http://cdn.test/d/x')
 */
export function rawUrlOfLink(href: string, documentUrl: string, baseHref?: string | null): Result<string> {
  const base = documentBaseUrl(documentUrl, baseHref);
  return base.ok ? resolveHref(href, base.value) : base;
}
