import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WARCParser, WARCRecord, WARCSerializer, type WARCRecord as WarcioRecord } from 'warcio';
import { base32 } from '../bodies/stored-body';
import { builtRecordCount, DECODED_CONTENT_ENCODING_HEADER, fetchRecords, HEADERS_CUT_HEADER, payloadDigest, revisitRecords, WARC_DIGEST, warcinfoRecord, type WarcFetch } from './warc-records';

const FETCHED_AT = Date.UTC(2024, 4, 1, 12, 0, 0, 123);

function page(overrides: Partial<WarcFetch> = {}): WarcFetch {
  return {
    url: 'http://example.com:8080/a/b?q=1&r=2#section',
    fetchedAtMs: FETCHED_AT,
    status: 200,
    responseHeadersJson: JSON.stringify({ 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': '31', 'transfer-encoding': 'chunked', 'set-cookie': 'a=1, b=2' }),
    requestHeaders: { 'user-agent': 'Crawlbench/0.1', accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' },
    body: Buffer.from('<html><body>Hello, archive</body></html>'),
    truncated: false,
    ...overrides,
  };
}

/** Every record of `bytes`, read with warcio (HTTP heads parsed), with its raw payload. */
async function readRecords(bytes: Uint8Array): Promise<{ record: WarcioRecord; payload: Uint8Array; offset: number }[]> {
  const parser = new WARCParser([bytes]);
  const out: { record: WarcioRecord; payload: Uint8Array; offset: number }[] = [];
  for await (const record of parser) out.push({ record, offset: parser.offset, payload: await record.readFully(false) });
  return out;
}

/** The raw block of each record (HTTP head + payload), read with warcio without parsing HTTP. */
async function readBlocks(bytes: Uint8Array): Promise<Uint8Array[]> {
  const blocks: Uint8Array[] = [];
  for await (const record of new WARCParser([bytes], { parseHttp: false })) blocks.push(await record.readFully(false));
  return blocks;
}

const sha1Label = (bytes: Uint8Array): string => `sha1:${base32(createHash('sha1').update(bytes).digest())}`;
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
/** The WARC head (version line and fields) of each record of uncompressed `bytes` whose payloads hold no "WARC/1.1" line. */
const warcHeads = (bytes: Uint8Array): string[] => text(bytes).split(/(?=^WARC\/1\.1\r\n)/m).map((record) => record.split('\r\n\r\n')[0]!);

describe('fetchRecords', () => {
  it.each([false, true])('writes a request then a response that warcio reads back (gzip %s)', async (gzip) => {
    const fetch = page();
    const { bytes, payloadDigest: digest } = await fetchRecords(fetch, { gzip });
    const [request, response, ...rest] = await readRecords(bytes);
    expect(rest).toEqual([]);
    expect(request?.record.warcType).toBe('request');
    expect(response?.record.warcType).toBe('response');
    for (const { record } of [request!, response!]) {
      expect(record.warcHeaders.statusline).toBe('WARC/1.1');
      expect(record.warcTargetURI).toBe('http://example.com:8080/a/b?q=1&r=2');
      expect(record.warcDate).toBe('2024-05-01T12:00:00.123Z');
    }
    // The request: GET path+query (no fragment), Host with the port, then the crawler's headers.
    expect(request!.record.httpHeaders?.statusline).toBe('GET /a/b?q=1&r=2 HTTP/1.1');
    expect(request!.record.httpHeaders?.headers.get('host')).toBe('example.com:8080');
    expect(request!.record.httpHeaders?.headers.get('user-agent')).toBe('Crawlbench/0.1');
    expect(request!.record.warcConcurrentTo).toEqual([response!.record.warcHeader('WARC-Record-ID')]);
    expect(request!.record.warcContentType).toBe('application/http; msgtype=request');
    // The response: status line, the decoded body, its digest.
    const http = response!.record.httpHeaders!;
    expect(http.statusline).toBe('HTTP/1.1 200 OK');
    expect(http.statusCode).toBe(200);
    expect(response!.record.warcContentType).toBe('application/http; msgtype=response');
    expect(Buffer.from(response!.payload).equals(Buffer.from(fetch.body))).toBe(true);
    expect(digest).toBe(payloadDigest(fetch.body));
    expect(response!.record.warcPayloadDigest).toBe(digest);
    expect(response!.record.warcHeader('WARC-Truncated')).toBeNull();
    // The block digests match the blocks as written.
    const blocks = await readBlocks(bytes);
    expect(request!.record.warcBlockDigest).toBe(sha1Label(blocks[0]!));
    expect(response!.record.warcBlockDigest).toBe(sha1Label(blocks[1]!));
    if (gzip) {
      // One gzip member per record: the second record starts a member at its offset.
      expect(response!.offset).toBeGreaterThan(0);
      expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
      expect([...bytes.subarray(response!.offset, response!.offset + 2)]).toEqual([0x1f, 0x8b]);
      expect(text(gunzipSync(bytes.subarray(response!.offset)))).toContain('WARC-Type: response');
    } else {
      expect(text(bytes.subarray(0, 9))).toBe('WARC/1.1\r');
    }
    expect(builtRecordCount(bytes)).toBe(2);
    expect(builtRecordCount(bytes.slice())).toBeUndefined();
  });

  it('drops content-encoding and transfer-encoding, sets content-length to the kept body, names the decoded coding', async () => {
    const fetch = page();
    const [, response] = await readRecords((await fetchRecords(fetch)).bytes);
    const headers = response!.record.httpHeaders!.headers;
    expect(headers.get('content-encoding')).toBeNull();
    expect(headers.get('transfer-encoding')).toBeNull();
    expect(headers.get('content-length')).toBe(String(fetch.body.length));
    expect(headers.get(DECODED_CONTENT_ENCODING_HEADER)).toBe('gzip');
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('set-cookie')).toBe('a=1, b=2');
    // warcio reads the payload as the decoded body (it would gunzip it if content-encoding stayed).
    expect(await response!.record.contentText()).toBe('<html><body>Hello, archive</body></html>');
  });

  it('marks a body cut at the size cap WARC-Truncated: length, on the response only', async () => {
    const [request, response] = await readRecords((await fetchRecords(page({ truncated: true }))).bytes);
    expect(response!.record.warcHeader('WARC-Truncated')).toBe('length');
    expect(request!.record.warcHeader('WARC-Truncated')).toBeNull();
  });

  it('writes one WARC-Protocol field per protocol, higher level first, on the request and the response; none when unknown', async () => {
    const { bytes } = await fetchRecords(page({ url: 'https://example.com/', protocols: ['h2', 'tls/1.3'] }));
    // Two field lines in each record's WARC head, in that order (the IIPC extension's layering).
    expect(warcHeads(bytes).map((head) => head.match(/^WARC-Protocol: .*$/gm))).toEqual([
      ['WARC-Protocol: h2', 'WARC-Protocol: tls/1.3'],
      ['WARC-Protocol: h2', 'WARC-Protocol: tls/1.3'],
    ]);
    // warcio reads them back; the HTTP status line stays HTTP/1.1 (the extension's h2 example).
    const [request, response] = await readRecords(bytes);
    for (const { record } of [request!, response!]) expect(record.warcHeader('WARC-Protocol')).toContain('tls/1.3');
    expect(response!.record.httpHeaders?.statusline).toBe('HTTP/1.1 200 OK');
    const [unknownRequest, unknownResponse] = await readRecords((await fetchRecords(page())).bytes);
    expect(unknownRequest!.record.warcHeader('WARC-Protocol')).toBeNull();
    expect(unknownResponse!.record.warcHeader('WARC-Protocol')).toBeNull();
  });

  it('refuses a protocol that is not a WARC-Protocol id (a line break would forge fields)', async () => {
    await expect(fetchRecords(page({ protocols: ['h2\r\nWARC-Type: resource'] }))).rejects.toThrow(RangeError);
    await expect(fetchRecords(page({ protocols: ['HTTP/2'] }))).rejects.toThrow(RangeError);
  });

  it('leaves out header fields it cannot write faithfully, without failing the record', async () => {
    const hostile = {
      'x-ok': 'fine',
      'x-injected': 'a\r\nWARC-Type: metadata',
      'x-lf': 'a\nb',
      'x-nul': 'a\u0000b',
      'x-wide': '中文',
      'x-cut': 'long value…',
      'x-marker': 'a,,,b',
      'bad name': 'v',
      'x-number': 5,
      'x-latin1-utf8': Buffer.from('café').toString('latin1'),
      'x-latin1-not-utf8': '\u00e9t\u00e9',
      ':truncated': '2 of 12 headers cut or left out (16 KiB cap)',
      [DECODED_CONTENT_ENCODING_HEADER]: 'forged',
    };
    const fetch = page({ responseHeadersJson: JSON.stringify(hostile), requestHeaders: { 'user-agent': 'bot\r\nX-Forged: 1', accept: '*/*' } });
    const { bytes } = await fetchRecords(fetch);
    const [request, response] = await readRecords(bytes);
    const names = [...(response!.record.httpHeaders!.headers as Headers).keys()];
    expect(names.sort()).toEqual(['content-length', 'x-crawlbench-headers-truncated', 'x-latin1-utf8', 'x-ok'].sort());
    expect(response!.record.httpHeaders!.headers.get(HEADERS_CUT_HEADER)).toBe('2 of 12 headers cut or left out (16 KiB cap)');
    // The value is written as its original bytes (UTF-8 é), which a latin1 reading gives back.
    const [, responseBlock] = await readBlocks(bytes);
    expect(Buffer.from(responseBlock!).includes(Buffer.from('x-latin1-utf8: caf\u00c3\u00a9', 'latin1'))).toBe(true);
    expect(text(bytes)).not.toContain('WARC-Type: metadata');
    expect(text(bytes)).not.toContain('X-Forged');
    expect([...(request!.record.httpHeaders!.headers as Headers).keys()].sort()).toEqual(['accept', 'host']);
    expect(response!.record.warcType).toBe('response');
  });

  it.each(['', '{not json', '[1,2]', 'null', '"text"'])('archives only its own headers when the stored JSON is %j', async (json) => {
    const fetch = page({ responseHeadersJson: json });
    const [, response] = await readRecords((await fetchRecords(fetch)).bytes);
    expect([...(response!.record.httpHeaders!.headers as Headers).entries()]).toEqual([['content-length', String(fetch.body.length)]]);
  });

  it('writes an empty body, an unknown status with an empty reason, and a non-default https port', async () => {
    const fetch = page({ url: 'https://example.org:8443/', status: 599, body: new Uint8Array(), responseHeadersJson: '{}' });
    const { bytes, payloadDigest: digest } = await fetchRecords(fetch, { gzip: true });
    const [request, response] = await readRecords(bytes);
    expect(request!.record.httpHeaders?.headers.get('host')).toBe('example.org:8443');
    expect(response!.record.httpHeaders?.statusline).toBe('HTTP/1.1 599');
    expect(response!.record.httpHeaders?.statusCode).toBe(599);
    expect(response!.payload.length).toBe(0);
    expect(digest).toBe('sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ');
  });

  it('refuses a URL that is not absolute http(s), a bad status and a bad date', async () => {
    await expect(fetchRecords(page({ url: 'ftp://example.com/x' }))).rejects.toThrow(TypeError);
    await expect(fetchRecords(page({ url: '/relative' }))).rejects.toThrow(TypeError);
    await expect(fetchRecords(page({ status: 42 }))).rejects.toThrow(RangeError);
    await expect(fetchRecords(page({ fetchedAtMs: Number.NaN }))).rejects.toThrow(RangeError);
  });
});

describe('payloadDigest', () => {
  it('is the digest warcio writes for the same payload (sha1, RFC 4648 base32)', async () => {
    const payload = Buffer.from('some payload bytes \u00ff\u0000', 'latin1');
    const record = WARCRecord.create({ url: 'http://example.com/', type: 'resource', warcVersion: 'WARC/1.1' }, [payload]);
    await WARCSerializer.serialize(record, { digest: WARC_DIGEST });
    expect(record.warcPayloadDigest).toBe(payloadDigest(payload));
    // Python: base64.b32encode(hashlib.sha1(b'foobar').digest())
    expect(payloadDigest(Buffer.from('foobar'))).toBe('sha1:RBB5P6JECYQR32PLXFR76THCQESZGKDY');
  });
});

describe('revisitRecords', () => {
  it.each([false, true])('writes a request then an identical-payload-digest revisit with the earlier digest and no payload (gzip %s)', async (gzip) => {
    const earlier = page({ url: 'http://example.com/page', fetchedAtMs: FETCHED_AT - 86_400_000 });
    const { payloadDigest: digest } = await fetchRecords(earlier);
    const now = { url: 'http://example.com/page', fetchedAtMs: FETCHED_AT, status: 200, responseHeadersJson: earlier.responseHeadersJson, requestHeaders: earlier.requestHeaders };
    const bytes = await revisitRecords(now, { url: earlier.url, fetchedAtMs: earlier.fetchedAtMs }, digest, { gzip });
    const [request, revisit, ...rest] = await readRecords(bytes);
    expect(rest).toEqual([]);
    expect(request!.record.warcType).toBe('request');
    expect(revisit!.record.warcType).toBe('revisit');
    expect(request!.record.warcConcurrentTo).toEqual([revisit!.record.warcHeader('WARC-Record-ID')]);
    expect(revisit!.record.warcHeader('WARC-Profile')).toBe('http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
    expect(revisit!.record.warcRefersToTargetURI).toBe('http://example.com/page');
    expect(revisit!.record.warcRefersToDate).toBe('2024-04-30T12:00:00.123Z');
    expect(revisit!.record.warcDate).toBe('2024-05-01T12:00:00.123Z');
    expect(revisit!.record.warcPayloadDigest).toBe(digest);
    expect(revisit!.record.httpHeaders?.statusCode).toBe(200);
    expect(revisit!.payload.length).toBe(0);
    const headers = revisit!.record.httpHeaders!.headers;
    expect(headers.get('content-length')).toBeNull();
    expect(headers.get('content-encoding')).toBeNull();
    expect(headers.get(DECODED_CONTENT_ENCODING_HEADER)).toBe('gzip');
    const [, block] = await readBlocks(bytes);
    expect(revisit!.record.warcBlockDigest).toBe(sha1Label(block!));
    expect(revisit!.record.warcContentLength).toBe(block!.length);
    expect(builtRecordCount(bytes)).toBe(2);
  });

  it('a revisit and its request carry the fetch\'s WARC-Protocol fields', async () => {
    const fetch = { url: 'https://example.com/', fetchedAtMs: FETCHED_AT, status: 200, responseHeadersJson: '', requestHeaders: {}, protocols: ['http/1.1', 'tls/1.2'] };
    const bytes = await revisitRecords(fetch, { url: 'https://example.com/', fetchedAtMs: 0 }, payloadDigest(new Uint8Array([1])));
    expect(warcHeads(bytes).map((head) => head.match(/^WARC-Protocol: .*$/gm))).toEqual([
      ['WARC-Protocol: http/1.1', 'WARC-Protocol: tls/1.2'],
      ['WARC-Protocol: http/1.1', 'WARC-Protocol: tls/1.2'],
    ]);
  });

  it('keeps the status line of a revisit without headers', async () => {
    const bytes = await revisitRecords({ url: 'http://example.com/', fetchedAtMs: FETCHED_AT, status: 304, responseHeadersJson: '', requestHeaders: {} }, { url: 'http://example.com/', fetchedAtMs: 0 }, payloadDigest(new Uint8Array()));
    const [, revisit] = await readRecords(bytes);
    expect(revisit!.record.httpHeaders?.statusline).toBe('HTTP/1.1 304 Not Modified');
    expect(revisit!.record.warcContentLength).toBe('HTTP/1.1 304 Not Modified\r\n\r\n'.length);
  });

  it('refuses a payload digest that is not a labelled digest', async () => {
    const fetch = { url: 'http://example.com/', fetchedAtMs: FETCHED_AT, status: 200, responseHeadersJson: '', requestHeaders: {} };
    await expect(revisitRecords(fetch, { url: 'http://example.com/', fetchedAtMs: 0 }, 'sha1:AB\r\nWARC-Type: x')).rejects.toThrow(RangeError);
    await expect(revisitRecords(fetch, { url: 'http://example.com/', fetchedAtMs: 0 }, 'ABCDEF')).rejects.toThrow(RangeError);
  });
});

describe('warcinfoRecord', () => {
  it.each([false, true])('writes software, format, conformsTo and the given fields (gzip %s)', async (gzip) => {
    const bytes = await warcinfoRecord('crawl.warc.gz', { operator: 'ops@example.com', software: 'Crawlbench 0.1.0', 'bad field': 'x', forged: 'a\r\nWARC-Type: response' }, { gzip });
    const [info, ...rest] = await readRecords(bytes);
    expect(rest).toEqual([]);
    expect(info!.record.warcType).toBe('warcinfo');
    expect(info!.record.warcHeaders.statusline).toBe('WARC/1.1');
    expect(info!.record.warcHeader('WARC-Filename')).toBe('crawl.warc.gz');
    expect(info!.record.warcContentType).toBe('application/warc-fields');
    expect(info!.record.warcDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(text(info!.payload)).toBe(
      'software: Crawlbench 0.1.0\r\nformat: WARC File Format 1.1\r\nconformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\noperator: ops@example.com\r\n',
    );
  });

  it('refuses a file name with a line break', async () => {
    await expect(warcinfoRecord('a\r\nWARC-Type: response', {})).rejects.toThrow(RangeError);
  });
});
