/**
 * Issue 14 part 6 end to end through the CLI: `crawl --warc FILE.warc.gz` archives every fetch as
 * it happens, `resume --warc` goes on in the same file, and `export --what warc` writes the same
 * fetches from the stored bodies. Each file is read back with warcio (engine/warc verifyWarc): one
 * response (or revisit) record per fetched URL, every digest recomputed and matching, a revisit for
 * the payload served twice, and a sorted CDXJ index whose offsets point at the records.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { WARCParser } from 'warcio';
import { describe, expect, it } from 'vitest';
import { verifyWarc, type VerifiedRecord } from '../../engine/warc/warc-file';
import { crawlbenchAsync, useTestWeb } from './harness';

const testWeb = useTestWeb('warc');

/** Final URLs of the crawl's fetched pages (every answer, redirects and 404s included). */
function fetchedUrls(db: string): string[] {
  const reader = new BetterSqlite3(db, { readonly: true });
  const urls = reader.prepare(`SELECT final_url FROM pages ORDER BY final_url`).pluck().all() as string[];
  reader.close();
  return urls;
}

/** The records that archive a fetch's answer (response or revisit), by target URI. */
function answers(records: VerifiedRecord[]): VerifiedRecord[] {
  return records.filter((record) => record.type === 'response' || record.type === 'revisit');
}

/** Checks the CDXJ index beside `warc`: sorted lines, one per answer, each offset/length one record of that URI. */
async function checkIndex(warc: string, expected: number): Promise<void> {
  const lines = fs.readFileSync(`${warc}.cdxj`, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(expected);
  expect([...lines].sort()).toEqual(lines);
  const bytes = fs.readFileSync(warc);
  for (const line of lines) {
    const fields = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string };
    const slice = bytes.subarray(Number(fields.offset), Number(fields.offset) + Number(fields.length));
    const records = [];
    for await (const record of new WARCParser([slice])) {
      records.push(record.warcTargetURI);
      await record.readFully();
    }
    expect(records).toEqual([fields.url]);
  }
}

describe('WARC output (issue 14 part 6)', () => {
  it('crawl --warc archives every fetch as it happens: digests verify, the repeated payload is a revisit, the CDXJ points at each record', async () => {
    const db = path.join(testWeb.dir, 'live.db');
    const warc = path.join(testWeb.dir, 'live.warc.gz');
    const run = await crawlbenchAsync(['crawl', 'http://archive.test/', '--db', db, '--warc', warc, ...testWeb.web.resolveFlags, '--closed', '--delay-factor', '0']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warc: 6 responses and 1 revisits/);
    const { records, digestFailures } = await verifyWarc(warc);
    expect(digestFailures).toBe(0);
    expect(records[0]!.type).toBe('warcinfo');
    const archived = answers(records);
    expect(archived.map((r) => r.targetUri).sort()).toEqual(fetchedUrls(db));
    expect(records.filter((r) => r.type === 'request')).toHaveLength(archived.length);
    const revisit = archived.find((r) => r.type === 'revisit')!;
    const original = archived.find((r) => r.type === 'response' && r.payloadDigest === revisit.payloadDigest)!;
    expect([revisit.targetUri, original.targetUri].sort()).toEqual(['http://archive.test/print/story.html', 'http://archive.test/story.html']);
    expect(revisit).toMatchObject({ refersToTargetUri: original.targetUri, refersToDate: original.date, httpStatus: 200 });
    // The gzip-encoded page is archived decoded, its headers saying so; the redirect and the 404 with their statuses.
    expect(archived.find((r) => r.targetUri === 'http://archive.test/gz.html')).toMatchObject({ httpStatus: 200, payloadDigestOk: true, truncated: null });
    expect(archived.find((r) => r.targetUri === 'http://archive.test/old')?.httpStatus).toBe(301);
    expect(archived.find((r) => r.targetUri === 'http://archive.test/gone.html')?.httpStatus).toBe(404);
    await checkIndex(warc, archived.length);
  });

  it('resume --warc goes on in the same file, and export --what warc writes the same fetches from the stored bodies', async () => {
    const db = path.join(testWeb.dir, 'resumed.db');
    const warc = path.join(testWeb.dir, 'resumed.warc.gz');
    const first = await crawlbenchAsync(['crawl', 'http://archive.test/', '--db', db, '--warc', warc, '--max-pages', '2', ...testWeb.web.resolveFlags, '--closed', '--delay-factor', '0', '--threads', '1']);
    expect(first.status, first.stderr).toBe(0);
    const afterFirst = answers((await verifyWarc(warc)).records).length;
    expect(afterFirst).toBeGreaterThanOrEqual(2);
    expect(afterFirst).toBeLessThan(7);
    const second = await crawlbenchAsync(['resume', '--db', db, '--warc', warc, '--max-pages', '0', ...testWeb.web.resolveFlags, '--closed']);
    expect(second.status, second.stderr).toBe(0);
    const resumed = await verifyWarc(warc);
    expect(resumed.digestFailures).toBe(0);
    expect(resumed.records.filter((r) => r.type === 'warcinfo')).toHaveLength(1);
    expect(answers(resumed.records).map((r) => r.targetUri).sort()).toEqual(fetchedUrls(db));
    await checkIndex(warc, 7);

    const exported = path.join(testWeb.dir, 'exported.warc.gz');
    const run = await crawlbenchAsync(['export', '--db', db, '--what', 'warc', '--out', exported]);
    expect(run.status, run.stderr).toBe(0);
    const fromBodies = await verifyWarc(exported);
    expect(fromBodies.digestFailures).toBe(0);
    // The redirect kept no body: the export holds the other six fetches, the repeated payload as a revisit.
    const exportedAnswers = answers(fromBodies.records);
    expect(exportedAnswers.map((r) => r.targetUri).sort()).toEqual(fetchedUrls(db).filter((url) => url !== 'http://archive.test/old'));
    expect(exportedAnswers.filter((r) => r.type === 'revisit')).toHaveLength(1);
    const live = new Map(answers(resumed.records).filter((r) => r.type === 'response').map((r) => [r.targetUri, r.payloadDigest]));
    for (const record of exportedAnswers.filter((r) => r.type === 'response')) expect(record.payloadDigest).toBe(live.get(record.targetUri) ?? record.payloadDigest);
    await checkIndex(exported, 6);
    // An existing file is never overwritten.
    expect((await crawlbenchAsync(['export', '--db', db, '--what', 'warc', '--out', exported])).stderr).toMatch(/EXPORT_EXISTS/);
  });

  it('refuses a WARC path in a missing folder before crawling, with a code', async () => {
    const run = await crawlbenchAsync(['crawl', 'http://archive.test/', '--db', path.join(testWeb.dir, 'nowarc.db'), '--warc', path.join(testWeb.dir, 'missing', 'x.warc.gz'), ...testWeb.web.resolveFlags, '--closed']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/WARC_OPEN_FAILED/);
  });
});
