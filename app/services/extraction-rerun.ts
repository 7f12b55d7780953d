/**
 * Re-running a crawl's extractors over its stored bodies (issue 14 part 2): edit an extractor and
 * see its values on every page without a recrawl. Reads each stored HTML body (engine/bodies),
 * decodes it in its own charset, runs the compiled extractors (engine/extract) and replaces the
 * page's results, a transaction per EXTRACT_BATCH pages; the crawl's settings then name the new
 * extractors, so a resumed crawl runs them on the pages it fetches next. Under the crawl lease: it
 * never runs beside a crawl of the same file.
 */
import { BodyQueries, bodyBytes, CompiledExtractors, CrawlLease, CrawlRepository, decodeHtml, isHtml, storageError, type WritableDB } from '../../engine';
import type { Extractor } from '../../shared/types/extraction';
import { CodedError } from '../../shared/types/result';

/** Pages whose results are written in one transaction. */
export const EXTRACT_BATCH = 500;

/** What a re-run did. */
export interface ExtractionRerun {
  /** HTML pages with a stored body the extractors ran on. */
  pages: number;
  /** Stored bodies that are not HTML (left without results). */
  skipped: number;
  /** Wall time of the whole re-run, ms. */
  ms: number;
}

/** Where a re-run stands: after each written batch (and once before the first, `done` 0). */
export interface RerunProgress {
  /** Stored bodies read so far. */
  done: number;
  /** Stored bodies of the crawl, counted when the re-run started. */
  total: number;
  /** HTML pages the extractors ran on so far. */
  pages: number;
  /** Stored bodies that are not HTML (or are redirects), left without results. */
  skipped: number;
}

/**
 * Runs `extractors` over every stored HTML body of crawl `crawlId` and stores their results in
 * place of the old ones (pages without a stored body keep theirs); then stores the extractors as
 * the crawl's. No URL is fetched.
 * @param onProgress after each batch: pages done so far and the stored bodies in all
 * @throws CodedError INVALID_EXTRACTOR (before anything is written), CRAWL_NOT_FOUND,
 *   DB_BUSY (a crawl of this file runs in another process), NO_STORED_BODIES, DISK_FULL …
 */
export function rerunExtractors(db: WritableDB, crawlId: number, extractors: readonly Extractor[], onProgress?: (done: number, total: number) => void): ExtractionRerun {
  const steps = rerunSteps(db, crawlId, extractors);
  // The first step only takes the lease (done 0): the CLI reports after each batch written.
  for (let step = steps.next(), first = true; ; step = steps.next(), first = false) {
    if (step.done) return step.value;
    if (!first) onProgress?.(step.value.done, step.value.total);
  }
}

/**
 * The re-run of {@link rerunExtractors} a step at a time, for a caller that must keep its event
 * loop turning (the app: progress events, other requests): the first `next()` checks everything
 * and takes the crawl lease, throwing before any write, and yields `done: 0`; each further one
 * writes a batch of at most `batchSize` pages in one transaction and yields where the re-run
 * stands; the last writes the rest, stores the extractors in the crawl's settings and returns what
 * the re-run did. Nothing is held between steps but the crawl lease, which is released when the
 * steps end (finished, failed, or ended early with `return()`), so a caller started must drive the
 * steps to their end.
 * @param batchSize pages written per transaction and step @default EXTRACT_BATCH
 * @throws CodedError INVALID_EXTRACTOR, CRAWL_NOT_FOUND, NO_STORED_BODIES, DB_BUSY (first step);
 *   DISK_FULL, DB_IO_ERROR … (any step)
 */
export function* rerunSteps(db: WritableDB, crawlId: number, extractors: readonly Extractor[], batchSize = EXTRACT_BATCH): Generator<RerunProgress, ExtractionRerun, void> {
  const startedAt = performance.now();
  const compiled = CompiledExtractors.compile(extractors);
  const repository = new CrawlRepository(db);
  const crawl = repository.getCrawl(crawlId);
  const bodies = new BodyQueries(db);
  const total = bodies.count(crawlId);
  if (total === 0) throw new CodedError('NO_STORED_BODIES', `Crawl ${crawlId} kept no page bodies (crawled with --no-store-bodies): extractors can only run on its next fetches (resume it, or crawl again)`);
  let lease: CrawlLease;
  try {
    lease = CrawlLease.acquire(db, crawlId);
  } catch (error) {
    throw storageError(error, db.name);
  }
  try {
    const upsert = db.prepare(`INSERT OR REPLACE INTO page_extractions (url_id, values_json) VALUES (?, ?)`);
    const remove = db.prepare(`DELETE FROM page_extractions WHERE url_id = ?`);
    const write = db.transaction((rows: { urlId: number; json: string | null }[]) => {
      for (const row of rows) if (row.json === null) remove.run(row.urlId);
      else upsert.run(row.urlId, row.json);
    });
    const result = { pages: 0, skipped: 0, ms: 0 };
    let pending: { urlId: number; json: string | null }[] = [];
    let done = 0;
    yield { done, total, pages: 0, skipped: 0 };
    const contentTypes = db.prepare(`SELECT content_type FROM pages WHERE url_id = ?`).pluck();
    // The bodies' ids are read first (BodyQueries.fetches), each body by its id: no statement stays open across a step.
    for (const fetch of bodies.fetches(crawlId)) {
      const body = bodyBytes(fetch.encoding, fetch.body);
      const contentType = (contentTypes.get(fetch.urlId) as string | null) ?? undefined;
      if (isHtml(contentType, body) && !(fetch.status >= 300 && fetch.status < 400)) {
        pending.push({ urlId: fetch.urlId, json: compiled.empty ? null : JSON.stringify(compiled.run(decodeHtml(contentType, body).text)) });
        result.pages += 1;
      } else result.skipped += 1;
      done += 1;
      if (pending.length >= batchSize) {
        write(pending);
        pending = [];
        yield { done, total, pages: result.pages, skipped: result.skipped };
      }
    }
    write(pending);
    yield { done, total, pages: result.pages, skipped: result.skipped };
    repository.updateSettings(crawlId, { ...crawl.settings, extractors: [...extractors] });
    result.ms = Math.round(performance.now() - startedAt);
    return result;
  } catch (error) {
    throw error instanceof CodedError ? error : storageError(error, db.name);
  } finally {
    lease.release();
  }
}
