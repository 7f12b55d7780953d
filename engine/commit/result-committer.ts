/**
 * The result committer: buffers settled fetches (and the robots gate's outcomes) for a short
 * window and hands each batch to the store as one CommitBatch of plain data (new URLs, page rows,
 * page texts, links, aliases, frontier outcomes), written in one unit of work, so a killed process
 * loses at most the URLs in flight or in the window, which resume as pending (IIR 20.2: the
 * "Doc FP's" and "URL filter" stages, then the frontier).
 */
import type { CrawlSettings } from '../../shared/types/crawl';
import type { LinkPipeline, TargetMemo } from '../links/link-pipeline';
import type { TrapGuard } from '../traps/trap-guard';
import { canonicalisedElsewhere, pageIndexability } from '../parse/indexability';
import type { SettledFetch } from '../schedule/retry-policy';
import type { SettledSitemap } from '../sitemaps/sitemap-discovery';
import { sitemapWrite } from '../sitemaps/sitemap-write';
import type { AliasWrite, ClaimedUrl, CommitBatch, CrawlStores, Disposition, FrontierCandidate, LinkWrite, PageWrite, SitemapWrite, UrlError, UrlOutcome } from '../store/ports';
import type { ContentFingerprints, PageContent, PageResult } from '../worker/protocol';
import { seenCache, seenEntryId, seenEntrySources } from '../dedupe/seen-cache';
import { URL_SOURCE_BITS } from '../../shared/types/url-sources';

/** The source bit a page's link gives its target (shared/types/url-sources.ts). */
const LINK_SOURCE_BIT = URL_SOURCE_BITS.link;

/**
 * Results buffered beyond this many are committed at once. Where the store writes on the
 * scheduler's thread (`:memory:`, writerThread off) a commit blocks it (about 2 ms a page with its
 * links) and no fetch is dispatched meanwhile: small batches keep the workers fed (256 left them
 * idle for ~300 ms per commit on the docs crawl). With the store-writer thread, results that
 * arrive while a batch is being written go into the next one, which can grow to MAX_BACKLOG.
 */
export const MAX_UNCOMMITTED = 32;

/**
 * Results waiting for their commit beyond which the scheduler claims nothing until the store has
 * caught up (backpressure): with the writes on their own thread, fetching no longer waits on a
 * commit, so without this bound a store slower than the fetchers would let results (each page's
 * links and text) pile up in memory. It also bounds what a killed process loses: these results
 * resume as pending.
 */
export const MAX_BACKLOG = 512;

export interface ResultCommitterOptions {
  stores: Pick<CrawlStores, 'writer'>;
  settings: Pick<CrawlSettings, 'maxRedirects'>;
  links: LinkPipeline;
  /** `count` pages were found to duplicate earlier content (exact or near). */
  onDuplicates(count: number): void;
  /** The commit window ran out and its batch was written: the scheduler may have new work. */
  onWindowCommitted(): void;
  /** A commit failed (e.g. DISK_FULL): the run cannot go on. */
  onError(error: Error): void;
  /**
   * Called before each batch is written: state that must be durable no later than the pages of
   * the batch (the cookie jar their answers set) is written here. A throw fails the batch (onError).
   */
  beforeWrite?(): void;
  /** Longest time a finished fetch waits before its commit, ms. @default 500 */
  commitIntervalMs?: number;
  /** The crawl's trap guard (engine/traps): screens every page's links and counts its content; absent when trapGuard is off. */
  traps?: TrapGuard;
  /** Epoch ms (the batch's enqueue time). @default Date.now */
  now?: () => number;
}

/** A commit batch being filled (every part present and growable). */
interface BatchDraft {
  nowMs: number;
  candidates: FrontierCandidate[];
  pages: PageWrite[];
  outcomes: UrlOutcome[];
  links: LinkWrite[];
  aliases: AliasWrite[];
  sitemaps: SitemapWrite[];
}

/** An HTTP error answer as the URL's error (code HTTP_<status>, shared/types/error-codes.ts). */
function httpError(page: PageResult): UrlError {
  return { code: `HTTP_${page.status}`, message: `HTTP ${page.status} from ${page.finalUrl}` };
}

/** A page's content without its excerpt: what the content-seen test reads (PageWrite.content). */
function contentFingerprints({ fingerprint, minhash, words, textChars }: PageContent): ContentFingerprints {
  return { fingerprint, minhash, words, textChars };
}

function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

/** One buffered entry: a fetch's result, an outcome decided without a fetch (robots, a limit, a stop), or a sitemap read. */
type Buffered = { settled: SettledFetch } | { outcome: UrlOutcome } | { sitemap: SettledSitemap };

export class ResultCommitter {
  private readonly uncommitted: Buffered[] = [];
  private commitTimer: NodeJS.Timeout | null = null;
  /** The commit under way, so commits never overlap (a networked store answers later). */
  private committing: Promise<void> | null = null;
  /**
   * URLs the store told this run it holds (CommitResult.seen): normalized key → seenEntry. A
   * page's link to one already known as linked is written with its id, and offered as no
   * candidate: on the synthetic site 98% of links name known URLs, and each candidate cost the
   * URL-seen test on the writer thread and five strings on the way there.
   */
  private readonly known = seenCache();

  constructor(private readonly options: ResultCommitterOptions) {}

  /** Entries waiting for their commit. */
  get pending(): number {
    return this.uncommitted.length;
  }

  /** True when {@link MAX_BACKLOG} results wait: claim nothing more until a commit has taken them. */
  get backlogged(): boolean {
    return this.uncommitted.length >= MAX_BACKLOG;
  }

  /** Buffers a settled fetch: the batch commits when full, else when the window runs out. */
  add(settled: SettledFetch): void {
    this.buffer({ settled });
  }

  /**
   * Buffers an outcome decided without a fetch (refused by robots or the redirect limit, retried
   * later, requeued on stop). The caller has released the URL's host already, or the store does.
   */
  addOutcome(outcome: UrlOutcome): void {
    this.buffer({ outcome });
  }

  /** Buffers a settled sitemap: its row, and its URLs offered to the frontier (source `sitemap`). */
  addSitemap(sitemap: SettledSitemap): void {
    this.buffer({ sitemap });
  }

  /** Drops the window's timer (the run was aborted: what is buffered resumes as pending). */
  cancel(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = null;
  }

  /**
   * Writes every buffered entry, its page row, links and newly discovered URLs, as one batch; after
   * the commit under way, if any (commits never overlap). A failure goes to `onError` (never
   * thrown); the promise settles when the batch is written.
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

  private buffer(entry: Buffered): void {
    this.uncommitted.push(entry);
    if (this.uncommitted.length >= MAX_UNCOMMITTED) void this.commit();
    else
      this.commitTimer ??= setTimeout(() => {
        this.commitTimer = null;
        void this.commit().then(() => this.options.onWindowCommitted());
      }, this.options.commitIntervalMs ?? 500);
  }

  /** One batch, one call to the store. */
  private async write(entries: readonly Buffered[]): Promise<void> {
    try {
      this.options.beforeWrite?.();
      const batch = this.batchOf(entries);
      const result = await this.options.stores.writer.commit(batch);
      if (result.seen) this.learn(batch.candidates ?? [], result.seen);
      if (result.duplicates > 0) this.options.onDuplicates(result.duplicates);
    } catch (error) {
      this.options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The batch's data: each entry's outcome, page, links, aliases and candidates, in entry order. */
  private batchOf(entries: readonly Buffered[]): CommitBatch {
    const batch: BatchDraft = { nowMs: (this.options.now ?? Date.now)(), candidates: [], pages: [], outcomes: [], links: [], aliases: [], sitemaps: [] };
    for (const entry of entries) {
      if ('sitemap' in entry) {
        const { write, candidates, aliases } = sitemapWrite(entry.sitemap, this.options.links);
        append(batch.candidates, candidates);
        append(batch.aliases, aliases);
        batch.sitemaps.push(write);
        continue;
      }
      if ('outcome' in entry) {
        batch.outcomes.push(entry.outcome);
        continue;
      }
      const { url, message, disposition, retry } = entry.settled;
      if (retry) batch.outcomes.push({ kind: 'requeued', url, disposition, reason: message.type === 'failed' ? message.error : httpError(message.result) });
      else if (message.type === 'page') this.addPage(batch, url, message.result, disposition);
      else batch.outcomes.push({ kind: 'failed', url, error: message.error, disposition });
    }
    const traps = this.options.traps?.takeFound() ?? [];
    return traps.length > 0 ? { ...batch, traps } : batch;
  }

  private addPage(batch: BatchDraft, url: ClaimedUrl, page: PageResult, disposition: Disposition): void {
    const content = page.content;
    batch.pages.push({
      row: {
        urlId: url.id,
        finalUrl: page.finalUrl,
        httpStatus: page.status,
        contentType: page.contentType,
        bodyBytes: page.bodyBytes,
        truncated: page.truncated,
        fetchMs: page.fetchMs,
        title: page.title,
        location: page.redirect === null ? null : (page.redirect.location ?? page.redirect.raw),
        fetchedAtMs: disposition.nowMs,
        fingerprint: content?.fingerprint ?? null,
        minhash: content?.minhash ?? null,
        textChars: content?.textChars ?? null,
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
      },
      text: content && content.excerpt !== '' ? content.excerpt : null,
      // Content-seen test (seed 003): only successful pages take part; error pages often share
      // text, and 3xx bodies are not pages. The excerpt travels once, as `text` above.
      content: content && page.status < 300 ? contentFingerprints(content) : null,
      body: page.body ?? null,
      extracted: page.extracted ?? null,
      render: page.render ?? null,
    });
    if (page.redirect !== null) {
      this.addRedirect(batch, url, page, disposition);
      return;
    }
    if (page.status >= 400) batch.outcomes.push({ kind: 'failed', url, error: httpError(page), disposition });
    else batch.outcomes.push({ kind: 'done', url, disposition });
    const { candidates, memos, links } = this.options.links.pageLinks(url, page);
    // The page's content first: a template it completes holds this very page's links.
    if (content && page.status < 300) this.options.traps?.observePage(url.url, content.minhash);
    this.options.traps?.screen(url.url, candidates, memos);
    const rows = this.options.links.linkRows(url.id, links);
    // A page holds up to MAX_LINKS_PER_PAGE links: appended one by one (a spread of 200k arguments overflows the stack).
    append(batch.candidates, this.unknownTargets(candidates, memos, rows.links));
    append(batch.links, rows.links);
    append(batch.aliases, rows.aliases);
  }

  /**
   * The candidates the store is not known to hold as linked; each link to a known one names its
   * target by id (`toUrlId`, its key dropped) instead. The URL-seen test's answer is the same: a known URL's row
   * changes only by its source bits, and these have the link bit already.
   */
  private unknownTargets(candidates: readonly FrontierCandidate[], memos: readonly TargetMemo[], links: LinkWrite[]): FrontierCandidate[] {
    const unknown: FrontierCandidate[] = [];
    let knownIds: Map<string, number> | null = null;
    for (let i = 0; i < candidates.length; i += 1) {
      const candidate = candidates[i]!;
      // The target's memo first (a URL known as linked stays so): no lookup for a repeat link.
      const memo = memos[i];
      const entry = memo?.linkedEntry ?? this.known.get(candidate.normalizedKey);
      if (entry === undefined || (seenEntrySources(entry) & LINK_SOURCE_BIT) === 0) {
        unknown.push(candidate);
        continue;
      }
      if (memo !== undefined) memo.linkedEntry = entry;
      (knownIds ??= new Map()).set(candidate.normalizedKey, seenEntryId(entry));
    }
    if (knownIds !== null)
      for (const link of links) {
        const id = link.toKey === null ? undefined : knownIds.get(link.toKey);
        if (id === undefined) continue;
        link.toUrlId = id;
        link.toKey = null;
      }
    return unknown;
  }

  /** Remembers the store's URL-seen entries of a committed batch's candidates (CommitResult.seen, in candidate order). */
  private learn(candidates: readonly FrontierCandidate[], seen: Float64Array): void {
    for (let i = 0; i < candidates.length && i < seen.length; i += 1) this.known.set(candidates[i]!.normalizedKey, seen[i]!);
  }

  /**
   * A redirect answer (RFC 9110 §15.4) is the URL's own result: done with its 3xx status, and its
   * target offered to the frontier like a link (see LinkPipeline.redirect). The store fails the
   * hop as REDIRECT_LOOP when the known target's stored redirects lead back here.
   */
  private addRedirect(batch: BatchDraft, url: ClaimedUrl, page: PageResult, disposition: Disposition): void {
    const verdict = this.options.links.redirect(url, page.redirect!);
    if (verdict.candidate === null) {
      batch.outcomes.push({ kind: 'done', url, disposition });
      batch.links.push({ fromUrlId: url.id, rawUrl: verdict.raw, toKey: null, kind: 'redirect', refusedBy: verdict.refusedBy });
      return;
    }
    const target = verdict.candidate;
    this.options.traps?.screen(url.url, [target]);
    batch.candidates.push(target);
    batch.outcomes.push({ kind: 'redirected', url, disposition, target: { key: target.normalizedKey, url: target.url }, rawUrl: verdict.raw, maxHops: this.options.settings.maxRedirects + 1 });
    const alias = this.options.links.alias(target.normalizedKey, verdict.raw, url.id);
    if (alias) batch.aliases.push(alias);
  }
}
