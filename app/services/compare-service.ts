/**
 * The Compare view's service (issue 14 part 7): compares two crawls with the diff engine
 * (crawl-diff.ts), of the open database or one of it against a crawl of another database file,
 * and keeps the newest few comparisons in memory so the view reads their changes a page at a time
 * (a comparison of two large crawls can hold 100,000 changes: they never cross the IPC at once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type ReadableDB } from '../../engine';
import type { RowPage } from '../../shared/types/crawl';
import type { ChangeKind, ChangeRow, ComparisonSummary, CrawlChange } from '../../shared/types/comparison';
import { CodedError } from '../../shared/types/result';
import { diffCrawls, newestCrawlIds, type CrawlDiff } from './crawl-diff';

/** Comparisons kept for paging; a run past it drops the oldest (its id then answers COMPARISON_NOT_FOUND). */
export const KEPT_COMPARISONS = 3;

/** What to compare: a crawl of the open database before, and after it a crawl of it or of another file. */
export interface CompareRequest {
  beforeCrawlId: number;
  /** The after crawl; with `afterFile` and without it, that file's newest crawl. */
  afterCrawlId?: number;
  /** Absolute path of another Crawlbench database file holding the after crawl. */
  afterFile?: string;
}

/** One page of a kept comparison's changes. */
export interface ChangesRequest {
  comparisonId: number;
  /** Only changes of this kind; absent: every kind. */
  kind?: ChangeKind;
  /** Only changes whose URL contains this text, case-insensitively; absent or empty: every URL. */
  urlContains?: string;
  offset: number;
  limit: number;
}

/** Options of {@link CompareService}. */
export interface CompareServiceOptions {
  /** better-sqlite3's addon built for Electron's ABI, to open the other database file with. */
  nativeBinding?: string;
}

interface KeptComparison {
  summary: ComparisonSummary;
  changes: readonly CrawlChange[];
}

/**
 * Runs comparisons over the open database (`db`, whose file is `openFile`) and pages their changes.
 * A comparison is computed on this thread in one read transaction per database (about 2 s for two
 * crawls of 100,000 URLs, crawl-diff.ts) and kept until {@link KEPT_COMPARISONS} newer ones push it out.
 */
export class CompareService {
  private nextId = 1;
  private readonly kept = new Map<number, KeptComparison>();
  /** The last filter's matching change positions, so paging through a filtered list does not filter it again per page. */
  private filtered: { key: string; indexes: number[] } | null = null;

  constructor(
    private readonly db: ReadableDB,
    private readonly openFile: string,
    private readonly options: CompareServiceOptions = {},
  ) {}

  /**
   * Compares two crawls and keeps the result.
   * @returns the counts per kind and the two crawls' descriptions, with the id to page the changes by
   * @throws CodedError CRAWL_NOT_FOUND (a crawl id, or a file without crawls), NOTHING_TO_COMPARE
   *   (the same crawl twice), COMPARE_FILE_INVALID (`afterFile` relative, or a folder),
   *   DB_NOT_FOUND, NOT_A_CRAWL_DB, SCHEMA_TOO_NEW, DB_OPEN_FAILED (the other file)
   */
  run(request: CompareRequest): ComparisonSummary {
    const startedAt = performance.now();
    const other = request.afterFile === undefined ? null : this.openOther(request.afterFile);
    try {
      const afterDb = other?.db ?? this.db;
      const afterCrawlId = request.afterCrawlId ?? newestCrawlId(afterDb, other?.file ?? this.openFile);
      const diff = diffCrawls({ db: this.db, crawlId: request.beforeCrawlId }, { db: afterDb, crawlId: afterCrawlId });
      const comparisonId = this.nextId++;
      const summary = summarize(comparisonId, diff, other?.file ?? null, Math.round(performance.now() - startedAt));
      this.kept.set(comparisonId, { summary, changes: diff.changes });
      for (const id of this.kept.keys()) if (this.kept.size > KEPT_COMPARISONS) this.kept.delete(id);
      return summary;
    } finally {
      if (other && other.db !== this.db) other.db.close();
    }
  }

  /**
   * One page of a kept comparison's changes in its order (kind, then URL), filtered.
   * @returns the rows, each with its position in the whole comparison, and `total` matching the filter
   * @throws CodedError COMPARISON_NOT_FOUND (never run, or pushed out by newer ones: run it again)
   */
  changes(request: ChangesRequest): RowPage<ChangeRow> {
    const kept = this.kept.get(request.comparisonId);
    if (!kept) throw new CodedError('COMPARISON_NOT_FOUND', `Comparison ${request.comparisonId} is no longer kept (only the newest ${KEPT_COMPARISONS} are): run the comparison again`);
    const text = (request.urlContains ?? '').toLowerCase();
    const rows: ChangeRow[] = [];
    if (request.kind === undefined && text === '') {
      const end = Math.min(kept.changes.length, request.offset + request.limit);
      for (let index = request.offset; index < end; index += 1) rows.push({ ...kept.changes[index]!, index });
      return { rows, total: kept.changes.length, offset: request.offset };
    }
    const key = JSON.stringify([request.comparisonId, request.kind ?? null, text]);
    if (this.filtered?.key !== key) {
      const indexes: number[] = [];
      kept.changes.forEach((change, index) => {
        if ((request.kind === undefined || change.kind === request.kind) && (text === '' || change.url.toLowerCase().includes(text))) indexes.push(index);
      });
      this.filtered = { key, indexes };
    }
    const { indexes } = this.filtered;
    for (const index of indexes.slice(request.offset, request.offset + request.limit)) rows.push({ ...kept.changes[index]!, index });
    return { rows, total: indexes.length, offset: request.offset };
  }

  /**
   * Opens the other database file read-only, after checking the path: absolute, an existing file.
   * The open database's own file, named again, is read through its open handle.
   */
  private openOther(file: string): { db: ReadableDB; file: string | null } {
    if (!path.isAbsolute(file)) throw new CodedError('COMPARE_FILE_INVALID', `Give the absolute path of a Crawlbench database file to compare with, not ${JSON.stringify(file.slice(0, 200))}`);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      throw new CodedError('DB_NOT_FOUND', `No database at ${file} (check the path)`);
    }
    if (!stat.isFile()) throw new CodedError('COMPARE_FILE_INVALID', `${file} is a folder, not a Crawlbench database file`);
    if (sameFile(file, this.openFile)) return { db: this.db, file: null };
    return { db: openDatabase(file, { readonly: true, ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}) }), file };
  }
}

/** The newest crawl of a database. @throws CodedError CRAWL_NOT_FOUND when it has none */
function newestCrawlId(db: ReadableDB, file: string): number {
  const [newest] = newestCrawlIds(db, 1);
  if (newest === undefined) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${file}`);
  return newest;
}

/** True when two paths name one file (symbolic links and `..` resolved). */
function sameFile(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

function summarize(comparisonId: number, diff: CrawlDiff, afterFile: string | null, ms: number): ComparisonSummary {
  return {
    comparisonId,
    before: { ...diff.before, file: null },
    after: { ...diff.after, file: afterFile },
    rekeyed: diff.rekeyed,
    foldedByRekey: diff.foldedByRekey,
    nearDuplicateThreshold: diff.nearDuplicateThreshold,
    common: diff.common,
    counts: diff.counts,
    total: diff.changes.length,
    ms,
  };
}
