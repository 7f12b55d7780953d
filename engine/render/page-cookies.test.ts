import { describe, expect, it } from 'vitest';
import { CrawlCookieJar } from '../cookies/crawl-cookie-jar';
import { pageCookieHeaders } from './page-cookies';

/** A jar with a host-only session, a path-scoped preference, a cookie for the whole site and another site's. */
function shopJar(): CrawlCookieJar {
  const jar = new CrawlCookieJar();
  jar.store('http://www.shop.test/login', ['sid=s-1; Path=/; HttpOnly', 'pref=dark; Path=/prefs/', 'wide=w; Domain=shop.test; Path=/', 'tls=t; Path=/; Secure']);
  jar.store('https://www.shop.test/login', ['tls=t; Path=/; Secure']);
  jar.store('http://other.test/', ['other=o; Path=/']);
  return jar;
}

describe('a rendered page\'s cookies (CrawlCookieJar.siteCookies → pageCookieHeaders)', () => {
  it('answers each request of the page with RFC 6265 §5.4: path, host-only, parent domain, Secure', () => {
    const header = pageCookieHeaders(shopJar().siteCookies('http://www.shop.test/app.html') ?? undefined);
    expect(header('http://www.shop.test/api/me.json')).toBe('sid=s-1; wide=w');
    expect(header('http://www.shop.test/prefs/colour')).toBe('pref=dark; sid=s-1; wide=w');
    // Another host of the site gets the site-wide cookie only; another site nothing.
    expect(header('http://api.shop.test/cart')).toBe('wide=w');
    expect(header('http://other.test/')).toBeNull();
  });

  it('takes no Secure cookie for an http page, and gives one to its https requests when the page is https', () => {
    const jar = shopJar();
    expect(jar.siteCookies('http://www.shop.test/')).not.toContain('tls');
    const header = pageCookieHeaders(jar.siteCookies('https://www.shop.test/') ?? undefined);
    expect(header('https://www.shop.test/api')).toContain('tls=t');
    expect(header('http://www.shop.test/api')).not.toContain('tls=t');
  });

  it('is null for a site the jar has nothing for, and sends nothing for absent or unreadable cookies', () => {
    expect(shopJar().siteCookies('http://nothing.test/')).toBeNull();
    expect(new CrawlCookieJar().siteCookies('http://www.shop.test/')).toBeNull();
    expect(pageCookieHeaders(undefined)('http://www.shop.test/')).toBeNull();
    expect(pageCookieHeaders('{not json')('http://www.shop.test/')).toBeNull();
    expect(pageCookieHeaders('{"cookies":[]}')('http://www.shop.test/')).toBeNull();
  });
});
