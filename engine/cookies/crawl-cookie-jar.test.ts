import { describe, expect, it } from 'vitest';
import { CrawlCookieJar, MAX_SET_COOKIE_BYTES, MAX_SET_COOKIES_PER_RESPONSE, mergeCookieHeaders } from './crawl-cookie-jar';

describe('CrawlCookieJar', () => {
  it('sends a cookie back to its host and path only (RFC 6265 §5.4)', () => {
    const jar = new CrawlCookieJar();
    expect(jar.cookieHeader('http://shop.test/')).toBeNull();
    expect(jar.store('http://shop.test/login', ['session=abc; Path=/', 'cart=1; Path=/cart'])).toEqual({ stored: 2, ignored: 0 });
    expect(jar.cookieHeader('http://shop.test/about')).toBe('session=abc');
    expect(jar.cookieHeader('http://shop.test/cart/items')).toBe('cart=1; session=abc');
    expect(jar.cookieHeader('http://other.test/')).toBeNull();
    // Host-only: a subdomain does not get it; a Domain cookie goes to subdomains.
    expect(jar.cookieHeader('http://www.shop.test/')).toBeNull();
    jar.store('http://shop.test/', ['wide=1; Domain=shop.test; Path=/']);
    expect(jar.cookieHeader('http://www.shop.test/')).toBe('wide=1');
  });

  it('ignores what the rules refuse: a public-suffix Domain, another site\'s Domain, Secure over http, malformed, too long, too many', () => {
    const jar = new CrawlCookieJar();
    const long = `big=${'x'.repeat(MAX_SET_COOKIE_BYTES)}`;
    const result = jar.store('http://shop.example.com/', ['a=1; Domain=com', 'b=1; Domain=other.example', 's=1; Secure', 'novalue', long]);
    expect(result).toEqual({ stored: 0, ignored: 5 });
    const flood = Array.from({ length: MAX_SET_COOKIES_PER_RESPONSE + 7 }, (_, i) => `c${i}=1`);
    expect(jar.store('http://shop.example.com/', flood)).toEqual({ stored: MAX_SET_COOKIES_PER_RESPONSE, ignored: 7 });
  });

  it('replaces a cookie set again and forgets one set expired (RFC 6265 §5.3 step 11)', () => {
    const jar = new CrawlCookieJar();
    jar.store('http://shop.test/', ['session=old']);
    jar.store('http://shop.test/', ['session=new']);
    expect(jar.cookieHeader('http://shop.test/')).toBe('session=new');
    jar.store('http://shop.test/', ['session=; Max-Age=0']);
    expect(jar.cookieHeader('http://shop.test/')).toBeNull();
  });

  it('reads back its serialized state, and refuses a state that is not one with COOKIE_JAR_UNREADABLE', () => {
    const jar = new CrawlCookieJar();
    jar.store('http://shop.test/', ['session=abc; Max-Age=3600', 'gone=1; Max-Age=0']);
    const copy = new CrawlCookieJar({ serialized: jar.serialize() });
    expect(copy.cookieHeader('http://shop.test/')).toBe('session=abc');
    expect(copy.size).toBe(1);
    expect(() => new CrawlCookieJar({ serialized: '{"cookies": 3' })).toThrow(expect.objectContaining({ code: 'COOKIE_JAR_UNREADABLE' }) as Error);
  });

  it('persists its empty start once, then only when a cookie was stored since the last write; keeps the change when the write fails', () => {
    const writes: string[] = [];
    let full = false;
    const jar = new CrawlCookieJar({
      persist: (state) => {
        if (full) throw new Error('ENOSPC');
        writes.push(state);
      },
    });
    jar.persistIfChanged();
    jar.persistIfChanged();
    expect(writes).toHaveLength(1);
    expect(new CrawlCookieJar({ serialized: writes[0]! }).size).toBe(0);
    jar.store('http://shop.test/', ['a=1']);
    full = true;
    expect(() => jar.persistIfChanged()).toThrow('ENOSPC');
    full = false;
    jar.persistIfChanged();
    jar.persistIfChanged();
    expect(writes).toHaveLength(2);
    expect(new CrawlCookieJar({ serialized: writes[1]! }).cookieHeader('http://shop.test/')).toBe('a=1');
    // A jar read back is not written again until it changes.
    const readBack: string[] = [];
    new CrawlCookieJar({ serialized: writes[1]!, persist: (state) => readBack.push(state) }).persistIfChanged();
    expect(readBack).toHaveLength(0);
  });

  it('stays within its cap, dropping the least recently used cookies', () => {
    const jar = new CrawlCookieJar({ maxCookies: 100 });
    jar.store('http://keep.test/', ['kept=1']);
    for (let i = 0; i < 300; i += 1) {
      jar.store(`http://h${i}.test/`, [`c=${i}`]);
      // The cookie in use is looked up now and then, so it is recently used.
      if (i % 10 === 0) expect(jar.cookieHeader('http://keep.test/')).toBe('kept=1');
    }
    expect(jar.size).toBeLessThanOrEqual(100);
    expect(new CrawlCookieJar({ serialized: jar.serialize() }).size).toBeLessThanOrEqual(100);
    expect(jar.cookieHeader('http://keep.test/')).toBe('kept=1');
    expect(jar.cookieHeader('http://h299.test/')).toBe('c=299');
    expect(jar.cookieHeader('http://h0.test/')).toBeNull();
  });
});

describe('mergeCookieHeaders', () => {
  it('keeps the rule\'s pairs but those the jar has a newer value for', () => {
    expect(mergeCookieHeaders('session=letmein; theme=dark', 'session=new')).toBe('theme=dark; session=new');
    expect(mergeCookieHeaders('a=1', null)).toBe('a=1');
    expect(mergeCookieHeaders(null, 'b=2')).toBe('b=2');
    expect(mergeCookieHeaders(null, null)).toBeNull();
    expect(mergeCookieHeaders('a=1', 'a=2')).toBe('a=2');
  });
});
