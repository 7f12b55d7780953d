import { describe, expect, it } from 'vitest';
import { MAX_SEEDS } from '../ipc/limits';
import { parseUrlList } from './url-list';

describe('parseUrlList: one URL a line', () => {
  it('skips blank and # comment lines, trims spaces and CR, keeps order, duplicates and fragments', () => {
    const text = '\ufeff# products\r\n  https://a.test/x  \r\n\r\n   # indented comment\nhttp://A.TEST/y#top\nhttps://a.test/x\n';
    expect(parseUrlList(text)).toEqual({ ok: true, value: ['https://a.test/x', 'http://a.test/y#top', 'https://a.test/x'] });
  });

  it('names the first bad line by its number', () => {
    const bad = parseUrlList('# list\nhttps://a.test/\n\nwww.a.test/page\nnot either');
    expect(bad).toEqual({ ok: false, error: { code: 'INVALID_URL_LIST', message: expect.stringMatching(/^Line 4: "www\.a\.test\/page" is not an absolute URL/) } });
    expect(parseUrlList('https://a.test/\nftp://a.test/file')).toEqual({ ok: false, error: { code: 'INVALID_URL_LIST', message: 'Line 2: "ftp://a.test/file" is not an http(s) URL' } });
    expect(parseUrlList(`https://a.test/${'x'.repeat(9000)}`)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Line 1: the URL is longer than 8192/) } });
  });

  it('refuses a list without any URL', () => {
    expect(parseUrlList('# only a comment\n\n')).toMatchObject({ ok: false, error: { code: 'INVALID_URL_LIST' } });
    expect(parseUrlList('')).toMatchObject({ ok: false, error: { code: 'INVALID_URL_LIST' } });
  });

  it('reads a list of 100,000 URLs (the most a crawl takes) quickly, and refuses one more by line number', () => {
    const lines = Array.from({ length: MAX_SEEDS }, (_, i) => `https://shop.test/product/${i}?ref=list`);
    const startedAt = performance.now();
    const read = parseUrlList(lines.join('\n'));
    const elapsedMs = performance.now() - startedAt;
    console.log(`parseUrlList: ${MAX_SEEDS} URLs in ${elapsedMs.toFixed(0)} ms`);
    expect(read.ok && read.value.length).toBe(MAX_SEEDS);
    expect(elapsedMs).toBeLessThan(5_000);
    expect(parseUrlList(`${lines.join('\n')}\n# end\nhttps://shop.test/one-more`)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Line 100002: more than 100,000 URLs/) } });
  });
});
