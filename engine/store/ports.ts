/**
 * Storage ports: what the scheduler (schedule/), the link pipeline (links/) and the result
 * committer (commit/) need of a crawl store, and nothing of SQLite. store/sqlite implements them
 * (crawl-stores.ts); a networked store implements the same ports and passes the same contract
 * suite (store/contract/). Every write of a crawl happens inside a {@link UnitOfWork}: one write
 * transaction per claim batch and per commit batch (STYLE.md convention 7), never one per URL.
 *
 * Shapes are batch-shaped (a claim hands out up to `max` URLs, `add` takes a page's candidates at
 * once) so a networked store pays one round trip per batch. The unit of work is the one await of
 * the hot path: `run()` may complete synchronously (SQLite returns the value itself) or later.
 */
import type { CrawlStatus, CrawlSummary } from '../../shared/types/crawl';
import type { PageContent } from '../worker/protocol';

/** A value now, or later: SQLite answers synchronously, a networked store with a promise. */
export type Awaitable<T> = T | Promise<T>;

/** A URL offered to the frontier after the URL-seen test's inputs are computed. */
export interface FrontierCandidate {
  /** The URL to fetch (absolute, no fragment). */
  url: string;
  /** Its normalized form (RFC 3986 §6.2.2 under the crawl's normalization profile). */
  normalized: string;
  /** The URL-seen test's key (IIR 20.2.2): two candidates with one key are one URL. */
  normalizedKey: string;
  /** The URL's host (lower case, no port): its back queue. */
  host: string;
  /** Public Suffix List registrable domain; null for IPs and hosts without one. */
  registrableDomain: string | null;
  /** Links from a seed (seeds: 0); the front-queue priority, breadth first. */
  depth: number;
  /** URL id of the page the link was found on; null for seeds. */
  discoveredFrom: number | null;
  /** Consecutive redirects that led to the URL (a redirect target: the redirecting URL's + 1). @default 0 */
  redirectHops?: number;
}

/** A URL handed out for fetching (state now in_flight). */
export interface ClaimedUrl {
  /** The URL's id in its crawl (stable across runs: links and aliases name it). */
  id: number;
  /** The URL to fetch (absolute, no fragment). */
  url: string;
  /** Its host: the back queue it was claimed from. */
  host: string;
  /** Links from a seed (seeds: 0). */
  depth: number;
  /** Times this URL was claimed before this claim (retries). */
  attempts: number;
  /** Consecutive redirects that led to the URL when it was discovered (0 unless a redirect target). */
  redirectHops: number;
}

/** URLs of one crawl by state. */
export interface FrontierCounts {
  /** Waiting to be claimed (includes retries). */
  pending: number;
  /** Claimed, outcome not recorded yet. */
  inFlight: number;
  /** Fetched, any HTTP status below 400 (3xx included). */
  done: number;
  /** Failed: HTTP ≥ 400, a transport error after its retries, refused by robots or a redirect limit. */
  error: number;
}

/** Politeness knobs of the frontier (IIR 20.2.3; Heritrix's delayFactor/minDelayMs/maxDelayMs). */
export interface PolitenessPolicy {
  /** Requests to one host at once. */
  maxInFlightPerHost: number;
  /** The least wait between two fetches from one host, ms. */
  minDelayMs: number;
  /** The most any host waits (politeness, Crawl-delay, Retry-After), ms. */
  maxDelayMs: number;
  /** k: the next fetch from a host waits k × the last fetch's duration. */
  delayFactor: number;
}

/** What {@link FrontierStore.add} did. */
export interface AddResult {
  /** `ids[i]`: the URL id of `candidates[i]`, new or already known. */
  ids: number[];
  /** How many candidates were new (passed the URL-seen test). */
  added: number;
}

/** How one fetch ended, for the frontier's bookkeeping. */
export interface Disposition {
  /** How long the fetch took, ms (the politeness delay is k × this). */
  fetchMs: number;
  /** When it ended, epoch ms. */
  nowMs: number;
  /** The answer's HTTP status; null or absent when there was no answer. */
  httpStatus?: number | null;
  /** A host-specific wait the server asked for (Retry-After) or robots Crawl-delay, already capped, ms. */
  extraDelayMs?: number;
  /** What `extraDelayMs` is, for the host's waiting reason. @default 'robots Crawl-delay' */
  extraDelayReason?: HostWaitReason;
}

/** Why a host is not fetched from right now, in the words the Frontier view shows. */
export type HostWaitReason = 'politeness delay' | 'robots Crawl-delay' | 'Retry-After backoff' | 'robots.txt pending' | 'robots.txt unavailable, retrying' | 'connection limit';

/** Live state of one host's back queue. */
export interface HostState {
  host: string;
  /** Requests to the host in flight now. */
  inFlight: number;
  /** Epoch ms the host may next be fetched from. */
  nextEligibleAtMs: number;
  /** Why it waits at `nowMs`, or null when it is eligible now (or has nothing to do). */
  waitingReason: HostWaitReason | null;
}

/** What {@link FrontierStore.refetch} did: re-queued it, or why not (already queued, being fetched, no such URL in the crawl). */
export type RefetchOutcome = 'queued' | 'already-queued' | 'in-flight' | 'not-found';

/** A fetch's error as stored with its URL (`code` e.g. TIMEOUT, HTTP_404, ROBOTS_DISALLOWED). */
export interface UrlError {
  code: string;
  message: string;
}

/**
 * The URL frontier of one crawl (IIR 20.2.3, Mercator): the URL-seen test, front queues by
 * priority (depth, discovery order), one back queue per host, politeness per host. Small enough
 * to read in one breath (Colly's storage interface). Writes (`add`, `claimBatch`, `complete`,
 * `fail`, `requeue`) run inside a {@link UnitOfWork}; the reads and `releaseHost` are the store's
 * in-memory host bookkeeping and cost no round trip. A store opened on a crawl whose process died
 * returns that crawl's in-flight URLs to pending.
 */
export interface FrontierStore {
  /**
   * Runs the URL-seen test and enqueues the new URLs; a key met twice in one batch is added once.
   * @param nowMs epoch ms, the enqueue time
   */
  add(candidates: readonly FrontierCandidate[], nowMs: number): AddResult;
  /**
   * Hands out up to `max` URLs whose hosts are eligible at `nowMs` (epoch ms), marking them
   * in_flight: hosts in order of eligibility (a giant host cannot starve others), at most
   * `maxInFlightPerHost` per host. A networked store claims with `SELECT … FOR UPDATE SKIP LOCKED`.
   */
  claimBatch(max: number, nowMs: number): ClaimedUrl[];
  /**
   * Ends a fetch's hold on its host as soon as the fetch is over, before its outcome is recorded:
   * the host's politeness delay starts from `disposition`, and its slot is free for the next claim.
   * complete/fail/requeue do this themselves when it was not done first; their disposition can
   * still push the host's next eligible time further out (a retry's backoff). Idempotent per claim.
   */
  releaseHost(url: ClaimedUrl, disposition: Disposition): void;
  /** Records a claimed URL as done. */
  complete(url: ClaimedUrl, disposition: Disposition): void;
  /** Records a claimed URL as failed with `error`. */
  fail(url: ClaimedUrl, error: UrlError, disposition: Disposition): void;
  /** Puts a claimed URL back to pending (a retry, a stop); its host waits as the disposition says. */
  requeue(url: ClaimedUrl, disposition: Disposition): void;
  /**
   * Puts a settled URL (done or failed) back to pending, first in its host's queue, for a fetch
   * the user asked for ("Re-fetch now" in the URL inspector); its stored answer stays until the
   * new one replaces it. A URL queued or in flight is left as it is.
   * @param nowMs epoch ms (its host is woken at this time, its politeness delay still applies)
   */
  refetch(urlId: number, nowMs: number): RefetchOutcome;
  /** When the next host becomes eligible (epoch ms), or null when no host has work it may claim. */
  nextEligibleAtMs(): number | null;
  /** URLs by state. */
  counts(): FrontierCounts;
  /** Live back-queue state of every host this store has met, at `nowMs` (epoch ms). */
  hostStates(nowMs: number): HostState[];
  /** The politeness delay after a fetch that took `fetchMs`, ms (IIR 20.2.3: k × fetch time, clamped). */
  politenessDelayMs(fetchMs: number, extraDelayMs?: number): number;
}

/** A page row as the committer writes it. */
export interface PageRow {
  /** The claimed URL the page answers. */
  urlId: number;
  /** The URL answered (no redirects are followed inside a fetch since migration 0006). */
  finalUrl: string;
  httpStatus: number;
  /** The Content-Type header as sent; null when absent. */
  contentType: string | null;
  /** Body bytes read (after decoding Content-Encoding), at most maxBodyBytes. */
  bodyBytes: number;
  /** The body was cut at maxBodyBytes. */
  truncated: boolean;
  /** Time from request to the end of the body, ms. */
  fetchMs: number;
  /** The HTML <title>, trimmed; null when none. */
  title: string | null;
  /** A redirect answer's Location, resolved, no fragment (RFC 9110 §15.4); null for other answers. */
  location: string | null;
  /** When the fetch ended, epoch ms. */
  fetchedAtMs: number;
  /** SHA-256 (hex) of the normalized visible text; null for pages without text. */
  fingerprint: string | null;
  /** MinHash sketch (IIR 19.6); null for pages without text. The store chooses its encoding. */
  minhash: Uint32Array | null;
  /** Characters of normalized visible text; null for pages without text. */
  textChars: number | null;
  /** Meta robots / X-Robots-Tag noindex (the page is kept, flagged). */
  noindex: boolean;
  /** Links past the per-page cap (MAX_LINKS_PER_PAGE), counted, not stored. */
  linksOverCap: number;
}

/** A link row: `toUrlId` is null when a rule refused the link (`refusedBy` names the rule). */
export interface LinkRow {
  fromUrlId: number;
  /** The link as written (cut at STORED_RAW_URL_CHARS). */
  rawUrl: string;
  toUrlId: number | null;
  /** LinkKind: a, redirect, canonical … */
  kind: string;
  refusedBy: string | null;
}

/** Writes of one crawl's results (inside a {@link UnitOfWork}) and the crawl row's status. */
export interface CrawlWriter {
  /** Writes (or replaces) the page row of a fetched URL. */
  insertPage(page: PageRow): void;
  /** The start of a page's normalized text (seed 005's excerpt). */
  insertPageText(urlId: number, text: string): void;
  /** One link row of a page (one per target and kind, or per refused raw link). */
  insertLink(link: LinkRow): void;
  /** One raw spelling of a URL, and the page it was met on (null for seeds). */
  insertAlias(urlId: number, rawUrl: string, fromUrlId: number | null): void;
  /** @param finishedAtMs epoch ms; null while the crawl may go on */
  setStatus(status: CrawlStatus, finishedAtMs: number | null): void;
  /** The crawl's summary row. @throws CodedError CRAWL_NOT_FOUND */
  summary(): CrawlSummary;
  /** Pages recorded as exact or near duplicates so far (resumed counters). */
  duplicateCount(): number;
}

/** How a page's content relates to earlier pages of the crawl. */
export type ContentVerdict =
  | { kind: 'unique' }
  | { kind: 'exact'; groupId: number; duplicateOf: number }
  | { kind: 'near'; groupId: number; duplicateOf: number; similarity: number };

/**
 * The content-seen test (seed 003; IIR 20.2 "Doc FP's", IIR 19.6 near-duplicates), inside the
 * commit's unit of work, after the page's row is written.
 */
export interface ContentIndex {
  /** Classifies page `urlId` against earlier pages and indexes it for later ones. */
  record(urlId: number, content: PageContent, nowMs: number): ContentVerdict;
}

/** Stored redirect chains (engine/fetch/redirects.ts): `redirect` links, one per hop. */
export interface RedirectIndex {
  /**
   * True when a redirect from `urlId` to the already known `targetId` closes a loop within
   * `maxSteps` hops (REDIRECT_LOOP).
   */
  closesLoop(urlId: number, targetId: number, maxSteps: number): boolean;
  /** Redirect targets of the crawl's seeds stored so far (to widen a resumed crawl's scope). */
  seedRedirectTargets(): { url: string; registrableDomain: string | null }[];
}

/**
 * One write transaction (SQLite: BEGIN IMMEDIATE … COMMIT). `work` does every write of a batch
 * through the ports and must not await: the batch commits whole or, when `work` or the commit
 * throws, leaves nothing (the error is rethrown, or the promise rejects with it).
 */
export interface UnitOfWork {
  /** Runs `work` in one write transaction. @returns what `work` returned, once committed */
  run<T>(work: () => T): Awaitable<T>;
}

/** The ports of one crawl, as the crawl runner takes them. */
export interface CrawlStores {
  /** The crawl these stores belong to (its row in `crawls`). */
  crawlId: number;
  /** The crawl's URL frontier. */
  frontier: FrontierStore;
  /** Page, link, alias and status writes. */
  writer: CrawlWriter;
  /** The content-seen test. */
  contentIndex: ContentIndex;
  /** Stored redirect chains. */
  redirects: RedirectIndex;
  /** One write transaction per claim batch or commit batch. */
  unitOfWork: UnitOfWork;
}
