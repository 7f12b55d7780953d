import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ExportFormat, ExportKind } from '../../shared/ipc/views';
import { CodedError } from '../../shared/types/result';
import { PROFILES } from '../../shared/url/profiles';
import { openDatabase, CrawlReader, ExportQueries, isStorageError, VersionQueries } from '../../engine';
import { groupCanonicalContext } from '../../app/services/canonical-context';
import { ExportService } from '../../app/services/export-service';
import { exportWarc } from '../../app/services/warc-export';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';
import { parseStoreArg } from '../store-arg';
import { snapshotToTempFile, type TempSnapshot } from '../store-snapshot';
export const EXPORT_USAGE = `Usage: crawlbench export --db FILE|--store URL [--crawl ID] --what pages|frontier|url-groups|content-groups|errors|versions|traps|sitemap-report [--format jsonl|csv] [--out FILE]
       crawlbench export --db FILE|--store URL [--crawl ID] --what warc --out FILE.warc.gz   (the stored bodies as WARC/1.1, with FILE.warc.gz.cdxj)`;

const KINDS: Record<string, ExportKind> = { pages: 'pages', frontier: 'frontier', 'url-groups': 'urlGroups', 'content-groups': 'contentGroups', errors: 'errors', versions: 'versions', traps: 'traps', 'sitemap-report': 'sitemapReport' };

/**
 * `crawlbench export`: writes one table of a crawl (newest crawl unless `--crawl ID`) as JSON lines
 * (default) or CSV (RFC 4180, header row) to stdout, or to `--out FILE` (which must not exist).
 * Columns are the GUI export's (app/services/export-service.ts EXPORT_COLUMNS). The
 * database is opened read-only: nothing in it changes, and a file that is not a Crawlbench
 * database is refused. `--out` is written to a temporary file beside it, which takes the name only
 * when the export is complete (and never over a file that appeared meanwhile): a failed export
 * leaves no partial file. `--store postgres://…` exports a PostgreSQL crawl: it is copied into a
 * temporary SQLite file (one consistent snapshot, engine copyCrawlToSqlite), exported from it
 * exactly as from a --db file, and the copy removed; `--store FILE` is `--db FILE`.
 * @returns 0; 2 for a bad flag, a missing or foreign database, no such crawl, an existing --out
 *   file; 3 when the disk refused the --out file (DISK_FULL); stdout that cannot be written is
 *   bin/crawlbench.mjs's one line and exit code 1
 */
export async function exportCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, store: { type: 'string' }, crawl: { type: 'string' }, what: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } } }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'export'));
  }
  if (values.db === undefined && values.store === undefined) return failLine(io, `MISSING_FLAG: --db FILE or --store URL is required (see crawlbench export --help)`);
  const kind = values.what === 'warc' ? 'warc' : KINDS[values.what ?? ''];
  if (!kind) return failLine(io, `INVALID_FLAG: --what must be one of ${[...Object.keys(KINDS), 'warc'].join(', ')} (see crawlbench export --help)`);
  if (kind === 'warc' && values.out === undefined) return failLine(io, `MISSING_FLAG: --what warc writes a file: give --out FILE.warc.gz (see crawlbench export --help)`);
  const format = (values.format ?? 'jsonl') as ExportFormat;
  if (format !== 'jsonl' && format !== 'csv') return failLine(io, `INVALID_FLAG: --format must be jsonl or csv, got "${values.format}"`);
  let db;
  let staging: string | null = null;
  let snapshot: TempSnapshot | null = null;
  try {
    const store = parseStoreArg(values)!;
    let crawlId: number | null | undefined = intFlag('crawl', values.crawl, 1);
    let dbFile: string;
    if (store.kind === 'postgres') {
      snapshot = await snapshotToTempFile(store.url, crawlId ?? undefined);
      dbFile = snapshot.file;
      crawlId = snapshot.crawlIds[0];
    } else dbFile = store.file;
    db = openDatabase(dbFile, { readonly: true });
    const repository = new CrawlReader(db);
    crawlId ??= db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number | null;
    if (!crawlId) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${store.kind === 'postgres' ? snapshot!.shownUrl : dbFile}`);
    const crawl = repository.getCrawl(crawlId);
    if (kind === 'warc') {
      const written = await exportWarc(db, crawlId, values.out!, crawl.settings);
      io.stderr.write(`exported ${written.responses} responses and ${written.revisits} revisits of crawl ${crawlId} to ${path.resolve(values.out!)} (${written.bytes} bytes), index ${path.resolve(values.out!)}.cdxj\n`);
      return 0;
    }
    const queries = new ExportQueries(db);
    const versions = new VersionQueries(db);
    const profile = crawl.settings.normalizationProfile ?? PROFILES.standard;
    const canonicalContext = groupCanonicalContext(crawl.settings, profile);
    const service = new ExportService({ queries: () => queries, versions: () => versions, profileOf: () => profile, canonicalContextOf: () => canonicalContext }, () => undefined);
    let target: NodeJS.WritableStream = io.stdout;
    const file = values.out ? path.resolve(values.out) : null;
    if (file) {
      if (fs.existsSync(file)) throw new CodedError('EXPORT_EXISTS', `${file} exists already (choose another --out file)`);
      staging = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
      target = fs.createWriteStream(staging, { flags: 'wx' });
    }
    const rows = await service.exportToStream(target, crawlId, kind, format);
    if (file && staging) {
      const stream = target as fs.WriteStream;
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      });
      // On disk before it takes its name: a crash never leaves a named but empty export.
      const fd = fs.openSync(staging, 'r+');
      try {
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      publish(staging, file);
      staging = null;
    }
    io.stderr.write(`exported ${rows} rows of ${values.what} (crawl ${crawlId})${file ? ` to ${file}` : ''}\n`);
    return 0;
  } catch (error) {
    if (staging && isStorageError(error)) {
      return failWith(io, Object.assign(new CodedError('DISK_FULL', `cannot write ${path.resolve(values.out!)}: ${(error as Error).message}; no partial file was left (free some space and export again)`), { cause: error }));
    }
    return failWith(io, error);
  } finally {
    if (staging) fs.rmSync(staging, { force: true });
    db?.close();
    snapshot?.remove();
  }
}

/**
 * Gives a finished temporary file its final name without replacing a file that appeared
 * meanwhile: a hard link fails with EEXIST where a rename would overwrite. File systems without
 * hard links fall back to a rename after a last existence check.
 * @throws CodedError EXPORT_EXISTS
 */
function publish(staging: string, file: string): void {
  try {
    fs.linkSync(staging, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CodedError('EXPORT_EXISTS', `${file} appeared during the export; the export was not written (choose another --out file)`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
    if (fs.existsSync(file)) throw new CodedError('EXPORT_EXISTS', `${file} appeared during the export; the export was not written (choose another --out file)`);
    fs.renameSync(staging, file);
    return;
  }
  fs.rmSync(staging, { force: true });
}
