/**
 * The Pages view's "Re-run extractors" (issue 14 part 2): edited extractor lines run over the open
 * crawl's stored bodies in the background, a batch at a time between turns of the event loop, so
 * progress events reach the renderer and other requests are answered meanwhile. While it runs, no
 * crawl of the file may start or resume (and it does not start beside a running one): the re-run
 * and a crawl would both write the crawl's pages.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { WritableDB } from '../../engine';
import type { ExtractionProgress } from '../../shared/ipc/views';
import { parseExtractor, type Extractor } from '../../shared/types/extraction';
import { CodedError, toErrorInfo } from '../../shared/types/result';
import type { CrawlService } from './crawl-service';
import { rerunSteps, type ExtractionRerun, type RerunProgress } from './extraction-rerun';

/**
 * Pages the app's re-run writes per transaction and step: about 0.1 s of parsing and extracting
 * (the CLI's 500-page batches run about 0.5 s), so the main process answers other requests and
 * sends progress within a tenth of a second or so.
 */
export const APP_EXTRACT_BATCH = 100;

/** Tuning of {@link ExtractionService} (tests use small batches). */
export interface ExtractionServiceOptions {
  /** Pages written per transaction, between two turns of the event loop. @default APP_EXTRACT_BATCH */
  batchSize?: number;
  /** Minimum gap between two progress events, ms (the first and the last are always sent). @default 100 */
  progressIntervalMs?: number;
}

/**
 * Reads extractor lines as the crawl form writes them (`NAME[:first|all|count]=KIND:EXPRESSION`,
 * shared/types/extraction.ts); blank lines are skipped.
 * @example extractorsFromLines(['price=css:.price', '', 'sku=regex:SKU-([0-9]+)']) // two extractors
 * @throws CodedError INVALID_EXTRACTOR naming the first line (1-based, blank lines counted) that does not read
 */
export function extractorsFromLines(lines: readonly string[]): Extractor[] {
  const extractors: Extractor[] = [];
  lines.forEach((line, index) => {
    const text = line.trim();
    if (text === '') return;
    const parsed = parseExtractor(text);
    if (!parsed.ok) throw new CodedError(parsed.error.code, `Line ${index + 1}: ${parsed.error.message}`);
    extractors.push(parsed.value);
  });
  return extractors;
}

/**
 * Starts and drives re-runs of extractors over one database's crawls, one at a time, reporting
 * {@link ExtractionProgress} through `onProgress` (the app sends it as `extract.onDidProgress`).
 */
export class ExtractionService {
  private nextId = 1;
  private current: ExtractionProgress | null = null;
  private readonly batchSize: number;
  private readonly progressIntervalMs: number;

  constructor(
    private readonly db: WritableDB,
    private readonly crawls: CrawlService,
    private readonly onProgress: (progress: ExtractionProgress) => void,
    options: ExtractionServiceOptions = {},
  ) {
    this.batchSize = options.batchSize ?? APP_EXTRACT_BATCH;
    this.progressIntervalMs = options.progressIntervalMs ?? 100;
  }

  /** The re-run under way, or null. */
  get running(): ExtractionProgress | null {
    return this.current && { ...this.current };
  }

  /**
   * Checks the lines, the crawl and the database, takes the crawl lease and starts the re-run in
   * the background (its progress goes to `onProgress`; starts and resumes of crawls are refused
   * with EXTRACTION_RUNNING until it ends).
   * @returns the first progress report (state `running`, `total` stored bodies) and the promise of the last one (never rejects)
   * @throws CodedError INVALID_EXTRACTOR (a line that does not read, a selector or pattern that does
   *   not compile, a repeated name, too many), EXTRACTION_RUNNING (another re-run of this app runs),
   *   CRAWL_RUNNING (a crawl of this database runs in this app), DB_BUSY (another process crawls
   *   it), CRAWL_NOT_FOUND, NO_STORED_BODIES; nothing is written then
   */
  start(crawlId: number, lines: readonly string[]): { progress: ExtractionProgress; done: Promise<ExtractionProgress> } {
    const extractors = extractorsFromLines(lines);
    if (this.current) {
      throw new CodedError('EXTRACTION_RUNNING', `Extractors are being re-run over crawl ${this.current.crawlId}'s stored pages: wait for that re-run to finish`);
    }
    const running = this.crawls.runningCrawlIds();
    if (running.length > 0) {
      const which = running.length === 1 ? `Crawl ${running[0]} is running` : `Crawls ${running.join(', ')} are running`;
      throw new CodedError('CRAWL_RUNNING', `${which} on this database: pause or stop it, then re-run the extractors (a re-run and a crawl would both write the pages)`);
    }
    const release = this.crawls.holdStarts(
      new CodedError('EXTRACTION_RUNNING', `Extractors are being re-run over crawl ${crawlId}'s stored pages: start or resume a crawl when the re-run is done (its progress is in the Pages view)`),
    );
    const steps = rerunSteps(this.db, crawlId, extractors, this.batchSize);
    let first: IteratorResult<RerunProgress, ExtractionRerun>;
    try {
      first = steps.next();
    } catch (error) {
      release();
      throw error;
    }
    const startedAt = performance.now();
    const progress: ExtractionProgress = {
      rerunId: this.nextId++,
      crawlId,
      extractors: extractors.map((extractor) => extractor.name),
      done: 0,
      total: first.done ? 0 : first.value.total,
      pages: 0,
      skipped: 0,
      state: 'running',
      ms: 0,
      error: null,
    };
    this.current = progress;
    const done = this.drive(steps, first, progress, startedAt).finally(() => {
      release();
      this.current = null;
    });
    return { progress: { ...progress }, done };
  }

  /** Runs the remaining steps, yielding to the event loop between batches, and reports progress. Never rejects. */
  private async drive(steps: Generator<RerunProgress, ExtractionRerun, void>, first: IteratorResult<RerunProgress, ExtractionRerun>, progress: ExtractionProgress, startedAt: number): Promise<ExtractionProgress> {
    let lastReportMs = 0;
    const report = (force: boolean) => {
      const now = performance.now();
      if (!force && now - lastReportMs < this.progressIntervalMs) return;
      lastReportMs = now;
      progress.ms = Math.round(now - startedAt);
      this.onProgress({ ...progress, extractors: [...progress.extractors] });
    };
    try {
      for (let step = first; ; ) {
        if (step.done) {
          Object.assign(progress, { pages: step.value.pages, skipped: step.value.skipped, state: 'done' });
          break;
        }
        Object.assign(progress, { done: step.value.done, pages: step.value.pages, skipped: step.value.skipped });
        report(false);
        await yieldToEventLoop();
        step = steps.next();
      }
    } catch (error) {
      progress.state = 'failed';
      progress.error = toErrorInfo(error);
    }
    report(true);
    return progress;
  }
}
