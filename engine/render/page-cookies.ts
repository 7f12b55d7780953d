/**
 * The Cookie header of each request a rendered page makes (issue 14 part 4's jar, for JavaScript
 * rendering): the crawl's jar lives on the main thread, so a page task of a rendering crawl carries
 * the cookies the jar would send to the page's host at any path (CrawlCookieJar.siteCookies), and
 * the worker answers each subresource request from them with RFC 6265 §5.4's rules (tough-cookie):
 * path scoping, host-only cookies to their host alone, a parent domain's cookies to its other
 * hosts too (an app on www.shop.test calling api.shop.test), Secure ones over https only.
 * Read-only: a Set-Cookie in a subresource's answer is not kept (the jar takes page answers only).
 */
import { CookieJar, type SerializedCookie } from 'tough-cookie';

/** No cookie for any request: a crawl without a jar, or a page whose site has none. */
const NO_COOKIES = (): null => null;

/**
 * A page's subresource Cookie headers from its site's cookies.
 * @param siteCookies JSON array of serialized cookies (CrawlCookieJar.siteCookies); absent when none
 * @returns URL → its Cookie header, or null when none applies; for `siteCookies` absent or not
 *   readable (a scheduler of another build), null for every URL (the page renders without cookies)
 * @example pageCookieHeaders(jar.siteCookies('http://shop.test/'))('http://shop.test/api/cart') → 'sid=s-42'
 */
export function pageCookieHeaders(siteCookies: string | undefined): (url: string) => string | null {
  if (siteCookies === undefined) return NO_COOKIES;
  let jar: CookieJar;
  try {
    const cookies = JSON.parse(siteCookies) as SerializedCookie[];
    if (!Array.isArray(cookies)) return NO_COOKIES;
    jar = CookieJar.deserializeSync({ version: 'tough-cookie', storeType: 'MemoryCookieStore', rejectPublicSuffixes: true, cookies });
  } catch {
    return NO_COOKIES;
  }
  return (url) => {
    try {
      const header = jar.getCookieStringSync(url);
      return header === '' ? null : header;
    } catch {
      return null;
    }
  };
}
