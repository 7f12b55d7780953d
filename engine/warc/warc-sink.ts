/**
 * The live WARC of a crawl (issue 14 part 6, `crawl --warc FILE.warc.gz`): each fetch's records,
 * serialized in the worker that fetched it (warc-records.ts: request + response, gzip members),
 * appended here on the scheduler's thread in the order results arrive, or replaced by a
 * request + revisit pair when an earlier response of this run had the same payload (WARC/1.1
 * §6.7, identical-payload-digest profile). The scheduler never waits on the file: appends queue
 * in WarcFileWriter, and a failed one (a full disk) ends the run through `onError`.
 */
import type { PageResult } from '../worker/protocol';
import type { WarcFileWriter } from './warc-file';
import { revisitRecords } from './warc-records';
import { RevisitIndex } from './revisit-index';

/** What the run that feeds a sink tells it when it starts (CrawlRunner.run). */
export interface WarcRun {
  /** The request headers of every fetch (fetch/fetcher.ts requestHeaders): a revisit's request record states them. */
  requestHeaders: Record<string, string>;
  /** An append failed (the run cannot keep its archive whole): called once. */
  onError(error: Error): void;
}

export class WarcSink {
  private readonly revisits = new RevisitIndex();
  private pending: Promise<void> = Promise.resolve();
  private failed = false;
  private responseCount = 0;
  private revisitCount = 0;
  private run: WarcRun = { requestHeaders: {}, onError: () => undefined };

  /** @param file the open WARC file (the caller closes it after the run: close writes its CDXJ index) */
  constructor(private readonly file: WarcFileWriter) {}

  /** The run that feeds the sink from now on: its request headers and where a failed append goes. */
  attach(run: WarcRun): void {
    this.run = run;
  }

  /**
   * Archives a page result's capture (results without one, e.g. from a run without --warc, are
   * skipped). A non-empty payload seen before becomes a revisit pair referring to the first
   * response with it; every other capture is appended as the worker built it.
   */
  record(result: PageResult): void {
    const capture = result.warc;
    if (!capture || this.failed) return;
    const original = this.revisits.revisitOf(capture.payloadDigest, result.bodyBytes, { url: result.finalUrl, fetchedAtMs: capture.fetchedAtMs });
    if (original === undefined) {
      this.responseCount += 1;
      this.chain(async () => this.file.append(capture.bytes, capture.records));
      return;
    }
    this.revisitCount += 1;
    const fetch = { url: result.finalUrl, fetchedAtMs: capture.fetchedAtMs, status: result.status, responseHeadersJson: result.responseHeadersJson, requestHeaders: this.run.requestHeaders, protocols: capture.protocols };
    this.chain(async () => {
      const bytes = await revisitRecords(fetch, original, capture.payloadDigest, { gzip: this.file.gzip });
      await this.file.append(bytes);
    });
  }

  /** The file's records are gzip members (.warc.gz): the workers build them so. */
  get gzip(): boolean {
    return this.file.gzip;
  }

  /** Response records (whole payloads) and revisit records archived by this run. */
  get counts(): { responses: number; revisits: number } {
    return { responses: this.responseCount, revisits: this.revisitCount };
  }

  /** Settles when every record asked for so far is written (or the sink failed). */
  flush(): Promise<void> {
    return this.pending;
  }

  /** Runs `write` after the writes before it (revisit records are built asynchronously; the file keeps call order). */
  private chain(write: () => Promise<void>): void {
    this.pending = this.pending.then(write).catch((error: unknown) => {
      if (this.failed) return;
      this.failed = true;
      this.run.onError(error instanceof Error ? error : new Error(String(error)));
    });
  }
}
