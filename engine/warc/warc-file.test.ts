import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import { indexWarc, verifyWarc, WarcFileWriter } from './warc-file';
import { fetchRecords, payloadDigest, revisitRecords, type WarcFetch } from './warc-records';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0, 0);
const KINDS = [
  { name: 'crawl.warc.gz', gzip: true },
  { name: 'crawl.warc', gzip: false },
];

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'crawlbench-warc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fetch of `url` at T0 + `minutes`; `bodyBytes` of text (words, so it compresses like a page). */
function fetchOf(url: string, minutes = 0, bodyBytes = 600): WarcFetch {
  const words = ['archive', 'crawl', 'record', 'payload', 'digest', 'member', 'gzip', 'index'];
  let body = `<html><title>${url}</title>`;
  for (let index = 0; body.length < bodyBytes; index += 1) body += `${words[(index * 7 + url.length) % words.length]}${index % 13} `;
  return {
    url,
    fetchedAtMs: T0 + minutes * 60_000,
    status: 200,
    responseHeadersJson: JSON.stringify({ 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'br' }),
    requestHeaders: { 'user-agent': 'Crawlbench/test' },
    body: Buffer.from(body.slice(0, bodyBytes)),
    truncated: false,
  };
}

/** Every record start of a WARC and its size, by warcio's parser. */
async function recordStarts(file: string): Promise<{ starts: number[]; size: number }> {
  const bytes = await readFile(file);
  const parser = new WARCParser([bytes]);
  const starts: number[] = [];
  for await (const record of parser) {
    starts.push(parser.offset);
    await record.readFully(false);
  }
  return { starts, size: bytes.length };
}

/** The byte offset where the second record of `bytes` starts (a fetch's response). */
async function secondRecordOffset(bytes: Uint8Array): Promise<number> {
  const parser = new WARCParser([bytes]);
  const offsets: number[] = [];
  for await (const record of parser) {
    offsets.push(parser.offset);
    await record.skipFully();
  }
  return offsets[1]!;
}

describe('WarcFileWriter', () => {
  it.each(KINDS)('writes warcinfo, fetches and a revisit to $name; every digest verifies; the CDXJ is sorted and points at the records', async ({ name, gzip }) => {
    const file = path.join(dir, name);
    const writer = await WarcFileWriter.open(file, { operator: 'tests' });
    expect(writer.gzip).toBe(gzip);
    expect(writer.repairedBytes).toBe(0);
    // Fetched out of urlkey order, so the index has to sort.
    const fetches = [fetchOf('http://b.example/', 0), fetchOf('http://a.example/z', 1), fetchOf('http://www.a.example/a?y=2&x=1', 2, 30_000)];
    const digests: string[] = [];
    for (const fetch of fetches) {
      const { bytes, payloadDigest: digest } = await fetchRecords(fetch, { gzip });
      digests.push(digest);
      await writer.append(bytes);
    }
    const again = { ...fetches[2]!, fetchedAtMs: T0 + 60 * 60_000 };
    await writer.append(await revisitRecords(again, { url: fetches[2]!.url, fetchedAtMs: fetches[2]!.fetchedAtMs }, digests[2]!, { gzip }));
    expect(writer.appended).toBe(8);
    await writer.close();
    await expect(writer.append(new Uint8Array())).rejects.toThrow(/closed/);

    const { records, digestFailures } = await verifyWarc(file);
    expect(digestFailures).toBe(0);
    expect(records.map((record) => record.type)).toEqual(['warcinfo', 'request', 'response', 'request', 'response', 'request', 'response', 'request', 'revisit']);
    expect(records[0]!.targetUri).toBeNull();
    const responses = records.filter((record) => record.type === 'response');
    expect(responses.map((record) => record.targetUri)).toEqual(fetches.map((fetch) => fetch.url));
    expect(responses.map((record) => record.payloadDigest)).toEqual(digests);
    expect(responses.every((record) => record.payloadDigestOk === true && record.blockDigestOk === true && record.httpStatus === 200)).toBe(true);
    expect(responses.map((record) => record.payloadBytes)).toEqual(fetches.map((fetch) => fetch.body.length));
    const revisit = records.at(-1)!;
    expect(revisit).toMatchObject({ targetUri: fetches[2]!.url, payloadDigest: digests[2], refersToTargetUri: fetches[2]!.url, refersToDate: '2024-05-01T12:02:00.000Z', date: '2024-05-01T13:00:00.000Z', httpStatus: 200, payloadBytes: 0, payloadDigestOk: null, blockDigestOk: true });
    expect(records[7]!.concurrentTo).toEqual([revisit.recordId]);

    // The index: one line per response and revisit, sorted by urlkey then timestamp.
    const lines = (await readFile(`${file}.cdxj`, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const keys = lines.map((line) => line.split(' ', 2).join(' '));
    expect(keys).toEqual(['example,a)/a?x=1&y=2 20240501120200', 'example,a)/a?x=1&y=2 20240501130000', 'example,a)/z 20240501120100', 'example,b)/ 20240501120000']);
    expect([...keys].sort()).toEqual(keys);
    const { starts, size } = await recordStarts(file);
    const bytes = await readFile(file);
    for (const line of lines) {
      const json = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, string>;
      expect(json['filename']).toBe(name);
      expect(json['status']).toBe('200');
      const offset = Number(json['offset']);
      const length = Number(json['length']);
      // Each record runs exactly from one record start to the next (or the end of the file).
      expect(starts).toContain(offset);
      expect([...starts, size]).toContain(offset + length);
      const slice = bytes.subarray(offset, offset + length);
      const found: { type: string; uri: string | null | undefined }[] = [];
      for await (const record of new WARCParser([slice])) {
        found.push({ type: record.warcType, uri: record.warcTargetURI });
        await record.readFully(false);
      }
      expect(found).toEqual([{ type: json['mime'] === 'warc/revisit' ? 'revisit' : 'response', uri: json['url'] }]);
      if (json['mime'] !== 'warc/revisit') expect(json['mime']).toBe('text/html');
      expect(`sha1:${json['digest']}`).toBe(digests[fetches.findIndex((fetch) => fetch.url === json['url'])]);
    }
  });

  it.each(KINDS)('cuts a half-written fetch off the end of $name on reopen, keeps the 3 complete ones, and appends after them', async ({ name, gzip }) => {
    const file = path.join(dir, name);
    const first = await WarcFileWriter.open(file, {});
    for (let index = 1; index <= 3; index += 1) await first.append((await fetchRecords(fetchOf(`http://example.com/${index}`, index), { gzip })).bytes);
    await first.close();
    const complete = await readFile(file);
    // A 4th fetch with a 40 KB body, so its gzip member is more than one inflate output chunk.
    const fourth = (await fetchRecords(fetchOf('http://example.com/4', 4, 40_000), { gzip })).bytes;
    const requestEnd = await secondRecordOffset(fourth);
    // Half of the fetch's bytes, half of its response record, and the edges: a byte, the request
    // all but its last byte, the request whole, the response all but its CRLF CRLF end or last byte.
    const cuts = [Math.floor(fourth.length / 2), requestEnd + Math.floor((fourth.length - requestEnd) / 2), 1, requestEnd - 1, requestEnd, requestEnd + 10, fourth.length - 3, fourth.length - 1];
    for (const cut of cuts) {
      // The request record is whole once the cut is past its end: it stays, as a record of its own.
      const keptRequest = cut >= requestEnd;
      await writeFile(file, complete);
      await appendFile(file, fourth.subarray(0, cut));
      const writer = await WarcFileWriter.open(file, { operator: 'second run' });
      expect(writer.repairedBytes, `cut at ${cut}`).toBe(keptRequest ? cut - requestEnd : cut);
      expect(writer.bytes).toBe(complete.length + (keptRequest ? requestEnd : 0));
      await writer.append((await fetchRecords(fetchOf('http://example.com/5', 5), { gzip })).bytes);
      expect(writer.appended).toBe(2);
      await writer.close();
      const { records, digestFailures } = await verifyWarc(file);
      expect(digestFailures, `cut at ${cut}`).toBe(0);
      expect(records.filter((record) => record.type === 'warcinfo')).toHaveLength(1);
      expect(records.filter((record) => record.type === 'response').map((record) => record.targetUri)).toEqual(['http://example.com/1', 'http://example.com/2', 'http://example.com/3', 'http://example.com/5']);
      expect(records.filter((record) => record.type === 'request').map((record) => record.targetUri)).toEqual([
        'http://example.com/1',
        'http://example.com/2',
        'http://example.com/3',
        ...(keptRequest ? ['http://example.com/4'] : []),
        'http://example.com/5',
      ]);
      expect((await readFile(`${file}.cdxj`, 'utf8')).trimEnd().split('\n')).toHaveLength(4);
    }
  });

  it.each(KINDS)('starts over a $name whose warcinfo was cut short', async ({ name }) => {
    const file = path.join(dir, name);
    const writer = await WarcFileWriter.open(file, {});
    await writer.close();
    const whole = await readFile(file);
    await writeFile(file, whole.subarray(0, 20));
    const reopened = await WarcFileWriter.open(file, { operator: 'again' });
    expect(reopened.repairedBytes).toBe(20);
    await reopened.close();
    const { records } = await verifyWarc(file);
    expect(records.map((record) => record.type)).toEqual(['warcinfo']);
  });

  it('fails clearly when the folder does not exist, and creates nothing', async () => {
    const file = path.join(dir, 'missing', 'crawl.warc.gz');
    await expect(WarcFileWriter.open(file, {})).rejects.toThrow(/does not exist/);
    await expect(readFile(file)).rejects.toThrow();
  });

  it('refuses a file that is not a WARC of its name, and leaves it unchanged', async () => {
    const notes = path.join(dir, 'notes.warc');
    await writeFile(notes, 'hello world\n');
    await expect(WarcFileWriter.open(notes, {})).rejects.toThrow(/not a WARC/);
    expect(await readFile(notes, 'utf8')).toBe('hello world\n');

    const plainNamedGz = path.join(dir, 'plain.warc.gz');
    await writeFile(plainNamedGz, (await fetchRecords(fetchOf('http://example.com/'))).bytes);
    await expect(WarcFileWriter.open(plainNamedGz, {})).rejects.toThrow(/rename it to \.warc/);

    const gzipNamedPlain = path.join(dir, 'gzip.warc');
    await writeFile(gzipNamedPlain, (await fetchRecords(fetchOf('http://example.com/'), { gzip: true })).bytes);
    await expect(WarcFileWriter.open(gzipNamedPlain, {})).rejects.toThrow(/rename it to \.warc\.gz/);

    const otherGzip = path.join(dir, 'other.warc.gz');
    const content = gzipSync(randomBytes(200_000));
    await writeFile(otherGzip, content);
    await expect(WarcFileWriter.open(otherGzip, {})).rejects.toThrow(/no complete WARC record/);
    expect((await readFile(otherGzip)).equals(content)).toBe(true);
  });

  it('counts and accepts copied whole records, refuses bytes that are not whole records, and keeps writing after a refusal', async () => {
    const file = path.join(dir, 'crawl.warc.gz');
    const writer = await WarcFileWriter.open(file, {});
    const { bytes } = await fetchRecords(fetchOf('http://example.com/a'), { gzip: true });
    await writer.append(bytes.slice());
    expect(writer.appended).toBe(2);
    const size = writer.bytes;
    await expect(writer.append(bytes.subarray(0, bytes.length - 5))).rejects.toThrow(/not whole WARC records/);
    await expect(writer.append(Buffer.from('not a WARC record'))).rejects.toThrow(/plain WARC bytes/);
    await expect(writer.append((await fetchRecords(fetchOf('http://example.com/b'))).bytes)).rejects.toThrow(/plain WARC bytes/);
    expect(writer.bytes).toBe(size);
    await writer.append((await fetchRecords(fetchOf('http://example.com/c'), { gzip: true })).bytes);
    expect(writer.appended).toBe(4);
    // A count given by the caller (bytes posted from a worker) is taken as it is.
    await writer.append((await fetchRecords(fetchOf('http://example.com/d'), { gzip: true })).bytes.slice(), 2);
    expect(writer.appended).toBe(6);
    await expect(writer.append(bytes, -1)).rejects.toThrow(RangeError);
    await writer.close();
    const { records, digestFailures } = await verifyWarc(file);
    expect(digestFailures).toBe(0);
    expect(records.filter((record) => record.type === 'response').map((record) => record.targetUri)).toEqual(['http://example.com/a', 'http://example.com/c', 'http://example.com/d']);
  });

  it('writes appends made without waiting in call order', async () => {
    const file = path.join(dir, 'crawl.warc');
    const writer = await WarcFileWriter.open(file, {});
    const built = await Promise.all(Array.from({ length: 12 }, (_, index) => fetchRecords(fetchOf(`http://example.com/${index}`, index, 200 + index * 997))));
    await Promise.all(built.map(({ bytes }) => writer.append(bytes)));
    const closed = writer.close();
    expect(writer.close()).toBe(closed);
    await closed;
    const { records } = await verifyWarc(file);
    expect(records.filter((record) => record.type === 'response').map((record) => record.targetUri)).toEqual(built.map((_, index) => `http://example.com/${index}`));
  });
});

describe('verifyWarc', () => {
  it('counts a payload changed after writing as two digest failures (payload and block)', async () => {
    const file = path.join(dir, 'crawl.warc');
    const writer = await WarcFileWriter.open(file, {});
    const fetch = fetchOf('http://example.com/tampered');
    await writer.append((await fetchRecords(fetch)).bytes);
    await writer.append((await fetchRecords(fetchOf('http://example.com/intact'))).bytes);
    await writer.close();
    const bytes = await readFile(file);
    const at = bytes.indexOf(Buffer.from(fetch.body).subarray(100, 120));
    expect(at).toBeGreaterThan(0);
    bytes[at] = bytes[at]! ^ 0x20;
    await writeFile(file, bytes);
    const { records, digestFailures } = await verifyWarc(file);
    expect(digestFailures).toBe(2);
    const [tampered, intact] = records.filter((record) => record.type === 'response');
    expect(tampered).toMatchObject({ targetUri: 'http://example.com/tampered', payloadDigestOk: false, blockDigestOk: false });
    expect(intact).toMatchObject({ targetUri: 'http://example.com/intact', payloadDigestOk: true, blockDigestOk: true });
    expect(tampered!.payloadDigest).toBe(payloadDigest(fetch.body));
  });
});

describe('reading a WARC whose last record was cut short', () => {
  it.each(KINDS)('verifies and indexes the $name to its end without hanging, reporting the short record', async ({ name, gzip }) => {
    const file = path.join(dir, name);
    const whole = (await fetchRecords(fetchOf('http://example.com/whole'), { gzip })).bytes;
    const cut = (await fetchRecords(fetchOf('http://example.com/cut', 1, 40_000), { gzip })).bytes;
    // Ten bytes short: into the block of a plain record (past its CRLF CRLF end), into the member of a gzip one.
    await writeFile(file, Buffer.concat([whole, cut.subarray(0, cut.length - 10)]));
    const { records, digestFailures } = await verifyWarc(file);
    expect(records.slice(0, 3).map((record) => [record.type, record.targetUri])).toEqual([
      ['request', 'http://example.com/whole'],
      ['response', 'http://example.com/whole'],
      ['request', 'http://example.com/cut'],
    ]);
    const last = records[3];
    if (last) {
      // The short block: its digests cannot match.
      expect(last.blockBytes).toBeLessThan(last.contentLength);
      expect(last.blockDigestOk).toBe(false);
      expect(digestFailures).toBeGreaterThan(0);
    }
    expect(await indexWarc(file, path.join(dir, 'cut.cdxj'))).toBeGreaterThanOrEqual(1);
  });
});

describe('indexWarc', () => {
  it.each(KINDS)('indexes the responses of a $name without warcinfo and returns the line count', async ({ name, gzip }) => {
    const file = path.join(dir, name);
    const parts = await Promise.all(['http://example.com/c', 'http://example.com/a', 'http://example.com/b'].map(async (url, index) => (await fetchRecords(fetchOf(url, index), { gzip })).bytes));
    await writeFile(file, Buffer.concat(parts));
    const cdxj = path.join(dir, 'index.cdxj');
    expect(await indexWarc(file, cdxj)).toBe(3);
    const lines = (await readFile(cdxj, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['com,example)/a', 'com,example)/b', 'com,example)/c']);
    const { starts, size } = await recordStarts(file);
    // Responses are the 2nd, 4th and 6th records; a/b/c were written 2nd, 3rd, 1st.
    const spans = lines.map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { offset: string; length: string });
    expect(spans.map(({ offset, length }) => [Number(offset), Number(offset) + Number(length)])).toEqual([
      [starts[3], starts[4]],
      [starts[5], size],
      [starts[1], starts[2]],
    ]);
  });
});
