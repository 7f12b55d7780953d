import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ExportFormat, ExportKind, ExportProgress } from '../../shared/ipc/views';
import { CodedError, toErrorInfo } from '../../shared/types/result';
import { differenceCauses } from '../../shared/url/canonical';
import { groupCanonical, withoutFragment, type GroupCanonicalContext } from '../../shared/url/group-canonical';
import type { NormalizationProfile } from '../../shared/url/profiles';
import { URL_NAME_LABELS } from '../../shared/types/url-names';
import type { ExportQueries, KeyedPage, VersionQueries } from '../../engine';
import { sitemapReportPage } from './sitemap-report';

/** What to export and where. `file` is an absolute path whose folder exists and which does not exist yet. */
export interface ExportRequest {
  crawlId: number;
  kind: ExportKind;
  format: ExportFormat;
  file: string;
}

type Row = Record<string, unknown>;

/** A table to export: its columns, its row count, and keyset-paged reads. */
interface ExportSource {
  columns: readonly ExportColumn[];
  count(): number;
  page(afterKey: number, limit: number): KeyedPage<Row>;
}

/** Where the service reads from; a getter, because a checkpoint rollback reopens the database. */
export interface ExportContext {
  queries: () => ExportQueries;
  /** The crawl's normalization profile (URL-group exports label causes with it). */
  profileOf: (crawlId: number) => NormalizationProfile;
  /** The canonical layers' context of the crawl (app/services/canonical-context.ts): site rules, registrable domains, profile. */
  canonicalContextOf: (crawlId: number) => GroupCanonicalContext;
  /** The crawl's stored version URL templates (the versions export). */
  versions: () => VersionQueries;
}

/** Tuning of the export service (tests use small pages). */
export interface ExportServiceOptions {
  /** Rows read per SQLite page. @default 1000 */
  pageSize?: number;
  /** Minimum gap between two progress reports. @default 250 */
  progressIntervalMs?: number;
}

/**
 * Every export column: its JSONL field name (the key) and its CSV header in words (the value).
 * Units: `…AtMs` columns are epoch ms in JSONL and ISO 8601 UTC times in CSV (hence "(UTC)");
 * `…Ms` ms, `…Bytes` bytes; `similarity` is an estimated Jaccard index in [0, 1]; `causes` lists
 * difference labels (CSV: joined with `|`); a URL group's `canonicalLayer` is the layer that chose its
 * canonical URL (redirect, siteRule, relCanonical, heuristic) and `decidedBy` the heuristic when it
 * was the heuristics (else empty); `template` is a seed 001 version URL template (`%s` the
 * version, `%%` a literal `%`) and `versions` every version of it, release numbers ascending. A redirect is a page row of its own: `httpStatus` its
 * 3xx, `location` its target (RFC 9110 §15.4); `redirectChainJson` is only set by crawls made
 * before redirects were first-class.
 */
export const EXPORT_COLUMN_HEADERS = {
  urlId: 'URL id',
  id: 'URL id',
  url: URL_NAME_LABELS.url,
  finalUrl: 'Final URL',
  httpStatus: 'HTTP status',
  contentType: 'Content type',
  bodyBytes: 'Body size (bytes)',
  truncated: 'Body truncated',
  fetchMs: 'Fetch time (ms)',
  title: 'Title',
  fetchedAtMs: 'Fetched at (UTC)',
  fingerprint: 'Content fingerprint',
  textChars: 'Text length (characters)',
  redirectChainJson: 'Redirect chain (JSON, older crawls)',
  location: 'Redirects to',
  normalized: URL_NAME_LABELS.normalized,
  normalizedKey: URL_NAME_LABELS.normalizedKey,
  host: 'Host',
  registrableDomain: 'Registrable domain',
  state: 'State',
  depth: 'Depth',
  discoveredFrom: 'Discovered from (URL id)',
  enqueuedAtMs: 'Queued at (UTC)',
  errorCode: 'Error code',
  errorReason: 'Error reason',
  attempts: 'Attempts',
  groupUrlId: 'Group (URL id)',
  canonical: URL_NAME_LABELS.canonical,
  canonicalLayer: 'Canonical chosen by layer',
  decidedBy: 'Canonical chosen by heuristic',
  rawUrl: URL_NAME_LABELS.rawUrl,
  fragmentSpellings: 'Spellings of it with a #fragment',
  isCanonical: 'Is the canonical URL',
  causes: 'Differs by',
  groupId: 'Content group id',
  kind: 'Duplicate kind',
  firstUrl: 'First URL of the group',
  similarity: 'Similarity',
  templateId: 'Version template id',
  template: 'URL template',
  versions: 'Versions of the page',
  version: 'Version',
  trapId: 'Trap id',
  detector: 'Trap detector',
  trapState: 'Trap state',
  pattern: 'Pattern (regular expression)',
  evidence: 'Evidence',
  examples: 'Example URLs',
  heldCount: 'URLs held',
  detectedAtMs: 'Suspected at (UTC)',
  finding: 'Finding',
  reason: 'Why',
  sitemap: 'Listed in sitemap',
  extracted: 'Extracted values (JSON)',
} as const;

/** A column of an export, by its JSONL field name. */
export type ExportColumn = keyof typeof EXPORT_COLUMN_HEADERS;

/**
 * Column order of each export (JSONL field names; CSV headers from {@link EXPORT_COLUMN_HEADERS}).
 * `pages` holds one row per fetched URL (state done), the count the Crawls list shows as
 * "Pages fetched" (see ExportQueries.countPages for the pages left out).
 */
export const EXPORT_COLUMNS: Readonly<Record<ExportKind, readonly ExportColumn[]>> = {
  pages: ['urlId', 'url', 'finalUrl', 'httpStatus', 'contentType', 'bodyBytes', 'truncated', 'fetchMs', 'title', 'fetchedAtMs', 'fingerprint', 'textChars', 'redirectChainJson', 'location', 'extracted'],
  frontier: ['id', 'url', 'normalized', 'normalizedKey', 'host', 'registrableDomain', 'state', 'depth', 'discoveredFrom', 'enqueuedAtMs', 'fetchedAtMs', 'httpStatus', 'errorCode', 'errorReason', 'attempts'],
  errors: ['id', 'url', 'host', 'depth', 'discoveredFrom', 'fetchedAtMs', 'httpStatus', 'errorCode', 'errorReason', 'attempts'],
  urlGroups: ['groupUrlId', 'normalizedKey', 'normalized', 'canonical', 'canonicalLayer', 'decidedBy', 'rawUrl', 'fragmentSpellings', 'isCanonical', 'causes'],
  contentGroups: ['groupId', 'kind', 'fingerprint', 'firstUrl', 'url', 'similarity', 'title'],
  versions: ['templateId', 'template', 'versions', 'version', 'urlId', 'url', 'state', 'httpStatus'],
  traps: ['trapId', 'host', 'detector', 'trapState', 'template', 'pattern', 'heldCount', 'evidence', 'examples', 'detectedAtMs'],
  sitemapReport: ['urlId', 'url', 'finding', 'reason', 'canonical', 'sitemap', 'state', 'httpStatus'],
};

/**
 * A CSV cell's value: an epoch-ms time (`…AtMs`) as an ISO 8601 UTC time, anything else as is.
 * @example csvValue('fetchedAtMs', 0) → '1970-01-01T00:00:00.000Z'
 */
export function csvValue(column: ExportColumn, value: unknown): unknown {
  if (column.endsWith('AtMs') && typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  // An object (the extractors' values by name) is one JSON field in CSV; JSONL keeps it an object.
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value;
}

/**
 * One CSV field (RFC 4180): null/undefined → empty; arrays joined with `|`; a field holding a
 * comma, quote, CR or LF is quoted with inner quotes doubled.
 * @example csvField('say "hi", ok') → '"say ""hi"", ok"'
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value) ? value.join('|') : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function line(format: ExportFormat, columns: readonly ExportColumn[], row: Row): string {
  if (format === 'jsonl') {
    const ordered: Row = {};
    for (const column of columns) ordered[column] = row[column] ?? null;
    return `${JSON.stringify(ordered)}\n`;
  }
  return `${columns.map((column) => csvField(csvValue(column, row[column]))).join(',')}\r\n`;
}

/**
 * Checks an export target before anything is written.
 * @throws CodedError EXPORT_PATH_INVALID (relative path, wrong extension, missing folder), EXPORT_EXISTS
 */
export function checkExportTarget(file: string, format: ExportFormat): void {
  if (!path.isAbsolute(file)) throw new CodedError('EXPORT_PATH_INVALID', `Export path must be absolute: ${file}`);
  if (path.extname(file).toLowerCase() !== `.${format}`) throw new CodedError('EXPORT_PATH_INVALID', `A ${format.toUpperCase()} export must end in .${format}: ${file}`);
  const folder = path.dirname(file);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new CodedError('EXPORT_PATH_INVALID', `Folder ${folder} does not exist`);
  if (fs.existsSync(file)) throw new CodedError('EXPORT_EXISTS', `${file} already exists: choose another name`);
}

/**
 * Exports a crawl's pages, frontier, duplicate-URL groups or content groups to CSV (RFC 4180,
 * a header row in words, CRLF, times as ISO 8601 UTC) or JSONL (one JSON object per line, keyed by
 * the field names of {@link EXPORT_COLUMNS}, times as epoch ms: for programs), streaming: rows are read in keyset pages
 * and written with back-pressure, the event loop is yielded between pages (the crawl goes on),
 * and progress is reported at most every `progressIntervalMs` and once at the end. A failed
 * export removes its partial file and reports `state: 'failed'` with the error.
 */
export class ExportService {
  private nextId = 1;
  /** Files of the exports that finished in this process, by export id ("Show in folder"). */
  private readonly finished = new Map<number, string>();
  private readonly pageSize: number;
  private readonly progressIntervalMs: number;

  constructor(
    private readonly context: ExportContext,
    private readonly onProgress: (progress: ExportProgress) => void,
    options: ExportServiceOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 1000;
    this.progressIntervalMs = options.progressIntervalMs ?? 250;
  }

  /**
   * Validates the target and starts the export in the background.
   * @returns the first progress report (state `running`, `totalRows` counted) and the promise of the last one
   * @throws CodedError EXPORT_PATH_INVALID, EXPORT_EXISTS
   */
  start(request: ExportRequest): { progress: ExportProgress; done: Promise<ExportProgress> } {
    checkExportTarget(request.file, request.format);
    const source = this.source(request.crawlId, request.kind);
    const progress: ExportProgress = {
      exportId: this.nextId++,
      crawlId: request.crawlId,
      kind: request.kind,
      format: request.format,
      file: request.file,
      rowsWritten: 0,
      totalRows: source.count(),
      state: 'running',
      error: null,
    };
    const done = this.write(request, source, { ...progress });
    return { progress, done };
  }

  /**
   * The file a finished export of this service wrote.
   * @throws CodedError EXPORT_NOT_FOUND for an export that is unknown, still running or failed
   */
  finishedFile(exportId: number): string {
    const file = this.finished.get(exportId);
    if (file === undefined) throw new CodedError('EXPORT_NOT_FOUND', `Export ${exportId} has not finished in this window's session`);
    return file;
  }

  /**
   * Streams an export of a crawl into `target` (e.g. the CLI's stdout), with back-pressure.
   * @returns rows written
   * @throws CodedError CRAWL_NOT_FOUND-like errors from the queries; the stream's own errors
   */
  async exportToStream(target: NodeJS.WritableStream, crawlId: number, kind: ExportKind, format: ExportFormat): Promise<number> {
    const source = this.source(crawlId, kind);
    const failed = once(target as NodeJS.EventEmitter, 'error').then(([error]) => Promise.reject(error as Error));
    failed.catch(() => undefined);
    let written = 0;
    await this.pump(target, format, source, failed, (rows) => (written += rows));
    return written;
  }

  /** Writes the header (CSV) and every row, page by page, yielding to the event loop between pages. */
  private async pump(target: NodeJS.WritableStream, format: ExportFormat, source: ExportSource, failed: Promise<never>, onRows: (rows: number) => void): Promise<void> {
    const put = async (chunk: string) => {
      if (!target.write(chunk)) await Promise.race([once(target as NodeJS.EventEmitter, 'drain'), failed]);
    };
    if (format === 'csv') await put(`${source.columns.map((column) => csvField(EXPORT_COLUMN_HEADERS[column])).join(',')}\r\n`);
    for (let afterKey = 0; ; ) {
      const page = source.page(afterKey, this.pageSize);
      if (page.rows.length === 0) break;
      await put(page.rows.map((row) => line(format, source.columns, row)).join(''));
      onRows(page.rows.length);
      afterKey = page.lastKey;
      await yieldToEventLoop();
    }
  }

  private async write(request: ExportRequest, source: ExportSource, progress: ExportProgress): Promise<ExportProgress> {
    let lastReportMs = 0;
    const report = (force: boolean) => {
      const now = Date.now();
      if (!force && now - lastReportMs < this.progressIntervalMs) return;
      lastReportMs = now;
      this.onProgress({ ...progress });
    };
    let stream: fs.WriteStream | null = null;
    let created = false;
    try {
      stream = fs.createWriteStream(request.file, { flags: 'wx', encoding: 'utf8' });
      stream.once('open', () => (created = true));
      const failed = once(stream, 'error').then(([error]) => Promise.reject(error as Error));
      failed.catch(() => undefined);
      await this.pump(stream, request.format, source, failed, (rows) => {
        progress.rowsWritten += rows;
        report(false);
      });
      stream.end();
      await Promise.race([once(stream, 'finish'), failed]);
      progress.state = 'done';
      progress.totalRows = Math.max(progress.totalRows, progress.rowsWritten);
      this.finished.set(progress.exportId, request.file);
    } catch (error) {
      stream?.destroy();
      // Only a file this export created is removed (never one that appeared since the check).
      if (created) fs.rmSync(request.file, { force: true });
      progress.state = 'failed';
      const info = toErrorInfo(error);
      progress.error = { code: info.code === 'INTERNAL' ? 'EXPORT_FAILED' : info.code, message: `Export to ${request.file} failed: ${info.message}` };
    }
    report(true);
    return progress;
  }

  private source(crawlId: number, kind: ExportKind): ExportSource {
    const queries = this.context.queries();
    const columns = EXPORT_COLUMNS[kind];
    switch (kind) {
      case 'pages':
        return { columns, count: () => queries.countPages(crawlId), page: (after, limit) => queries.pages(crawlId, after, limit) as unknown as KeyedPage<Row> };
      case 'frontier':
        return { columns, count: () => queries.countUrls(crawlId), page: (after, limit) => queries.frontier(crawlId, after, limit) as unknown as KeyedPage<Row> };
      case 'errors':
        return { columns, count: () => queries.countUrls(crawlId, 'error'), page: (after, limit) => queries.frontier(crawlId, after, limit, 'error') as unknown as KeyedPage<Row> };
      case 'traps':
        return { columns, count: () => queries.countTraps(crawlId), page: (after, limit) => queries.traps(crawlId, after, limit) as unknown as KeyedPage<Row> };
      case 'sitemapReport':
        return { columns, count: () => queries.sitemaps.countListed(crawlId), page: (after, limit) => sitemapReportPage(queries.sitemaps, crawlId, after, limit) as unknown as KeyedPage<Row> };
      case 'contentGroups':
        return { columns, count: () => queries.countContentMembers(crawlId), page: (after, limit) => queries.contentGroups(crawlId, after, Math.max(1, Math.floor(limit / 10))) as unknown as KeyedPage<Row> };
      case 'versions': {
        const versions = this.context.versions();
        return { columns, count: () => versions.countExportRows(crawlId), page: (after, limit) => versions.exportTemplates(crawlId, after, Math.max(1, Math.floor(limit / 10))) as unknown as KeyedPage<Row> };
      }
      case 'urlGroups': {
        const profile = this.context.profileOf(crawlId);
        const canonicalContext = this.context.canonicalContextOf(crawlId);
        return {
          columns,
          count: () => queries.countUrlGroupMembers(crawlId),
          page: (after, limit) => {
            const groups = queries.urlGroups(crawlId, after, Math.max(1, Math.floor(limit / 10)));
            const rows: Row[] = [];
            for (const group of groups.rows) {
              const members = group.aliases.map(({ rawUrl }) => ({ rawUrl, ...(rawUrl === group.url && group.httpStatus !== null ? { status: group.httpStatus } : {}) }));
              const chosen = groupCanonical({ fetchedUrl: group.url, redirectTarget: group.redirectTarget, relCanonical: group.relCanonical, members }, canonicalContext);
              for (const { rawUrl, fragmentSpellings } of group.aliases) {
                const causes = differenceCauses(rawUrl, profile);
                rows.push({
                  groupUrlId: group.urlId,
                  normalizedKey: group.normalizedKey,
                  normalized: group.normalized,
                  canonical: chosen.canonical,
                  canonicalLayer: chosen.layer,
                  decidedBy: chosen.decidedBy,
                  rawUrl,
                  fragmentSpellings,
                  isCanonical: withoutFragment(rawUrl) === chosen.canonical,
                  causes: causes.ok ? causes.value.causes : [],
                });
              }
            }
            return { rows, lastKey: groups.lastKey };
          },
        };
      }
      default: {
        const exhaustive: never = kind;
        throw new CodedError('INVALID_PAYLOAD', `Unknown export kind ${String(exhaustive)}`);
      }
    }
  }
}
