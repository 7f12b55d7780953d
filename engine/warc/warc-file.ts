/**
 * WARC files: one writer appending whole records (engine/warc/warc-records.ts) to a .warc.gz
 * (each record its own gzip member) or .warc file, repairing the tail a killed process left; the
 * sorted CDXJ index beside it; and a reader that checks every record's digests. Records are read
 * with warcio's WARCParser and indexed with its CDXIndexer; nothing here parses WARC by hand.
 */
import { randomUUID, createHash } from 'node:crypto';
import { open as openFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { AsyncIterReader, CDXIndexer, HeadersMultiMap, StatusAndHeaders, StatusAndHeadersParser, WARCParser, type WARCRecord } from 'warcio';
import { base32 } from '../bodies/stored-body';
import { builtRecordCount, warcinfoRecord } from './warc-records';

/** Bytes read at a time when scanning a WARC (Node's stream default). */
const READ_CHUNK_BYTES = 64 * 1024;
/**
 * A file with no complete record is cut to nothing (a first warcinfo cut short) only when it is
 * smaller than this: a larger one is not a WARC this writer began, and is left alone.
 */
const MAX_PARTIAL_FIRST_WRITE = 64 * 1024;
/** The gzip magic (RFC 1952 §2.3.1). */
const GZIP_MAGIC = [0x1f, 0x8b];
/** How every WARC record begins (WARC/1.1 §4). */
const WARC_MAGIC = Buffer.from('WARC/');

/** Digest labels {@link verifyWarc} checks → node:crypto algorithm. */
const DIGEST_ALGORITHMS = new Map([
  ['sha1', 'sha1'],
  ['sha-1', 'sha1'],
  ['sha256', 'sha256'],
  ['sha-256', 'sha256'],
  ['md5', 'md5'],
]);

/** One record of a WARC as {@link verifyWarc} read it. */
export interface VerifiedRecord {
  /** WARC-Type (warcinfo, request, response, revisit, …). */
  type: string;
  /** WARC-Record-ID, or null when missing. */
  recordId: string | null;
  /** WARC-Target-URI, or null (a warcinfo record has none). */
  targetUri: string | null;
  /** WARC-Date as written. */
  date: string | null;
  /** WARC-Payload-Digest as written. */
  payloadDigest: string | null;
  /** WARC-Block-Digest as written. */
  blockDigest: string | null;
  /** WARC-Refers-To-Target-URI (revisit records). */
  refersToTargetUri: string | null;
  /** WARC-Refers-To-Date (revisit records). */
  refersToDate: string | null;
  /** WARC-Concurrent-To record IDs (none when absent). */
  concurrentTo: string[];
  /** WARC-Truncated reason, e.g. "length". */
  truncated: string | null;
  /** The HTTP status of a response or revisit record; null for other types or an unparsable status line. */
  httpStatus: number | null;
  /** Content-Length as written (bytes of the block). */
  contentLength: number;
  /** Bytes of the block actually read (less than contentLength when the file ends early). */
  blockBytes: number;
  /** Bytes of the payload: the block after the HTTP head for request/response/revisit, the whole block otherwise. */
  payloadBytes: number;
  /**
   * The stated payload digest recomputed over the payload (raw, not content-decoded): true when
   * it matches, false when not, null when there is nothing to check (no digest, an algorithm
   * other than sha1/sha256/md5, or a revisit, whose payload is the earlier record's).
   */
  payloadDigestOk: boolean | null;
  /** The stated block digest recomputed over the whole block; null when there is none (or an unknown algorithm). */
  blockDigestOk: boolean | null;
}

/**
 * Appends records to one WARC file: a .warc.gz (gzip members, one per record) or any other name
 * as a plain .warc. One writer per file (nothing locks it against a second process). Writes go
 * to the end of the file in call order; a write that fails is cut back off the file, and the
 * writer then refuses further appends.
 */
export class WarcFileWriter {
  private size: number;
  private records = 0;
  private queue: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly handle: FileHandle,
    /** The WARC file's path as given to open. */
    readonly path: string,
    /** Records are gzip members (the path ends in .gz). */
    readonly gzip: boolean,
    size: number,
    /** Bytes cut off the end of an existing file at open: a partial record a killed writer left (0 when none). */
    readonly repairedBytes: number,
  ) {
    this.size = size;
  }

  /**
   * Opens `path` for appending. A new (or empty) file starts with a warcinfo record (WARC/1.1 §6.2)
   * naming the file and carrying `info`. An existing file is first read with warcio's
   * WARCParser and cut after its last complete record, so what a process killed mid-write left
   * (a partial gzip member, a short block, a missing CRLF CRLF end) goes and nothing complete is
   * lost; no second warcinfo is written. The folder is not created.
   * @param path the WARC file; a name ending in .gz gets gzip members (.warc.gz), any other a plain WARC
   * @param info warcinfo fields (operator, software with its version, robots, …): see warcinfoRecord
   * @throws Error when the folder does not exist; when the file is gzip but named plain (or the
   *   reverse); when it is not a WARC (no complete record, and not a short first write); fs errors
   */
  static async open(path: string, info: Record<string, string>): Promise<WarcFileWriter> {
    const gzip = /\.gz$/i.test(path);
    const folder = dirname(resolve(path));
    const folderStat = await stat(folder).catch((error: unknown) => {
      throw new Error(`The folder of the WARC file ${path} does not exist (${folder}): create it first`, { cause: error });
    });
    if (!folderStat.isDirectory()) throw new Error(`The WARC file's folder ${folder} is not a folder`);
    const handle = await openFile(path, 'r+').catch((error: unknown) => {
      if (isErrno(error, 'ENOENT')) return openFile(path, 'wx+');
      throw error;
    });
    try {
      const size = (await handle.stat()).size;
      let end = 0;
      if (size > 0) {
        await checkFileKind(handle, path, gzip);
        end = (await completeRecords(readChunks(handle), gzip)).end;
        if (end === 0 && size > MAX_PARTIAL_FIRST_WRITE) throw new Error(`${path} holds no complete WARC record in its ${size} bytes: not a WARC file this writer can append to`);
        if (end < size) await handle.truncate(end);
      }
      const writer = new WarcFileWriter(handle, path, gzip, end, size - end);
      if (end === 0) await writer.write(await warcinfoRecord(basename(path), info, { gzip }));
      return writer;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Records appended through {@link append} (the warcinfo record open writes is not counted). */
  get appended(): number {
    return this.records;
  }

  /** Bytes of the file as written so far. */
  get bytes(): number {
    return this.size;
  }

  /**
   * Appends bytes of whole records, in one write at the end of the file; appends are written in
   * call order. The bytes must be in the file's form (gzip members for a .warc.gz, plain records
   * otherwise). How many records they hold: `records` when given (trusted, e.g. bytes a worker
   * built and posted over), else known for bytes straight from a warc-records builder; other
   * bytes are read with warcio's parser first and refused unless they are whole WARC records,
   * so a bad append never reaches the file.
   * @param bytes whole records (fetchRecords(…).bytes, revisitRecords(…), or concatenations)
   * @param records the number of records in `bytes`, when the caller knows it (2 for a fetch)
   * @throws Error when the writer is closed or an earlier write failed; when the bytes are not
   *   whole records of the file's form; fs errors (ENOSPC …), after cutting the partial write
   *   back off the file; RangeError for a `records` that is not a count
   */
  append(bytes: Uint8Array, records?: number): Promise<void> {
    if (this.closing) return Promise.reject(new Error(`The WARC writer of ${this.path} is closed`));
    if (records !== undefined && !(Number.isInteger(records) && records >= 0)) return Promise.reject(new RangeError(`Not a record count: ${records}`));
    const known = records ?? builtRecordCount(bytes);
    const written = this.queue.then(async () => {
      if (this.failure) throw new Error(`An earlier write to ${this.path} failed: ${this.failure.message}`, { cause: this.failure });
      checkBytesKind(bytes, this.gzip);
      const count = known ?? (await countWholeRecords(bytes, this.gzip));
      await this.write(bytes);
      this.records += count;
    });
    this.queue = written.catch(() => undefined);
    return written;
  }

  /**
   * Waits for pending appends, flushes the file to disk (fsync) and closes it, then writes the
   * CDXJ index beside it (`<path>.cdxj`, {@link indexWarc}). Calling it again returns the same
   * promise; appends after it are refused.
   * @throws the fsync/close error, or indexWarc's
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.queue;
      try {
        await this.handle.sync();
      } finally {
        await this.handle.close();
      }
      await indexWarc(this.path, `${this.path}.cdxj`);
    })();
    return this.closing;
  }

  /** Writes `bytes` at the end of the file (looping over short writes); on failure cuts the file back and marks the writer failed. */
  private async write(bytes: Uint8Array): Promise<void> {
    let done = 0;
    try {
      while (done < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done, this.size + done);
        done += bytesWritten;
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      await this.handle.truncate(this.size).catch(() => undefined);
      throw error;
    }
    this.size += bytes.length;
  }
}

/**
 * Writes a CDXJ index of a WARC file to `cdxjPath`: one `urlkey timestamp {json}` line per
 * response, revisit (and other non-request, non-warcinfo) record, made by warcio's CDXIndexer
 * (SURT urlkey, 14-digit timestamp; JSON url, mime, status, digest, length, offset, filename),
 * sorted by urlkey then timestamp (then file order) as CDXJ lookups require (pywb's CDXJ). The
 * length is from the record's offset to the next record's (its CRLF CRLF end included; warcio's
 * own leaves those 4 bytes out of a plain WARC's records). Written to a temporary file beside it,
 * then renamed, so a reader never sees half an index.
 * @param warcPath the WARC (.warc.gz or .warc); `filename` in each line is its base name
 * @param cdxjPath where the index goes (replaced)
 * @returns the number of index lines
 * @throws fs errors (the WARC missing, the folder not writable)
 */
export async function indexWarc(warcPath: string, cdxjPath: string): Promise<number> {
  const filename = basename(warcPath);
  const indexer = new CDXIndexer({ format: 'cdxj' });
  const entries: { urlkey: string; timestamp: string; result: Record<string, unknown> }[] = [];
  const starts: number[] = [];
  let end = 0;
  await withFile(warcPath, async (handle) => {
    const parser = new WARCParser(readChunks(handle));
    const add = (result: Record<string, unknown> | null): void => {
      if (result) entries.push({ urlkey: String(result['urlkey']), timestamp: String(result['timestamp']), result });
    };
    for await (const record of parser) {
      starts.push(parser.offset);
      await record.readFully();
      add(indexer.indexRecord(record, parser, filename));
    }
    add(indexer.indexRecord(null, parser, filename));
    end = parser.offset;
  });
  const nextStart = new Map<number, number>();
  starts.forEach((start, index) => nextStart.set(start, starts[index + 1] ?? end));
  for (const { result } of entries) {
    const next = nextStart.get(Number(result['offset']));
    if (next !== undefined) result['length'] = next - Number(result['offset']);
  }
  entries.sort((a, b) => compare(a.urlkey, b.urlkey) || compare(a.timestamp, b.timestamp));
  const text = entries.map(({ result }) => indexer.serializeCDXJ(result)).join('');
  const temporary = `${cdxjPath}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, cdxjPath);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return entries.length;
}

/**
 * Reads a WARC back with warcio's WARCParser and checks each record: its type, target URI, date,
 * digests, refers-to fields, HTTP status, and whether the stated WARC-Block-Digest (WARC/1.1 §5.8,
 * over the whole block) and WARC-Payload-Digest (§5.9, over the payload: for application/http
 * records the bytes after the HTTP head, raw, not content-decoded) match digests recomputed with
 * node:crypto (sha1, sha256 or md5; base32 or hex values). A revisit's payload digest is the
 * earlier record's and is not checked. For tests, the CLI and verification; reads each block
 * into memory.
 * @returns the records in file order and how many digests did not match
 * @throws fs errors (missing file)
 */
export async function verifyWarc(path: string): Promise<{ records: VerifiedRecord[]; digestFailures: number }> {
  const records: VerifiedRecord[] = [];
  await withFile(path, async (handle) => {
    for await (const record of new WARCParser(readChunks(handle), { parseHttp: false })) records.push(await verifyRecord(record));
  });
  const digestFailures = records.reduce((sum, record) => sum + (record.payloadDigestOk === false ? 1 : 0) + (record.blockDigestOk === false ? 1 : 0), 0);
  return { records, digestFailures };
}

/** One record for {@link verifyWarc}: its fields, and its digests recomputed. */
async function verifyRecord(record: WARCRecord): Promise<VerifiedRecord> {
  const header = (name: string): string | null => record.warcHeader(name) ?? null;
  const type = header('WARC-Type') ?? '';
  const block = await record.readFully(false);
  const contentLength = record.warcContentLength;
  let payload = block;
  let httpStatus: number | null = null;
  const isHttp = type === 'request' || type === 'response' || type === 'revisit';
  if (isHttp && block.length > 0) {
    const head = await httpHead(block);
    payload = block.subarray(head.length);
    if (type !== 'request' && Number.isInteger(head.status)) httpStatus = head.status;
  }
  const complete = block.length === contentLength;
  const payloadDigest = header('WARC-Payload-Digest');
  const blockDigest = header('WARC-Block-Digest');
  const concurrentTo = record.warcConcurrentTo ?? [];
  return {
    type,
    recordId: header('WARC-Record-ID'),
    targetUri: header('WARC-Target-URI'),
    date: header('WARC-Date'),
    payloadDigest,
    blockDigest,
    refersToTargetUri: header('WARC-Refers-To-Target-URI'),
    refersToDate: header('WARC-Refers-To-Date'),
    concurrentTo: concurrentTo.map((id) => id.trim()).filter((id) => id !== ''),
    truncated: header('WARC-Truncated'),
    httpStatus,
    contentLength,
    blockBytes: block.length,
    payloadBytes: payload.length,
    payloadDigestOk: payloadDigest === null || type === 'revisit' ? null : digestMatches(payloadDigest, payload, complete),
    blockDigestOk: blockDigest === null ? null : digestMatches(blockDigest, block, complete),
  };
}

/**
 * The HTTP head of an application/http block, parsed by warcio's StatusAndHeadersParser: its
 * length in bytes (status line, header lines and the blank line) and the status code.
 */
async function httpHead(block: Uint8Array): Promise<{ length: number; status: number }> {
  const reader = new AsyncIterReader([block], null);
  const firstLine = await reader.readline();
  const lineEnd = reader.getReadOffset();
  // No header lines: the blank line follows at once (warcio's parser would read on into the payload for one).
  if (block[lineEnd] === 0x0d && block[lineEnd + 1] === 0x0a) {
    return { length: lineEnd + 2, status: Number(new StatusAndHeaders({ statusline: firstLine.trimEnd(), headers: new HeadersMultiMap() }).statusCode) };
  }
  const head = await new StatusAndHeadersParser().parse(reader, { firstLine, headersClass: HeadersMultiMap });
  return { length: Math.min(reader.getReadOffset(), block.length), status: Number(head?.statusCode) };
}

/**
 * Whether a labelled digest (`algorithm:value`, WARC/1.1 §5.8) matches `bytes`: sha1, sha256 and
 * md5 (with or without a dash), the value in RFC 4648 base32 (padding optional) or hex, any case;
 * false for an incomplete block; null for another algorithm.
 */
function digestMatches(labelled: string, bytes: Uint8Array, complete: boolean): boolean | null {
  const colon = labelled.indexOf(':');
  const algorithm = DIGEST_ALGORITHMS.get(labelled.slice(0, colon).trim().toLowerCase());
  if (colon < 0 || algorithm === undefined) return null;
  if (!complete) return false;
  const stated = labelled.slice(colon + 1).trim().toUpperCase().replace(/=+$/, '');
  const digest = createHash(algorithm).update(bytes).digest();
  return stated === base32(digest).replace(/=+$/, '') || stated === digest.toString('hex').toUpperCase();
}

/**
 * Where the complete records of an open WARC end, read with warcio's WARCParser: a record counts
 * when its header is a WARC header with WARC-Type and a numeric Content-Length, its block is
 * whole, and its end lies within what the parser read: for gzip, its member ended (the parser's
 * offset moved past it); for a plain WARC, its CRLF CRLF end is there. Reading stops at the first
 * record that fails, or at a parse error.
 * @returns the byte offset after the last complete record (0 when none) and the number of complete records
 */
async function completeRecords(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, gzip: boolean): Promise<{ end: number; records: number }> {
  const parser = new WARCParser(chunks, { parseHttp: false });
  let end = 0;
  let records = 0;
  /** The last record read, complete once the parser is seen past its end. */
  let pending: { start: number; end: number } | null = null;
  try {
    for await (const record of parser) {
      const start = parser.offset;
      if (pending) {
        if (start < pending.end) break;
        end = pending.end;
        records += 1;
        pending = null;
      }
      if (!(await isWholeRecord(record))) break;
      // After the block: gzip, the member's compressed length; plain, the head and block, then CRLF CRLF.
      pending = { start, end: start + parser.recordLength + (gzip ? 0 : 4) };
    }
    if (pending && parser.offset >= pending.end) {
      end = pending.end;
      records += 1;
    }
  } catch {
    // A parse or inflate error: the complete records before it stand.
  }
  return { end, records };
}

/**
 * A record with a WARC/1.x header, a WARC-Type and a Content-Length whose block reads whole (read
 * without keeping it). The caller must stop at the first record that fails: after a short block
 * read through `record.reader`, warcio's next parse spins forever (LimitReader.skipFully loops
 * while its source returns nothing).
 */
async function isWholeRecord(record: WARCRecord): Promise<boolean> {
  if (!record.warcHeaders.statusline.startsWith('WARC/')) return false;
  const declared = record.warcHeader('Content-Length');
  if (!record.warcHeader('WARC-Type') || !declared || !/^\d+$/.test(declared.trim())) return false;
  let bytes = 0;
  for await (const chunk of record.reader) bytes += chunk.length;
  return bytes === Number(declared.trim());
}

/**
 * Refuses appended bytes that are not in the file's form: gzip members for a .warc.gz, plain
 * records (`WARC/`) otherwise (builders' bytes too: they are gzip only when asked).
 * @throws Error naming the mismatch
 */
function checkBytesKind(bytes: Uint8Array, gzip: boolean): void {
  if (bytes.length === 0) return;
  const isGzip = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  if (gzip && !isGzip) throw new Error('Refused an append of plain WARC bytes to a .warc.gz file: build the records with { gzip: true }');
  if (!gzip && isGzip) throw new Error('Refused an append of gzip bytes to a plain WARC file: build the records without gzip');
}

/**
 * Counts the records in `bytes` with warcio's parser and checks they are whole records (their
 * form, gzip or plain, checked before by {@link checkBytesKind}).
 * @throws Error when they are not whole WARC records
 */
async function countWholeRecords(bytes: Uint8Array, gzip: boolean): Promise<number> {
  if (bytes.length === 0) return 0;
  const { end, records } = await completeRecords([bytes], gzip);
  if (end !== bytes.length || records === 0) throw new Error(`Refused an append that is not whole WARC records (${end} of ${bytes.length} bytes are)`);
  return records;
}

/**
 * Refuses a file whose first bytes do not fit its name: gzip for a .gz name, `WARC/` for any other
 * (a prefix of them when the file is shorter).
 * @throws Error naming what the file is instead
 */
async function checkFileKind(handle: FileHandle, path: string, gzip: boolean): Promise<void> {
  const head = Buffer.alloc(WARC_MAGIC.length);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  const first = head.subarray(0, bytesRead);
  const isGzip = first.length >= 2 ? first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1] : first[0] === GZIP_MAGIC[0];
  const isPlain = WARC_MAGIC.subarray(0, first.length).equals(first);
  if (gzip && !isGzip) throw new Error(isPlain ? `${path} is a plain (uncompressed) WARC but its name ends in .gz: rename it to .warc` : `${path} is not a gzip-compressed WARC file`);
  if (!gzip && !isPlain) throw new Error(isGzip ? `${path} is gzip-compressed but its name does not end in .gz: rename it to .warc.gz` : `${path} is not a WARC file (it does not start with "WARC/")`);
}

/** The chunks of an open file from its start, each a fresh buffer (warcio keeps references to them). */
async function* readChunks(handle: Pick<FileHandle, 'read'>): AsyncGenerator<Uint8Array> {
  let position = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** Runs `use` with `file` open for reading, closing it after. */
async function withFile<T>(file: string, use: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await openFile(file, 'r');
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/** True when `error` is a Node system error with this errno code. */
function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** Code-unit order (the byte order of ASCII keys, as `LC_ALL=C sort`). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
