/** The crawl writer over SQLite: one CommitBatch, one BEGIN IMMEDIATE transaction (store/ports.ts CrawlWriter). */
import type { Statement } from 'better-sqlite3';
import type { CrawlStatus } from '../../../shared/types/crawl';
import type { TrapState } from '../../../shared/types/traps';
import type { AliasWrite, CommitBatch, CommitResult, HeldUrl, LinkWrite, PageWrite, StoredRobots, TrapStateChange, UrlOutcome } from '../ports';
import { sketchToBlob } from '../../dedupe/content-verdict';
import { FingerprintCache, stringFingerprint53 } from '../../dedupe/fingerprint-cache';
import type { SqliteBodyRows } from './body-rows';
import type { ContentDedupe } from './content-dedupe';
import type { CrawlRepository, LinkRecord } from './crawl-repository';
import type { WritableDB } from './database';
import type { FrontierRows, RefetchRow } from './frontier-rows';
import type { LinkIdRange } from './link-ranges';
import { packTextBlocks, type TextBlockPlace } from './page-text-codec';
import type { RedirectChains } from './redirect-chains';
import type { SqliteRobotsStore } from './robots-store';
import { SitemapRows } from './sitemap-rows';
import type { TrapRows } from './trap-rows';
import type { VersionIndex } from './version-index';

/** What the writer writes through: the crawl's repository, frontier, content index and redirect chains on one connection. */
export interface SqliteCrawlWriterParts {
  db: WritableDB;
  crawlId: number;
  repository: CrawlRepository;
  frontier: FrontierRows;
  contentIndex: ContentDedupe;
  chains: RedirectChains;
  robots: SqliteRobotsStore;
  /** Version URL templates of the URLs stored (seed 001; version-index.ts). */
  versions: VersionIndex;
  traps: TrapRows;
  /** Stored bodies (migration 0023), under the crawl's cap. */
  bodies: SqliteBodyRows;
}

/**
 * Everything a run writes, as the scheduler's side of the store sends it (crawl-stores.ts): claims,
 * commit batches, re-fetches and the crawl's status. Each call is one write transaction. The
 * writer may live on another thread (writer-thread.ts): calls are applied in the order made.
 */
export interface CrawlRowWriter {
  /** Marks claimed URLs in flight at `nowMs` (epoch ms). */
  claimed(urlIds: readonly number[], nowMs: number): Promise<void>;
  /** Writes one batch (store/ports.ts CrawlWriter.commit). */
  commit(batch: CommitBatch): Promise<CommitResult>;
  /** "Re-fetch now" for one URL: its row as it was, and whether it was queued. */
  refetch(urlId: number): Promise<RefetchRow>;
  /** Sets the crawl's status (`finishedAtMs` epoch ms, or null). */
  setStatus(status: CrawlStatus, finishedAtMs: number | null): Promise<void>;
  /** Stores a fetched robots.txt (store/ports.ts RobotsStore.save): on the writer's connection, the crawl's one writer. */
  saveRobots(entry: StoredRobots): Promise<void>;
  /** Sets a crawler trap's state (store/ports.ts FrontierStore.setTrapState). */
  setTrapState(trapId: number, state: TrapState, nowMs: number): Promise<TrapStateChange | null>;
  /** Ends the writer after the writes already asked for (a thread exits; a same-thread writer does nothing). */
  close(): Promise<void>;
}

/**
 * Link targets whose URL the writer remembers, by id, as a 53-bit fingerprint of the URL
 * (fingerprint-cache.ts): 5.2 MiB at most (196,608 entries of 17 bytes, 524,288 table cells of 4).
 * It keeps a site's navigation targets across batches and takes new URLs as they are added: in
 * CPU profiles of the 20,200-page synthetic crawl (1.5M links) reading targets' rows took 3.7% of
 * the writer thread's busy time with a map per batch, 0.5% with a cache. A cache of the URL
 * strings (200,000 entries, 32 MiB) held about 13 MB of the writer's heap at 100,000 pages.
 */
const TARGET_URL_CACHE_ENTRIES = 196_608;

/**
 * Writes a crawl's batches. Ids are resolved inside the transaction: the batch's candidates go
 * through the URL-seen test first, and their ids (new or known) name the targets of the batch's
 * links, aliases and redirects; a key not among them is looked up in `urls` (one indexed read).
 * The methods answer with settled promises: SQLite has done the work before they return.
 */
export class SqliteCrawlWriter implements CrawlRowWriter {
  /** `urls.url` by id, for a link target the cache below does not hold. */
  private readonly urlOfId: Statement;
  /**
   * `urls.url` of link targets by id, as stringFingerprint53 of it, across batches (pages of a
   * site link the same navigation targets again and again), filled as URLs are added and as
   * targets are read.
   */
  private readonly targetUrls = new FingerprintCache({ maxEntries: TARGET_URL_CACHE_ENTRIES });
  /** Pages this writer stored that had a page row already (re-fetches): their earlier texts may have left blocks no page names. */
  private refetchedPages = 0;
  /** Sitemap rows and listings (migration 0018). */
  private readonly sitemaps: SitemapRows;

  constructor(private readonly parts: SqliteCrawlWriterParts) {
    this.urlOfId = parts.db.prepare(`SELECT url FROM urls WHERE id = ?`).pluck();
    this.sitemaps = new SitemapRows(parts.db, parts.crawlId);
  }

  async commit(batch: CommitBatch): Promise<CommitResult> {
    return this.parts.db.transaction(() => this.write(batch)).immediate();
  }

  async claimed(urlIds: readonly number[], nowMs: number): Promise<void> {
    if (urlIds.length > 0) this.parts.db.transaction(() => this.parts.frontier.claimed(urlIds, nowMs)).immediate();
  }

  async refetch(urlId: number): Promise<RefetchRow> {
    return this.parts.db.transaction(() => this.parts.frontier.refetch(urlId)).immediate();
  }

  async setStatus(status: CrawlStatus, finishedAtMs: number | null): Promise<void> {
    this.parts.repository.setStatus(this.parts.crawlId, status, finishedAtMs);
  }

  async saveRobots(entry: StoredRobots): Promise<void> {
    await this.parts.robots.save(entry);
  }

  async setTrapState(trapId: number, state: TrapState, nowMs: number): Promise<TrapStateChange | null> {
    return this.parts.db.transaction(() => this.parts.traps.changeState(trapId, state, nowMs)).immediate();
  }

  /** Writes what the run's indexes still hold in memory (the LSH band rows pending: pending-bands.ts), in one transaction. */
  async close(): Promise<void> {
    this.parts.db
      .transaction(() => {
        this.parts.contentIndex.flush();
        // A page fetched again names a new text: a block whose every text was replaced so is dropped.
        if (this.refetchedPages > 0) this.parts.repository.deleteUnreferencedTextBlocks(this.parts.crawlId);
      })
      .immediate();
  }

  /** The batch, in the order CommitBatch documents (inside the transaction). */
  private write(batch: CommitBatch): CommitResult {
    const { frontier, traps } = this.parts;
    const ids = new Map<string, number>();
    let addedHosts: string[] = [];
    let seen: Float64Array | undefined;
    let held = 0;
    // Traps first (candidates name them by pattern); their pending matches once the candidates are in.
    const newTraps = batch.traps && batch.traps.length > 0 ? traps.record(batch.traps, batch.nowMs) : [];
    if (batch.candidates && batch.candidates.length > 0) {
      const result = frontier.insert(batch.candidates, batch.nowMs, (pattern) => traps.holdingIdOf(pattern));
      addedHosts = result.addedHosts;
      seen = Float64Array.from(result.entries);
      held = result.held.length;
      for (const url of result.held) traps.addExample(url.trapId, url.url);
      batch.candidates.forEach((candidate, index) => ids.set(candidate.normalizedKey, result.ids[index]!));
      for (const index of result.added) {
        const candidate = batch.candidates[index]!;
        this.parts.versions.add({ id: result.ids[index]!, normalized: candidate.normalized });
        // A new row's url is its candidate's: the links that name it need no read of it.
        this.targetUrls.setById(result.ids[index]!, stringFingerprint53(candidate.url));
      }
    }
    const heldFromPending: HeldUrl[] = newTraps.length > 0 ? traps.holdPending(newTraps) : [];
    const idOf = (key: string): number => {
      let id = ids.get(key);
      if (id === undefined) {
        id = this.parts.repository.findUrlId(this.parts.crawlId, key);
        if (id === undefined) throw new Error(`Commit batch names the unknown normalized key ${key}: offer it as a candidate of the batch`);
        ids.set(key, id);
      }
      return id;
    };
    // Links first, so a re-fetched page's earlier links are told from its new ones by id (link-ranges.ts).
    const linkRanges = this.writeLinks(batch.links ?? [], idOf);
    let duplicates = 0;
    const pages = batch.pages ?? [];
    const textPlaces = this.writeTexts(pages);
    pages.forEach((page, index) => {
      if (this.writePage(page, textPlaces[index]!, linkRanges, batch.nowMs)) duplicates += 1;
    });
    // Each source URL's row names its new links (a re-fetched page's were set by writePage).
    for (const [urlId, range] of linkRanges) this.parts.repository.extendLinkRange(urlId, range);
    const redirectLoops: number[] = [];
    for (const outcome of batch.outcomes ?? []) if (this.writeOutcome(outcome, idOf, batch.nowMs)) redirectLoops.push(outcome.url.id);
    for (const alias of batch.aliases ?? []) this.writeAlias(alias, idOf);
    for (const sitemap of batch.sitemaps ?? []) this.sitemaps.write(sitemap, idOf);
    if (batch.status) this.parts.repository.setStatus(this.parts.crawlId, batch.status.status, batch.status.finishedAtMs);
    // The trap fields only when a trap acted (most batches: none).
    return { added: addedHosts.length, addedHosts, duplicates, redirectLoops, ...(seen ? { seen } : {}), ...(held > 0 ? { held } : {}), ...(heldFromPending.length > 0 ? { heldFromPending } : {}) };
  }

  /**
   * Stores a batch's links in the order given.
   * @returns the range of link ids each source URL's links got (the scheduler sends a page's links
   *   together, so its range holds only them; ids are consecutive, see CrawlRepository.insertLinks)
   */
  private writeLinks(links: readonly LinkWrite[], idOf: (key: string) => number): Map<number, LinkIdRange> {
    const ranges = new Map<number, LinkIdRange>();
    if (links.length === 0) return ranges;
    const last = this.parts.repository.insertLinks(this.parts.crawlId, links.map((link) => this.linkRecord(link, idOf)))!;
    const first = last - links.length + 1;
    for (let i = 0; i < links.length; i += 1) {
      const id = first + i;
      const range = ranges.get(links[i]!.fromUrlId);
      if (range === undefined) ranges.set(links[i]!.fromUrlId, { first: id, last: id });
      else range.last = id;
    }
    return ranges;
  }

  /**
   * Stores the text excerpts of a batch's pages as blocks (page-text-codec.ts: one row for all of
   * them, mostly, instead of one a page).
   * @returns per page, where its text went (null: it has none)
   */
  private writeTexts(pages: readonly PageWrite[]): (TextBlockPlace | null)[] {
    const texts: string[] = [];
    const withText: number[] = [];
    pages.forEach((page, index) => {
      if (page.text === null || page.text === '') return;
      texts.push(page.text);
      withText.push(index);
    });
    const placesByPage: (TextBlockPlace | null)[] = pages.map(() => null);
    if (texts.length === 0) return placesByPage;
    const { blocks, places } = packTextBlocks(texts);
    const blockIds = blocks.map((block) => this.parts.repository.insertTextBlock(this.parts.crawlId, block));
    places.forEach((place, i) => {
      placesByPage[withText[i]!] = { blockId: blockIds[place.block]!, slot: place.slot };
    });
    return placesByPage;
  }

  /**
   * @param textPlace where writeTexts put the page's text excerpt (null: it has none)
   * @param linkRanges the ids writeLinks gave each source URL's links: a re-fetched page's range
   *   is set here, replacing its earlier links', and taken out of the map
   * @returns true when the content-seen test found the page a duplicate
   */
  private writePage({ row, content, body, extracted, render }: PageWrite, textPlace: TextBlockPlace | null, linkRanges: Map<number, LinkIdRange>, nowMs: number): boolean {
    const { repository, crawlId, contentIndex } = this.parts;
    // A page fetched again replaces all its earlier answer left (links, text, body, extraction,
    // render); a first fetch, most pages, has none of them: one probe instead of five deletes.
    // Every fetch that leaves such rows leaves its page row too (a redirect's answer included:
    // ResultCommitter.addPage), so a URL without a page row has none of them.
    const refetched = repository.hasPage(row.urlId);
    repository.insertPage(crawlId, { ...row, redirectChainJson: null, minhash: row.minhash ? sketchToBlob(row.minhash) : null }, textPlace);
    if (refetched) {
      this.refetchedPages += 1;
      // The earlier answer's links: their ids are below this batch's, so the new links stay.
      const earlier = repository.linkRange(row.urlId);
      if (earlier !== null) repository.deleteLinksFrom(row.urlId, earlier);
      repository.setLinkRange(row.urlId, linkRanges.get(row.urlId) ?? null);
      linkRanges.delete(row.urlId);
      // A text an earlier run stored in page_texts (before migration 0026) would outlive this answer.
      repository.deletePageText(row.urlId);
    }
    this.parts.bodies.write(row.urlId, body, refetched);
    this.parts.bodies.writeExtracted(row.urlId, extracted, refetched);
    this.parts.bodies.writeRender(row.urlId, render, refetched);
    return content !== null && contentIndex.record(row.urlId, content, nowMs).kind !== 'unique';
  }

  /** @returns true when a redirect closed a loop (and was failed as REDIRECT_LOOP) */
  private writeOutcome(outcome: UrlOutcome, idOf: (key: string) => number, nowMs: number): boolean {
    const { frontier, repository, crawlId, chains } = this.parts;
    switch (outcome.kind) {
      case 'done':
        frontier.done(outcome.url, outcome.disposition, nowMs);
        return false;
      case 'failed':
        frontier.failed(outcome.url, outcome.error, outcome.disposition, nowMs);
        return false;
      case 'blocked':
        frontier.blocked(outcome.url, outcome.reason, outcome.robotsLine, nowMs);
        return false;
      case 'requeued':
        frontier.requeued(outcome.url, outcome.reason, nowMs);
        return false;
      case 'redirected': {
        const { url, disposition, target } = outcome;
        const toUrlId = idOf(target.key);
        const loop = chains.closesLoop(crawlId, url.id, toUrlId, outcome.maxHops);
        if (loop) frontier.failed(url, { code: 'REDIRECT_LOOP', message: `Redirect loop: ${url.url} redirects to ${target.url}, earlier in its own redirect chain` }, disposition, nowMs);
        else frontier.done(url, disposition, nowMs);
        // Written now, and named by its URL's row, so a later redirect of the same batch sees this hop.
        const hop = repository.insertLink(crawlId, { fromUrlId: url.id, rawUrl: this.storedRaw(outcome.rawUrl, toUrlId), toUrlId, kind: 'redirect', refusedBy: null });
        repository.extendLinkRange(url.id, { first: hop, last: hop });
        return loop;
      }
      default: {
        const exhaustive: never = outcome;
        throw new Error(`Unknown outcome ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  /** A link of the batch as its row: the target's id, and its text only where it differs from the target's URL. */
  private linkRecord(link: LinkWrite, idOf: (key: string) => number): LinkRecord {
    const toUrlId = link.toUrlId ?? (link.toKey === null ? null : idOf(link.toKey));
    return {
      fromUrlId: link.fromUrlId,
      rawUrl: this.storedRaw(link.rawUrl, toUrlId),
      toUrlId,
      kind: link.kind,
      refusedBy: link.refusedBy,
      anchorText: link.anchorText ?? null,
      rel: link.rel ?? null,
    };
  }

  /**
   * A link's text as stored: null when it is its target's URL exactly (migration 0016; readers show
   * the target's URL), told by their 53-bit fingerprints (a different spelling with the same one,
   * probability 2^-53 a link, would be read back as the target's URL).
   */
  private storedRaw(rawUrl: string, toUrlId: number | null): string | null {
    // A stored URL never has a fragment, so a raw spelling with one always differs.
    if (toUrlId === null || rawUrl.includes('#')) return rawUrl;
    let url = this.targetUrls.getById(toUrlId);
    if (url === undefined) {
      url = stringFingerprint53(this.urlOfId.get(toUrlId) as string);
      this.targetUrls.setById(toUrlId, url);
    }
    return url === stringFingerprint53(rawUrl) ? null : rawUrl;
  }

  private writeAlias(alias: AliasWrite, idOf: (key: string) => number): void {
    this.parts.repository.insertAlias(idOf(alias.toKey), alias.rawUrl, alias.fromUrlId, alias.fragmentSpellings ?? 0);
  }
}
