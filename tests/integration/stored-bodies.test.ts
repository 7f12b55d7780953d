/**
 * Issue 14 part 1 end to end through the crawl service: each fetched body kept brotli-compressed
 * in `page_bodies` (byte for byte what the server sent, after Content-Encoding), cut at the
 * per-body cap, refused past the per-crawl cap, not kept at all with storeBodies off, and shown by
 * the inspector's source view decoded in the page's own charset.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSource } from '../../app/services/page-source';
import { bodyBytes, payloadDigest } from '../../engine/bodies/stored-body';
import { InspectorQueries } from '../../engine/store/sqlite/queries/inspector-queries';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { crawlFixtures } from './harness';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.stop();
});

/** The bytes the fixture server sends for host + path (Content-Encoding decoded by undici's caller: none here). */
async function served(host: string, path: string): Promise<Buffer> {
  const response = await request(`http://127.0.0.1:${fixtures.port}${path}`, { headers: { host } });
  return Buffer.from(await response.body.arrayBuffer());
}

interface BodyRow {
  url: string;
  status: number;
  encoding: string | null;
  rawBytes: number | null;
  truncated: number | null;
  digest: string | null;
  body: Buffer | null;
}

function bodies(db: WritableDB, crawlId: number): BodyRow[] {
  return db
    .prepare(
      `SELECT u.url, p.http_status AS status, b.encoding, b.raw_bytes AS rawBytes, b.truncated, b.payload_digest AS digest, b.body
       FROM pages p JOIN urls u ON u.id = p.url_id LEFT JOIN page_bodies b ON b.url_id = p.url_id WHERE u.crawl_id = ? ORDER BY u.url`,
    )
    .all(crawlId) as BodyRow[];
}

describe('stored bodies (issue 14 part 1)', () => {
  it('keeps every fetched body byte for byte, compressed, with its digest; a redirect keeps none', async () => {
    const { db, crawlId } = await crawlFixtures(fixtures, ['http://charset.test/', 'http://site.test/']);
    const rows = bodies(db, crawlId);
    const redirects = rows.filter((row) => row.status >= 300 && row.status < 400);
    expect(redirects.length).toBeGreaterThan(0);
    for (const row of redirects) expect(row.body).toBeNull();
    const kept = rows.filter((row) => row.body !== null);
    expect(kept.map((row) => row.url)).toEqual(expect.arrayContaining(['http://charset.test/sjis.html', 'http://charset.test/cp1252.html', 'http://site.test/']));
    for (const row of kept) {
      const url = new URL(row.url);
      const expected = await served(url.host, url.pathname + url.search);
      const bytes = bodyBytes(row.encoding!, row.body!);
      expect(bytes.equals(expected), row.url).toBe(true);
      expect(row).toMatchObject({ encoding: 'br', rawBytes: expected.length, truncated: 0, digest: payloadDigest(expected) });
    }
    // The 404 page's body is kept too (an error page is worth reading).
    expect(rows.find((row) => row.status === 404)?.body).not.toBeNull();
    db.close();
  });

  it('shows the source decoded in the page’s own charset, and says why a redirect has none', async () => {
    const { db, crawlId } = await crawlFixtures(fixtures, ['http://charset.test/', 'http://site.test/']);
    const queries = new InspectorQueries(db);
    const idOf = (url: string) => (db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND url = ?`).pluck().get(crawlId, url) as number);
    const sjis = pageSource(queries, crawlId, idOf('http://charset.test/sjis.html'), DEFAULT_CRAWL_SETTINGS);
    expect(sjis).toMatchObject({ stored: true, charset: 'shift_jis', binary: false, truncated: false });
    expect(sjis.stored && sjis.text).toContain('<title>日本語</title>');
    const redirect = db.prepare(`SELECT u.id FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.crawl_id = ? AND p.location IS NOT NULL LIMIT 1`).pluck().get(crawlId) as number;
    expect(pageSource(queries, crawlId, redirect, DEFAULT_CRAWL_SETTINGS)).toMatchObject({ stored: false, reason: expect.stringContaining('redirect') });
    expect(() => pageSource(queries, crawlId, 999_999, DEFAULT_CRAWL_SETTINGS)).toThrow(expect.objectContaining({ code: 'URL_NOT_FOUND' }));
    db.close();
  });

  it('cuts a body at maxStoredBodyBytes and marks it truncated', async () => {
    const { db, crawlId } = await crawlFixtures(fixtures, ['http://dup.test/near-1.html'], { maxPages: 1, maxStoredBodyBytes: 1024 });
    const [row] = bodies(db, crawlId).filter((r) => r.body !== null);
    const whole = await served('dup.test', '/near-1.html');
    expect(whole.length).toBeGreaterThan(1024);
    expect(row).toMatchObject({ rawBytes: 1024, truncated: 1, digest: payloadDigest(whole.subarray(0, 1024)) });
    expect(bodyBytes(row!.encoding!, row!.body!).equals(whole.subarray(0, 1024))).toBe(true);
    db.close();
  });

  it('keeps no more than maxStoredBodiesBytes in all, and none with storeBodies off', async () => {
    const capped = await crawlFixtures(fixtures, ['http://charset.test/'], { maxStoredBodiesBytes: 0 });
    const cappedRows = bodies(capped.db, capped.crawlId);
    expect(cappedRows.length).toBeGreaterThan(1);
    expect(cappedRows.filter((row) => row.body !== null)).toEqual([]);
    const firstId = capped.db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND url = 'http://charset.test/'`).pluck().get(capped.crawlId) as number;
    expect(pageSource(new InspectorQueries(capped.db), capped.crawlId, firstId, { storeBodies: true })).toMatchObject({ stored: false, reason: expect.stringContaining('cap') });
    capped.db.close();

    const off = await crawlFixtures(fixtures, ['http://charset.test/'], { storeBodies: false });
    expect(bodies(off.db, off.crawlId).filter((row) => row.body !== null)).toEqual([]);
    expect(off.db.prepare(`SELECT count(*) FROM page_bodies`).pluck().get()).toBe(0);
    off.db.close();
  });
});
