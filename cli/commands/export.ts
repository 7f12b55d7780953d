import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ExportFormat, ExportKind } from '../../shared/ipc/views';
import { CodedError } from '../../shared/types/result';
import { PROFILES } from '../../shared/url/profiles';
import { openDatabase, CrawlRepository, ExportQueries } from '../../engine';
import { ExportService } from '../../app/services/export-service';
import { failLine, intFlag, type CommandIo } from '../io';

export const EXPORT_USAGE = 'Usage: crawlbench export --db FILE [--crawl ID] --what pages|frontier|url-groups|content-groups|errors [--format jsonl|csv] [--out FILE]';

const KINDS: Record<string, ExportKind> = { pages: 'pages', frontier: 'frontier', 'url-groups': 'urlGroups', 'content-groups': 'contentGroups', errors: 'errors' };

/**
 * `crawlbench export`: writes one table of a crawl (newest crawl unless `--crawl ID`) as JSON lines
 * (default) or CSV (RFC 4180, header row) to stdout, or to `--out FILE` (which must not exist).
 * Columns are the GUI export's (app/services/export-service.ts EXPORT_COLUMNS).
 * @returns 0, or 2 for a bad flag, a missing database or crawl, or an existing --out file
 */
export async function exportCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, crawl: { type: 'string' }, what: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } } }));
  } catch (error) {
    return failLine(io, `${(error as Error).message}\n${EXPORT_USAGE}`);
  }
  if (!values.db) return failLine(io, `--db FILE is required\n${EXPORT_USAGE}`);
  const kind = KINDS[values.what ?? ''];
  if (!kind) return failLine(io, `--what must be one of ${Object.keys(KINDS).join(', ')}\n${EXPORT_USAGE}`);
  const format = (values.format ?? 'jsonl') as ExportFormat;
  if (format !== 'jsonl' && format !== 'csv') return failLine(io, `--format must be jsonl or csv, got "${values.format}"`);
  if (!fs.existsSync(values.db)) return failLine(io, `No database at ${values.db}`);
  let db;
  try {
    db = openDatabase(values.db);
    const repository = new CrawlRepository(db);
    const crawlId = intFlag('crawl', values.crawl, 1) ?? (db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number | null);
    if (!crawlId) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${values.db}`);
    const crawl = repository.getCrawl(crawlId);
    const queries = new ExportQueries(db);
    const service = new ExportService({ queries: () => queries, profileOf: () => crawl.settings.normalizationProfile ?? PROFILES.standard }, () => undefined);
    let target: NodeJS.WritableStream = io.stdout;
    if (values.out) {
      const file = path.resolve(values.out);
      if (fs.existsSync(file)) throw new CodedError('EXPORT_EXISTS', `${file} exists already`);
      target = fs.createWriteStream(file, { flags: 'wx' });
    }
    const rows = await service.exportToStream(target, crawlId, kind, format);
    if (values.out) await new Promise<void>((resolve, reject) => (target as fs.WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())));
    io.stderr.write(`exported ${rows} rows of ${values.what} (crawl ${crawlId})${values.out ? ` to ${path.resolve(values.out)}` : ''}\n`);
    return 0;
  } catch (error) {
    return failLine(io, (error as Error).message);
  } finally {
    db?.close();
  }
}
