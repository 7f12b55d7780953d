import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemap, SITEMAP_LOC_MAX_CHARS, SITEMAP_MAX_BYTES, SITEMAP_MAX_ENTRIES } from './sitemap-parser';

const urlset = (body: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>`);
const urls = (count: number, start = 0) => Array.from({ length: count }, (_, i) => `<url><loc>http://a.test/${start + i}</loc></url>`).join('');

describe('parseSitemap', () => {
  it('reads <url><loc> and <lastmod>, entity-decoded and trimmed; an extension\'s deeper <image:loc> is not a page', async () => {
    const parsed = await parseSitemap(
      urlset(`<url>\n <loc> http://a.test/?a=1&amp;b=2 </loc><lastmod>2026-11-01</lastmod><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>http://a.test/i.png</image:loc></image:image></url><url><loc><![CDATA[http://a.test/c]]></loc></url><url><loc></loc></url>`),
      false,
    );
    expect(parsed).toMatchObject({ kind: 'urlset', gzipped: false, entriesOverCap: 0, error: null });
    expect(parsed.entries).toEqual([
      { loc: 'http://a.test/?a=1&b=2', lastmod: '2026-11-01' },
      { loc: 'http://a.test/c', lastmod: null },
    ]);
  });

  it('reads a sitemap index (any namespace prefix) and a gzip body', async () => {
    const index = Buffer.from('<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>http://a.test/s1.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>');
    const parsed = await parseSitemap(zlib.gzipSync(index), false);
    expect(parsed).toMatchObject({ kind: 'sitemapindex', gzipped: true, bytes: index.length, error: null, entries: [{ loc: 'http://a.test/s1.xml.gz', lastmod: null }] });
  });

  it('does not expand DTD entities ("billion laughs"): an undefined-entity error, in milliseconds', async () => {
    const laughs = ['<!ENTITY lol0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`)].join('');
    const started = performance.now();
    const parsed = await parseSitemap(Buffer.from(`<?xml version="1.0"?><!DOCTYPE urlset [${laughs}]><urlset><url><loc>http://a.test/&lol9;</loc></url></urlset>`), false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parsed.error?.code).toBe('SITEMAP_MALFORMED');
    expect(parsed.entries).toEqual([]);
  });

  it('keeps the entries read before a well-formedness error, with its line and column', async () => {
    const parsed = await parseSitemap(Buffer.from('<urlset>\n<url><loc>http://a.test/1</loc></url>\n<url><loc>http://a.test/2</url>\n</urlset>'), false);
    expect(parsed.entries.map((e) => e.loc)).toEqual(['http://a.test/1']);
    expect(parsed.error).toMatchObject({ code: 'SITEMAP_MALFORMED', message: expect.stringMatching(/line 3, column \d+/) });
  });

  it('refuses other XML and non-XML as SITEMAP_NOT_SITEMAP, and broken gzip as SITEMAP_GZIP_FAILED', async () => {
    expect((await parseSitemap(Buffer.from('<html><body>no</body></html>'), false)).error?.code).toBe('SITEMAP_NOT_SITEMAP');
    expect((await parseSitemap(Buffer.from(''), false)).error?.code).toBe('SITEMAP_NOT_SITEMAP');
    const broken = zlib.gzipSync(urlset(urls(10)));
    broken[broken.length - 6]! ^= 0xff;
    expect((await parseSitemap(broken, false)).error?.code).toBe('SITEMAP_GZIP_FAILED');
  });

  it('keeps 50,000 entries and counts the rest', async () => {
    const parsed = await parseSitemap(urlset(urls(SITEMAP_MAX_ENTRIES + 7)), false);
    expect(parsed.entries).toHaveLength(SITEMAP_MAX_ENTRIES);
    expect(parsed.entries.at(-1)!.loc).toBe(`http://a.test/${SITEMAP_MAX_ENTRIES - 1}`);
    expect(parsed.entriesOverCap).toBe(7);
    expect(parsed.error).toBeNull();
  });

  it('reads at most 50 MB of a gzip bomb (SITEMAP_TOO_LARGE), keeping what it read', async () => {
    // ~60 MB of XML whitespace inside <urlset>, about 60 KB compressed.
    const xml = Buffer.concat([Buffer.from(`<urlset>${urls(3)}`), Buffer.alloc(60 * 1024 * 1024, 0x20), Buffer.from('</urlset>')]);
    const parsed = await parseSitemap(zlib.gzipSync(xml), false);
    expect(parsed.bytes).toBe(SITEMAP_MAX_BYTES);
    expect(parsed.error?.code).toBe('SITEMAP_TOO_LARGE');
    expect(parsed.entries).toHaveLength(3);
  });

  it('marks a <loc> longer than 2,048 characters tooLong, keeping its start only', async () => {
    const long = `http://a.test/${'x'.repeat(100_000)}`;
    const parsed = await parseSitemap(urlset(`<url><loc>${long}</loc></url>`), false);
    expect(parsed.entries).toEqual([{ loc: long.slice(0, SITEMAP_LOC_MAX_CHARS), lastmod: null, tooLong: true }]);
  });
});
