/**
 * The result committer: buffers settled fetches for a short window and writes each batch (page
 * rows, page texts, the content-seen test, links, aliases, newly discovered URLs, frontier
 * outcomes) in one unit of work, so a killed process loses at most the URLs in flight or in the
 * window, which resume as pending (IIR 20.2: the "Doc FP's" and "URL filter" stages, then the frontier).
 */
import type { CrawlSettings } from '../../shared/types/crawl';
import type { RedirectTarget } from '../fetch/redirects';
import type { LinkPipeline } from '../links/link-pipeline';
import { canonicalisedElsewhere, pageIndexability } from '../parse/indexability';
import type { SettledFetch } from '../schedule/retry-policy';
import type { ClaimedUrl, CrawlStores, Disposition } from '../store/ports';
import { linkElement, type PageResult } from '../worker/protocol';

/**
 * Results buffered beyond this many are committed at once. A commit blocks the scheduler (about
 * 2 ms a page with its links), and no fetch is dispatched meanwhile: small batches keep the
 * workers fed (256 left them idle for ~300 ms per commit on the docs crawl).
 */
export const MAX_UNCOMMITTED = 32;

export interface ResultCommitterOptions {
  stores: Pick<CrawlStores, 'frontier' | 'writer' | 'contentIndex' | 'redirects' | 'unitOfWork'>;
  settings: Pick<CrawlSettings, 'maxRedirects'>;
  links: LinkPipeline;
  /** A page found to duplicate earlier content (exact or near). */
  onDuplicate(): void;
  /** The commit window ran out and its batch was written: the scheduler may have new work. */
  onWindowCommitted(): void;
  /** A commit failed (e.g. DISK_FULL): the run cannot go on. */
  onError(error: Error): void;
  /** Longest time a finished fetch waits before its commit, ms. @default 500 */
  commitIntervalMs?: number;
}

export class ResultCommitter {
  private readonly uncommitted: SettledFetch[] = [];
  private commitTimer: NodeJS.Timeout | null = null;
  /** The commit under way, so commits never overlap (a networked store answers later). */
  private committing: Promise<void> | null = null;

  constructor(private readonly options: ResultCommitterOptions) {}

  /** Settled fetches waiting for their commit. */
  get pending(): number {
    return this.uncommitted.length;
  }

  /** Buffers a settled fetch: the batch commits when full, else when the window runs out. */
  add(settled: SettledFetch): void {
    this.uncommitted.push(settled);
    if (this.uncommitted.length >= MAX_UNCOMMITTED) void this.commit();
    else
      this.commitTimer ??= setTimeout(() => {
        this.commitTimer = null;
        void this.commit().then(() => this.options.onWindowCommitted());
      }, this.options.commitIntervalMs ?? 500);
  }

  /** Drops the window's timer (the run was aborted: what is buffered resumes as pending). */
  cancel(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = null;
  }

  /**
   * Writes every buffered result, its page row, links and newly discovered URLs, in one unit of
   * work; after the commit under way, if any (commits never overlap). A failure goes to `onError`
   * (never thrown); the promise settles when the batch is written.
   */
  commit(): Promise<void> {
    this.cancel();
    if (this.committing) return this.committing.then(() => this.commit());
    if (this.uncommitted.length === 0) return Promise.resolve();
    const done = this.write(this.uncommitted.splice(0));
    this.committing = done;
    void done.finally(() => {
      if (this.committing === done) this.committing = null;
    });
    return done;
  }

  /** One batch, one unit of work (a SQLite unit runs before this returns its promise). */
  private async write(batch: readonly SettledFetch[]): Promise<void> {
    const { frontier, unitOfWork } = this.options.stores;
    try {
      await unitOfWork.run(() => {
        for (const { url, message, disposition, retry } of batch) {
          if (retry) frontier.requeue(url, disposition);
          else if (message.type === 'page') this.recordPage(url, message.result, disposition);
          else frontier.fail(url, message.error, disposition);
        }
      });
    } catch (error) {
      this.options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private recordPage(url: ClaimedUrl, page: PageResult, disposition: Disposition): void {
    const { frontier, writer, contentIndex } = this.options.stores;
    const now = disposition.nowMs;
    writer.insertPage({
      urlId: url.id,
      finalUrl: page.finalUrl,
      httpStatus: page.status,
      contentType: page.contentType,
      bodyBytes: page.bodyBytes,
      truncated: page.truncated,
      fetchMs: page.fetchMs,
      title: page.title,
      location: page.redirect === null ? null : (page.redirect.location ?? page.redirect.raw),
      fetchedAtMs: now,
      fingerprint: page.content?.fingerprint ?? null,
      minhash: page.content?.minhash ?? null,
      textChars: page.content?.textChars ?? null,
      noindex: page.noindex,
      linksOverCap: page.linksOverCap,
      responseHeadersJson: page.responseHeadersJson,
      metaDescription: page.metaDescription,
      h1: page.h1,
      canonicalUrl: page.canonicalUrl,
      robotsDirectives: page.robotsDirectives,
      indexability: pageIndexability({
        status: page.status,
        robotsDirectives: page.robotsDirectives,
        canonicalisedElsewhere: canonicalisedElsewhere(url.url, page.canonicalUrl, (other) => this.options.links.normalizedKey(other)),
      }),
      wordCount: page.wordCount,
      lang: page.lang,
    });
    if (page.content && page.content.excerpt !== '') writer.insertPageText(url.id, page.content.excerpt);
    // Content-seen test (seed 003): only successful pages take part; error pages often share text,
    // and 3xx bodies are not pages.
    if (page.content && page.status < 300 && contentIndex.record(url.id, page.content, now).kind !== 'unique') this.options.onDuplicate();
    if (page.redirect !== null) {
      this.recordRedirect(url, page.redirect, disposition);
      return;
    }
    if (page.status >= 400) {
      frontier.fail(url, { code: `HTTP_${page.status}`, message: `HTTP ${page.status} from ${page.finalUrl}` }, disposition);
    } else {
      frontier.complete(url, disposition);
    }
    const { candidates, links } = this.options.links.pageLinks(url, page);
    const { ids } = frontier.add(candidates, now);
    this.options.links.writeLinks(writer, url.id, links, ids);
  }

  /**
   * A redirect answer (RFC 9110 §15.4) is the URL's own result: done with its 3xx status, and its
   * target offered to the frontier like a link (see LinkPipeline.redirect). A known target whose
   * stored redirects lead back here makes this hop a REDIRECT_LOOP error.
   */
  private recordRedirect(url: ClaimedUrl, redirect: RedirectTarget, disposition: Disposition): void {
    const { frontier, writer, redirects } = this.options.stores;
    const verdict = this.options.links.redirect(url, redirect);
    if (verdict.candidate === null) {
      frontier.complete(url, disposition);
      writer.insertLink({ fromUrlId: url.id, rawUrl: verdict.raw, toUrlId: null, kind: 'redirect', refusedBy: verdict.refusedBy, element: linkElement('redirect') });
      return;
    }
    const { ids, added } = frontier.add([verdict.candidate], disposition.nowMs);
    const toUrlId = ids[0]!;
    if (added === 0 && redirects.closesLoop(url.id, toUrlId, this.options.settings.maxRedirects + 1)) {
      frontier.fail(url, { code: 'REDIRECT_LOOP', message: `Redirect loop: ${url.url} redirects to ${verdict.candidate.url}, earlier in its own redirect chain` }, disposition);
    } else {
      frontier.complete(url, disposition);
    }
    this.options.links.writeAlias(writer, toUrlId, verdict.raw, url.id);
    writer.insertLink({ fromUrlId: url.id, rawUrl: verdict.raw, toUrlId, kind: 'redirect', refusedBy: null, element: linkElement('redirect') });
  }
}
