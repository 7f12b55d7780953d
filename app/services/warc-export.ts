/**
 * `export --what warc` (issue 14 part 6): a crawl's stored bodies (issue 14 part 1) written as a
 * WARC/1.1 file with warcio, no fetch needed: per page a request and a response record, or a
 * request and a revisit record when an earlier page of the export had the same payload (WARC/1.1
 * §6.7, identical-payload-digest profile, the digest stored with each body); then the CDXJ index
 * beside it. Pages fetched without a kept body (bodies off, past the cap, redirects) are not in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BodyQueries, RevisitIndex, WarcFileWriter, bodyBytes, fetchRecords, requestHeaders, revisitRecords, type ReadableDB } from '../../engine';
import type { CrawlSettings } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';

/** What an export wrote. */
export interface WarcExportResult {
  /** Response records (whole payloads). */
  responses: number;
  /** Revisit records (payloads archived earlier in the file). */
  revisits: number;
  /** The finished file's size, bytes. */
  bytes: number;
}

/**
 * Writes crawl `crawlId`'s stored bodies to the new WARC file `file` (gzip members when it ends in
 * .gz) and its CDXJ index `file.cdxj`; a failed export removes both (the WARC is written under its
 * own name: its warcinfo record and index lines name the file).
 * @param settings the crawl's settings (its user agent is what the request records state)
 * @param onProgress called after each page with the pages written so far and the total
 * @throws CodedError EXPORT_EXISTS (the file or its index exists), NO_STORED_BODIES (the crawl kept
 *   none: crawled with --no-store-bodies, or before bodies were kept), BODY_UNREADABLE; fs errors (ENOSPC …)
 */
export async function exportWarc(
  db: ReadableDB,
  crawlId: number,
  file: string,
  settings: Pick<CrawlSettings, 'userAgent' | 'obeyRobots'>,
  onProgress?: (done: number, total: number) => void,
): Promise<WarcExportResult> {
  const target = path.resolve(file);
  const index = `${target}.cdxj`;
  for (const name of [target, index]) if (fs.existsSync(name)) throw new CodedError('EXPORT_EXISTS', `${name} exists already (choose another --out file)`);
  const queries = new BodyQueries(db);
  const total = queries.count(crawlId);
  if (total === 0) throw new CodedError('NO_STORED_BODIES', `Crawl ${crawlId} kept no page bodies (crawled with --no-store-bodies, or before bodies were kept): crawl again to export a WARC, or use crawl --warc FILE while crawling`);
  const gzip = /\.gz$/i.test(target);
  const headers = requestHeaders(settings.userAgent);
  const revisits = new RevisitIndex();
  const result = { responses: 0, revisits: 0, bytes: 0 };
  let writer: WarcFileWriter | null = null;
  try {
    writer = await WarcFileWriter.open(target, { software: 'Crawlbench 0.1.0', robots: settings.obeyRobots ? 'obey' : 'ignore', 'http-header-user-agent': settings.userAgent, description: `crawl ${crawlId}, exported from stored bodies` });
    let done = 0;
    for (const fetch of queries.fetches(crawlId)) {
      const common = { url: fetch.url, fetchedAtMs: fetch.fetchedAtMs, status: fetch.status, responseHeadersJson: fetch.responseHeadersJson ?? '', requestHeaders: headers };
      const original = revisits.revisitOf(fetch.payloadDigest, fetch.rawBytes, { url: fetch.url, fetchedAtMs: fetch.fetchedAtMs });
      if (original) {
        await writer.append(await revisitRecords(common, original, fetch.payloadDigest, { gzip }));
        result.revisits += 1;
      } else {
        let body: Buffer;
        try {
          body = bodyBytes(fetch.encoding, fetch.body);
        } catch (error) {
          throw new CodedError('BODY_UNREADABLE', `The stored body of ${fetch.url} cannot be read (${error instanceof Error ? error.message : String(error)}); re-fetch it, or export without it`);
        }
        await writer.append((await fetchRecords({ ...common, body, truncated: fetch.truncated }, { gzip })).bytes);
        result.responses += 1;
      }
      done += 1;
      onProgress?.(done, total);
    }
    await writer.close();
    writer = null;
    result.bytes = fs.statSync(target).size;
    return result;
  } catch (error) {
    // Written under its own name (the WARC names itself in its warcinfo record and index lines): a failed export removes both.
    if (writer) await writer.close().catch(() => undefined);
    fs.rmSync(target, { force: true });
    fs.rmSync(index, { force: true });
    throw error;
  }
}
