import { describe, expect, it } from 'vitest';
import type { PageResult } from '../worker/protocol';
import type { WarcFileWriter } from './warc-file';
import { fetchRecords } from './warc-records';
import { WarcSink } from './warc-sink';

/** A WarcFileWriter stand-in: keeps what is appended, or fails from the `failAt`-th append on. */
function fakeFile(failAt = Infinity): { file: WarcFileWriter; appended: Uint8Array[] } {
  const appended: Uint8Array[] = [];
  const file = {
    gzip: false,
    async append(bytes: Uint8Array) {
      if (appended.length + 1 >= failAt) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      appended.push(bytes);
    },
  } as unknown as WarcFileWriter;
  return { file, appended };
}

async function page(url: string, body: string, status = 200): Promise<PageResult> {
  const bytes = Buffer.from(body);
  const fetchedAtMs = Date.parse('2026-11-23T12:00:00Z');
  const built = await fetchRecords({ url, fetchedAtMs, status, responseHeadersJson: '{"content-type":"text/html"}', requestHeaders: { 'user-agent': 'test' }, body: bytes, truncated: false });
  return { finalUrl: url, status, bodyBytes: bytes.length, responseHeadersJson: '{"content-type":"text/html"}', warc: { bytes: built.bytes, records: 2, payloadDigest: built.payloadDigest, fetchedAtMs } } as PageResult;
}

describe('WarcSink', () => {
  it('appends the worker’s records, and a revisit pair for a payload it archived before (empty payloads never)', async () => {
    const { file, appended } = fakeFile();
    const sink = new WarcSink(file);
    sink.attach({ requestHeaders: { 'user-agent': 'test' }, onError: () => expect.fail('no error expected') });
    const first = await page('http://a.test/story', '<p>same</p>');
    sink.record(first);
    sink.record(await page('http://a.test/print/story', '<p>same</p>'));
    sink.record(await page('http://a.test/old', '', 301));
    sink.record(await page('http://a.test/older', '', 301));
    await sink.flush();
    expect(sink.counts).toEqual({ responses: 3, revisits: 1 });
    expect(appended[0]).toBe(first.warc!.bytes);
    const revisit = Buffer.from(appended[1]!).toString('latin1');
    expect(revisit).toContain('WARC-Type: revisit');
    expect(revisit).toContain('WARC-Refers-To-Target-URI: http://a.test/story');
    expect(revisit).toContain(`WARC-Payload-Digest: ${first.warc!.payloadDigest}`);
  });

  it('reports a failed append once, and writes nothing after it', async () => {
    const { file, appended } = fakeFile(2);
    const errors: Error[] = [];
    const sink = new WarcSink(file);
    sink.attach({ requestHeaders: {}, onError: (error) => errors.push(error) });
    for (const n of [1, 2, 3]) sink.record(await page(`http://a.test/${n}`, `<p>${n}</p>`));
    await sink.flush();
    sink.record(await page('http://a.test/4', '<p>4</p>'));
    await sink.flush();
    expect(errors.map((error) => error.message)).toEqual(['no space left on device']);
    expect(appended).toHaveLength(1);
  });
});
