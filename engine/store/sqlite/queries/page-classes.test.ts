import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WritableDB } from '../database';
import { openDatabase } from '../connection';
import { STATUS_CLASSES } from '../../../../shared/types/overview';
import { insertOverviewCrawl } from './overview-fixture';
import { mediaTypeSql, originOf, pathPrefixTestSql, settledSql, statusClassSql, statusClassTestSql, urlPrefixRanges } from './page-classes';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

const URLS = [
  'http://a.test/',
  'http://a.test/docs/',
  'http://a.test/docs/x.html',
  'http://a.test/docsearch',
  'https://a.test:8443/docs/y?q=/docs/',
  'http://user@a.test/docs/z',
  'http://a.test/other/docs/',
];

describe('status classes', () => {
  it('the class expression and the per-class tests agree on every URL', () => {
    const { crawlId } = insertOverviewCrawl(db, [
      { url: 'http://a.test/1' },
      { url: 'http://a.test/2', status: 301 },
      { url: 'http://a.test/3', state: 'error', status: 404, errorCode: 'HTTP_404' },
      { url: 'http://a.test/4', state: 'error', status: 500, errorCode: 'HTTP_500' },
      { url: 'http://a.test/5', state: 'error', status: null, errorCode: 'ROBOTS_DISALLOWED' },
      { url: 'http://a.test/6', state: 'error', status: null, errorCode: 'TIMEOUT' },
      { url: 'http://a.test/7', state: 'error', status: 104, errorCode: 'ODD' },
      { url: 'http://a.test/8', state: 'pending', status: null },
    ]);
    const byExpression = db.prepare(`SELECT u.url, ${statusClassSql('u')} AS c FROM urls u WHERE u.crawl_id = ? AND ${settledSql('u')} ORDER BY u.id`).all(crawlId) as { url: string; c: string }[];
    expect(byExpression.map((row) => row.c)).toEqual(['2xx', '3xx', '4xx', '5xx', 'blocked', 'failed', 'failed']);
    for (const statusClass of STATUS_CLASSES) {
      const tested = db.prepare(`SELECT u.url FROM urls u WHERE u.crawl_id = ? AND ${settledSql('u')} AND ${statusClassTestSql('u', statusClass)} ORDER BY u.id`).pluck().all(crawlId);
      expect(tested, statusClass).toEqual(byExpression.filter((row) => row.c === statusClass).map((row) => row.url));
    }
  });
});

describe('media type', () => {
  it('drops parameters, spaces and case; null stays null', () => {
    const media = (contentType: string | null) => db.prepare(`SELECT ${mediaTypeSql('p')} FROM (SELECT ? AS content_type) p`).pluck().get(contentType);
    expect(media('Text/HTML; charset=UTF-8')).toBe('text/html');
    expect(media(' application/json ')).toBe('application/json');
    expect(media(null)).toBeNull();
  });
});

describe('path prefixes', () => {
  it('originOf cuts at the path', () => {
    expect(originOf('https://a.test:8443/docs/y?q=/x')).toBe('https://a.test:8443');
    expect(originOf('http://user@a.test/')).toBe('http://user@a.test');
  });

  it('the URL ranges and the SQL path test select the same URLs', () => {
    const { crawlId } = insertOverviewCrawl(db, URLS.map((url) => ({ url })));
    const origins = [...new Set(URLS.map(originOf))];
    for (const prefix of ['/', '/docs/', '/docs', '/other/']) {
      const byRanges = urlPrefixRanges(origins, prefix).flatMap(([from, below]) => db.prepare(`SELECT url FROM urls WHERE crawl_id = ? AND url >= ? AND url < ?`).pluck().all(crawlId, from, below) as string[]);
      const byTest = db.prepare(`SELECT u.url FROM urls u WHERE u.crawl_id = ? AND ${pathPrefixTestSql('u')}`).pluck().all(crawlId, prefix.length, prefix) as string[];
      expect(byTest.sort(), prefix).toEqual(byRanges.sort());
    }
    expect(
      (db.prepare(`SELECT u.url FROM urls u WHERE u.crawl_id = ? AND ${pathPrefixTestSql('u')}`).pluck().all(crawlId, 6, '/docs/') as string[]).sort(),
    ).toEqual(['http://a.test/docs/', 'http://a.test/docs/x.html', 'http://user@a.test/docs/z', 'https://a.test:8443/docs/y?q=/docs/']);
  });

  it('refuses a prefix without a leading "/"', () => {
    expect(() => urlPrefixRanges(['http://a.test'], 'docs/')).toThrow(/starts with "\/"/);
  });
});
