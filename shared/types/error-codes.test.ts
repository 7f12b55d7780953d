import { describe, expect, it } from 'vitest';
import { CRAWL_ERROR_CODES, describeError, errorClass, isCrawlErrorCode, type CrawlErrorCode, type StorageErrorCode } from './error-codes';

describe('the error-code table', () => {
  it('the codes the crawl runner retries are the transport failures (its old TRANSIENT set)', () => {
    const retried = Object.entries(CRAWL_ERROR_CODES).filter(([, info]) => info.class === 'retry').map(([code]) => code);
    expect(retried.sort()).toEqual(['CONNECTION_RESET', 'CONNECT_TIMEOUT', 'FETCH_FAILED', 'ROBOTS_REDIRECT_FAILED', 'TIMEOUT', 'WORKER_CRASHED']);
  });

  it('storage failures stop the crawl', () => {
    const storage: StorageErrorCode[] = ['DISK_FULL', 'DB_IO_ERROR', 'DB_READONLY', 'DB_BUSY', 'DB_CORRUPT'];
    for (const code of storage) expect(errorClass(code), code).toBe('stop-crawl');
  });

  it('gives every code one line of advice', () => {
    for (const [code, info] of Object.entries(CRAWL_ERROR_CODES)) {
      expect(info.advice, code).toMatch(/^\S.*[.)]$/);
      expect(info.advice, code).not.toContain('\n');
    }
  });

  it.each([
    ['HTTP_404', 'fail-url'],
    ['HTTP_410', 'fail-url'],
    ['HTTP_500', 'fail-url'],
    ['HTTP_429', 'retry'],
    ['HTTP_503', 'retry'],
    ['ROBOTS_HTTP_503', 'retry'],
    ['ROBOTS_HTTP_500', 'retry'],
    ['DNS_FAILED', 'fail-url'],
    ['TIMEOUT', 'retry'],
    ['SOMETHING_ELSE', 'fail-url'],
  ] as const)('%s is %s', (code, expected) => {
    expect(errorClass(code)).toBe(expected);
  });

  it('the union is closed: HTTP families take error statuses only', () => {
    expect(isCrawlErrorCode('HTTP_404')).toBe(true);
    expect(isCrawlErrorCode('HTTP_599')).toBe(true);
    expect(isCrawlErrorCode('HTTP_200')).toBe(false);
    expect(isCrawlErrorCode('HTTP_4044')).toBe(false);
    expect(isCrawlErrorCode('ROBOTS_HTTP_503')).toBe(true);
    expect(isCrawlErrorCode('INVALID_PAYLOAD')).toBe(false);
    expect(isCrawlErrorCode('toString')).toBe(false);
    const typed: CrawlErrorCode[] = ['HTTP_404', 'ROBOTS_HTTP_503', 'DISK_FULL'];
    expect(typed.every(isCrawlErrorCode)).toBe(true);
  });

  it('an unknown code is recorded, never retried', () => {
    expect(describeError('FROM_AN_OLDER_VERSION')).toMatchObject({ class: 'fail-url' });
  });
});
