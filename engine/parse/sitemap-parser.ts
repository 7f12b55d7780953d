/**
 * Reads one sitemap file (sitemaps.org protocol 0.9): a `<urlset>` of `<url><loc>` entries or a
 * `<sitemapindex>` of `<sitemap><loc>` entries, plain or gzip-compressed, streamed through the
 * `sax` XML parser (the one the `sitemap` package itself uses) so that neither a huge file nor
 * hostile XML costs more than the caps:
 * - sax never expands entities declared in a DTD (only the five XML ones and character
 *   references), so "billion laughs" is an undefined-entity error, not gigabytes; it never
 *   fetches external entities (no XXE);
 * - at most {@link SITEMAP_MAX_BYTES} of (uncompressed) XML are read, and at most
 *   {@link SITEMAP_MAX_ENTRIES} entries kept; a `<loc>` is kept to {@link SITEMAP_LOC_MAX_CHARS}.
 * Runs in a crawl worker (engine/worker/crawl-worker.ts): the scheduler's thread only gets the entries.
 */
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import sax from 'sax';
import type { ErrorInfo } from '../../shared/types/result';

/** Entries one sitemap file may hold (sitemaps.org: "no more than 50,000 URLs"); later ones are counted, not kept. */
export const SITEMAP_MAX_ENTRIES = 50_000;

/** Uncompressed bytes one sitemap file may hold (sitemaps.org: "no larger than 50MB (52,428,800 bytes)"); the rest is not read. */
export const SITEMAP_MAX_BYTES = 52_428_800;

/**
 * Characters of one `<loc>` kept (sitemaps.org: "less than 2,048 characters"); a longer one is kept
 * cut and marked `tooLong`, and the link rules refuse it as `url-length`.
 */
export const SITEMAP_LOC_MAX_CHARS = 2048;

/** Bytes handed to the XML parser at a time (and the gzip stream's chunk size). */
const CHUNK_BYTES = 256 * 1024;

/** One `<loc>` of a sitemap, with its `<lastmod>` as written (trimmed; null when absent). */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
  /** The `<loc>` was longer than {@link SITEMAP_LOC_MAX_CHARS}: `loc` holds its start. */
  tooLong?: true;
}

/** What a sitemap file held. */
export interface ParsedSitemap {
  /** The root element; null when the file is not a sitemap (then `error` says so). */
  kind: 'urlset' | 'sitemapindex' | null;
  /** Entries in file order, at most {@link SITEMAP_MAX_ENTRIES}: page URLs (urlset) or sitemap URLs (index). */
  entries: SitemapEntry[];
  /** Entries past {@link SITEMAP_MAX_ENTRIES}: counted, not kept. */
  entriesOverCap: number;
  /** The body was gzip-compressed (a `.gz` file; a gzip Content-Encoding is undone by the fetcher). */
  gzipped: boolean;
  /** Uncompressed bytes read, at most {@link SITEMAP_MAX_BYTES}. */
  bytes: number;
  /**
   * Why the file could not be read whole, or null: SITEMAP_MALFORMED (not well-formed XML, with
   * line and column), SITEMAP_NOT_SITEMAP (another root element), SITEMAP_GZIP_FAILED, or
   * SITEMAP_TOO_LARGE (past 50 MB). The entries read before it are kept.
   */
  error: ErrorInfo | null;
}

/** True when `body` starts with the gzip magic bytes (RFC 1952 §2.3.1). */
export function isGzip(body: Uint8Array): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

/**
 * The local part of an XML name (`sm:url` → `url`): sitemaps are matched by element name whatever
 * prefix the sitemaps.org namespace is bound to.
 */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/**
 * Streams sitemap XML into entries. Only `<loc>`/`<lastmod>` directly inside a `<url>` (or
 * `<sitemap>`) directly inside the root count: an extension's `<image:loc>` is deeper and ignored.
 */
class SitemapReader {
  readonly result: ParsedSitemap;
  private readonly parser = sax.parser(true, { trim: false, normalize: false, position: true });
  /** Local names of the open elements, root first. */
  private readonly path: string[] = [];
  private entry: { loc: string; lastmod: string | null; tooLong: boolean } | null = null;
  /** The entry field whose text is being read. */
  private field: 'loc' | 'lastmod' | null = null;
  private stopped = false;

  constructor(gzipped: boolean) {
    this.result = { kind: null, entries: [], entriesOverCap: 0, gzipped, bytes: 0, error: null };
    // sax goes on through the chunk after an error: nothing after the first one counts.
    this.parser.onopentag = (tag) => this.stopped || this.open(localName(tag.name));
    this.parser.onclosetag = () => this.stopped || this.close();
    this.parser.ontext = (text) => this.stopped || this.text(text);
    this.parser.oncdata = (text) => this.stopped || this.text(text);
    this.parser.onerror = (error) => this.fail('SITEMAP_MALFORMED', `Not well-formed XML at line ${this.parser.line + 1}, column ${this.parser.column + 1}: ${error.message.split('\n')[0]}`);
  }

  /** False once reading stopped (an error): feed nothing more. */
  get reading(): boolean {
    return !this.stopped;
  }

  write(text: string): void {
    if (!this.stopped) this.parser.write(text);
  }

  end(): void {
    if (this.stopped) return;
    this.parser.close();
    if (!this.stopped && this.result.kind === null) this.fail('SITEMAP_NOT_SITEMAP', 'The file holds no XML element: not a sitemap');
  }

  fail(code: string, message: string): void {
    if (this.result.error === null) this.result.error = { code, message };
    this.stopped = true;
  }

  private open(name: string): void {
    this.path.push(name);
    const depth = this.path.length;
    if (depth === 1) {
      if (name === 'urlset' || name === 'sitemapindex') this.result.kind = name;
      else this.fail('SITEMAP_NOT_SITEMAP', `The root element is <${name}>, not <urlset> or <sitemapindex> (sitemaps.org protocol)`);
      return;
    }
    if (depth === 2 && name === (this.result.kind === 'urlset' ? 'url' : 'sitemap')) {
      this.entry = { loc: '', lastmod: null, tooLong: false };
      return;
    }
    if (depth === 3 && this.entry !== null && (name === 'loc' || name === 'lastmod')) {
      this.field = name;
      if (name === 'lastmod') this.entry.lastmod = '';
    }
  }

  private text(text: string): void {
    const entry = this.entry;
    if (entry === null || this.field === null) return;
    if (this.field === 'lastmod') {
      if ((entry.lastmod ?? '').length < 64) entry.lastmod = `${entry.lastmod ?? ''}${text}`.slice(0, 64);
      return;
    }
    // A <loc> of megabytes is kept to its start (the link rules refuse it by length).
    const room = SITEMAP_LOC_MAX_CHARS * 2 - entry.loc.length;
    if (room <= 0) {
      entry.tooLong = true;
      return;
    }
    entry.loc += text.slice(0, room);
  }

  private close(): void {
    const depth = this.path.length;
    this.path.pop();
    if (depth === 3) {
      this.field = null;
      return;
    }
    if (depth !== 2 || this.entry === null) return;
    const { entry } = this;
    this.entry = null;
    const loc = entry.loc.trim();
    if (loc === '') return;
    if (this.result.entries.length >= SITEMAP_MAX_ENTRIES) {
      this.result.entriesOverCap += 1;
      return;
    }
    const tooLong = entry.tooLong || loc.length > SITEMAP_LOC_MAX_CHARS;
    const lastmod = entry.lastmod === null ? null : entry.lastmod.trim() || null;
    this.result.entries.push(tooLong ? { loc: loc.slice(0, SITEMAP_LOC_MAX_CHARS), lastmod, tooLong: true } : { loc, lastmod });
  }
}

/** Feeds `chunks` (bytes of UTF-8 XML, sitemaps.org: "must be UTF-8 encoded") to `reader`, up to the byte cap. */
async function feed(reader: SitemapReader, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<boolean> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    if (!reader.reading) return false;
    const room = SITEMAP_MAX_BYTES - reader.result.bytes;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    reader.result.bytes += part.length;
    reader.write(decoder.write(part));
    if (part.length < chunk.length) return true;
  }
  reader.write(decoder.end());
  return false;
}

/** `body` in slices of {@link CHUNK_BYTES} (views, not copies). */
function* slices(body: Buffer): Generator<Buffer> {
  for (let start = 0; start < body.length; start += CHUNK_BYTES) yield body.subarray(start, start + CHUNK_BYTES);
}

/**
 * Reads a sitemap body as fetched (Content-Encoding already undone).
 * @param body the bytes; gzip ones (a `.gz` sitemap) are decompressed as they are read
 * @param truncated the fetch cut the body at its size cap ({@link SITEMAP_MAX_BYTES})
 * @returns the entries read and, when the file could not be read whole, the coded reason; never throws
 * @example await parseSitemap(Buffer.from('<urlset><url><loc>http://a.test/x</loc></url></urlset>'), false)
 *   → { kind: 'urlset', entries: [{ loc: 'http://a.test/x', lastmod: null }], entriesOverCap: 0, gzipped: false, bytes: 55, error: null }
 */
export async function parseSitemap(body: Buffer, truncated: boolean): Promise<ParsedSitemap> {
  const gzipped = isGzip(body);
  const reader = new SitemapReader(gzipped);
  let overCap = truncated && !gzipped;
  if (!gzipped) {
    overCap = (await feed(reader, slices(body))) || overCap;
  } else {
    const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
    const input = Readable.from(slices(body), { objectMode: false });
    input.pipe(gunzip);
    try {
      overCap = await feed(reader, gunzip as AsyncIterable<Buffer>);
    } catch (error) {
      // A gzip file cut by the fetch's byte cap ends mid-stream: that is size, not corruption.
      if (truncated) overCap = true;
      else reader.fail('SITEMAP_GZIP_FAILED', `The .gz sitemap could not be decompressed: ${(error as Error).message}`);
    } finally {
      input.destroy();
      gunzip.destroy();
    }
  }
  if (overCap) {
    reader.fail('SITEMAP_TOO_LARGE', `The sitemap is larger than ${SITEMAP_MAX_BYTES} bytes uncompressed (sitemaps.org's 50 MB limit): only its first ${SITEMAP_MAX_BYTES} bytes were read`);
  } else {
    reader.end();
  }
  return reader.result;
}
