/**
 * Storage ports: what the scheduler (schedule/), the link pipeline (links/) and the result
 * committer (commit/) need of a crawl store, and nothing of SQLite. store/sqlite implements them
 * (crawl-stores.ts); a networked store (PostgreSQL, issue 13) implements the same ports and passes
 * the same contract suite (store/contract/).
 *
 * Every call that touches storage returns a promise and is batch-shaped, so a networked store pays
 * one round trip per batch, never one per URL: a claim hands out up to `max` URLs
 * ({@link FrontierStore.claimBatch}, its own transaction), and everything a batch of settled
 * fetches writes (new URLs, pages, links, aliases, outcomes) is one {@link CommitBatch} of plain
 * data committed whole by {@link CrawlWriter.commit} (one write transaction: STYLE.md convention
 * 7). Links and aliases name their target by normalized key, so the store resolves URL ids itself
 * in the same transaction; the redirect-loop check runs in the store, next to the chains it reads.
 * The frontier's reads (`counts`, `hostStates`, `nextEligibleAtMs`) and `releaseHost` are the
 * store's in-memory host bookkeeping of this process and cost no round trip.
 */
import type { CrawlStatus, CrawlSummary } from '../../shared/types/crawl';
import type { Indexability } from '../../shared/types/pages';
import type { TrapState } from '../../shared/types/traps';
import type { TrapSuspicion } from '../traps/suspicion';
import type { UrlSource } from '../../shared/types/url-sources';
import type { ContentFingerprints } from '../worker/protocol';
import type { StoredBody } from '../bodies/stored-body';
import type { ExtractedValue } from '../../shared/types/extraction';
import type { RenderRecord } from '../render/render-record';

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
  /**
   * The pattern of the suspected (or excluded) crawler trap that holds it (engine/traps/trap-guard.ts):
   * a new URL is stored in state `held` under that trap instead of pending. Absent: not held.
   */
  heldBy?: string;
  /**
   * How the crawl met the URL this time (shared/types/url-sources.ts): the store ORs its bit into
   * the URL's sources, new or known. @default 'seed' when `discoveredFrom` is null, else 'link'
   */
  source?: UrlSource;
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
  /** Failed: HTTP ≥ 400, a transport error after its retries, robots.txt unavailable, a redirect limit. */
  error: number;
  /** Refused by robots.txt before any request (not an error). */
  blocked: number;
  /** Held by a suspected crawler trap: not fetched until the trap is released. */
  held: number;
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

/** What the URL-seen test did with a batch of candidates (a store's frontier, inside its commit). */
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

/** What {@link FrontierStore.takeHostSlot} did: took a slot, or not yet (`retryAtMs`: epoch ms, null when a slot must free first). */
export type HostSlot = { taken: true } | { taken: false; retryAtMs: number | null };

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
  /**
   * The process that last claimed from the host (a PostgreSQL store shared by several processes:
   * `processes.id`); null before any claim. The SQLite store (one process) leaves it undefined.
   */
  holder?: string | null;
}

/** What {@link FrontierStore.refetch} did: re-queued it, or why not (already queued, being fetched, held by a crawler trap: release the trap, no such URL in the crawl). */
export type RefetchOutcome = 'queued' | 'already-queued' | 'in-flight' | 'held' | 'not-found';

/** A fetch's error as stored with its URL (`code` e.g. TIMEOUT, HTTP_404, ROBOTS_DISALLOWED). */
export interface UrlError {
  code: string;
  message: string;
}

/**
 * The URL frontier of one crawl (IIR 20.2.3, Mercator): front queues by priority (depth,
 * discovery order), one back queue per host, politeness per host. Small enough to read in one
 * breath (Colly's storage interface). URLs enter it and leave in-flight through
 * {@link CrawlWriter.commit} (the URL-seen test runs there, with the rest of the batch). A store
 * opened on a crawl whose process died returns that crawl's in-flight URLs to pending.
 */
export interface FrontierStore {
  /**
   * Hands out up to `max` URLs whose hosts are eligible at `nowMs` (epoch ms), marking them
   * in_flight, in one transaction: hosts in order of eligibility (a giant host cannot starve
   * others), at most `maxInFlightPerHost` per host. A networked store claims with
   * `SELECT … FOR UPDATE SKIP LOCKED`. @returns the claimed URLs, empty when no host is eligible
   * @throws a storage error (e.g. DISK_FULL) when the claim cannot be written
   */
  claimBatch(max: number, nowMs: number): Promise<ClaimedUrl[]>;
  /**
   * URLs per fetch slot the scheduler may claim ahead of free slots, so that a slot freed while a
   * claim is being written is filled at once from URLs already claimed (and cleared by robots.txt).
   * 0 or absent: claim only for free slots (a store shared by processes, where a URL claimed ahead
   * would keep its host's slot from the others).
   */
  readonly claimAheadPerSlot?: number;
  /**
   * Ends a fetch's hold on its host as soon as the fetch is over, before its outcome is recorded:
   * the host's politeness delay starts from `disposition`, and its slot is free for the next claim.
   * A committed {@link UrlOutcome} does this itself when it was not done first; its disposition can
   * still push the host's next eligible time further out (a retry's backoff). Idempotent per claim.
   */
  releaseHost(url: ClaimedUrl, disposition: Disposition): void;
  /**
   * Puts a settled URL (done or failed) back to pending, first in its host's queue, for a fetch
   * the user asked for ("Re-fetch now" in the URL inspector), in one transaction; its stored
   * answer stays until the new one replaces it. A URL queued or in flight is left as it is.
   * @param nowMs epoch ms (its host is woken at this time, its politeness delay still applies)
   */
  refetch(urlId: number, nowMs: number): Promise<RefetchOutcome>;
  /**
   * Takes one of `host`'s request slots for a fetch that is not a frontier URL (a sitemap), so it
   * keeps the host's politeness like a page: only when the host is eligible at `nowMs` (epoch ms)
   * and has a free slot (`maxInFlightPerHost`).
   * @returns taken, or not with when to ask again: the host's next eligible time (epoch ms), or
   *   null when its slots are busy (the fetch that ends frees one)
   */
  takeHostSlot(host: string, nowMs: number): HostSlot;
  /** Gives back a slot {@link takeHostSlot} took: the host then waits its politeness delay from `disposition`. */
  returnHostSlot(host: string, disposition: Disposition): void;
  /** When the next host becomes eligible (epoch ms), or null when no host has work it may claim. */
  nextEligibleAtMs(): number | null;
  /** URLs by state. */
  counts(): FrontierCounts;
  /** Live back-queue state of every host this store has met, at `nowMs` (epoch ms). */
  hostStates(nowMs: number): HostState[];
  /**
   * Sets a crawler trap's state (shared/types/traps.ts), in one transaction: `released` puts every
   * URL it holds back to pending (their hosts wake); `excluded` and `suspected` keep them held.
   * @param nowMs epoch ms (the trap's updated time; released hosts wake at it)
   * @returns the trap's pattern and how many URLs went back to pending; null when the crawl has no such trap
   */
  setTrapState(trapId: number, state: TrapState, nowMs: number): Promise<TrapStateChange | null>;
  /** The politeness delay after a fetch that took `fetchMs`, ms (IIR 20.2.3: k × fetch time, clamped). */
  politenessDelayMs(fetchMs: number, extraDelayMs?: number): number;
}

/** What {@link FrontierStore.setTrapState} did. */
export interface TrapStateChange {
  pattern: string;
  host: string;
  /** URLs that went back to pending (0 unless released). */
  released: number;
}

/** A URL a new trap took from pending to held (its host's read-ahead must drop it). */
export interface HeldUrl {
  id: number;
  host: string;
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
  /**
   * Every response header as a JSON object of lower-case names (repeats joined with ", "), at most
   * RESPONSE_HEADERS_MAX_CHARS (engine/fetch/response-headers.ts); null when not recorded.
   */
  responseHeadersJson?: string | null;
  /** `<meta name=description>` content, whitespace collapsed, capped; null when none. */
  metaDescription?: string | null;
  /** The first `<h1>`'s text, whitespace collapsed, capped; null when none. */
  h1?: string | null;
  /** The rel=canonical target (`<link>` first, else the Link header), absolute, no fragment; null when none. */
  canonicalUrl?: string | null;
  /** Meta robots / googlebot and X-Robots-Tag directives, lower case, comma-separated; null when none. */
  robotsDirectives?: string | null;
  /** The indexability verdict (engine/parse/indexability.ts). */
  indexability?: Indexability | null;
  /** Words of visible text (ContentFingerprints.words); null for pages without text. */
  wordCount?: number | null;
  /** `<html lang>`, else the Content-Language header; null when neither. */
  lang?: string | null;
}

/** A link row: `toUrlId` is null when a rule refused the link (`refusedBy` names the rule). */
export interface LinkRow {
  fromUrlId: number;
  /** The link as written (cut at STORED_RAW_URL_CHARS); stored only where it differs from the target URL (migration 0016). */
  rawUrl: string;
  toUrlId: number | null;
  /** LinkKind: a, redirect, canonical … */
  kind: string;
  refusedBy: string | null;
  /** The link's text (`<a>` text with `<img alt>`, whitespace collapsed, capped); null when the element has none. */
  anchorText?: string | null;
  /** Its `rel` tokens, lower case, space-separated (nofollow, sponsored, ugc …); null when none. */
  rel?: string | null;
}

/** A fetched page as the committer hands it over. */
export interface PageWrite {
  row: PageRow;
  /** The start of the page's normalized text (seed 005's excerpt) to keep; null to keep none. */
  text: string | null;
  /**
   * The page's content for the content-seen test (seed 003; IIR 19.6), null when the page takes
   * no part (no text, or not a 2xx answer: error pages often share text, 3xx bodies are not pages).
   */
  content: ContentFingerprints | null;
  /**
   * The fetched body as the store keeps it (engine/bodies/stored-body.ts): present when the crawl
   * keeps bodies (CrawlSettings.storeBodies) and the answer had one; absent or null otherwise. The
   * store drops it past the crawl's cap (maxStoredBodiesBytes).
   */
  body?: StoredBody | null;
  /** What the crawl's extractors found on the page (engine/extract); absent or null when none ran. */
  extracted?: Record<string, ExtractedValue> | null;
  /** Its JavaScript rendering's record (`page_renders`), when it was rendered; null or absent drops an earlier fetch's. */
  render?: RenderRecord | null;
}

/**
 * A link row of a page. `toUrlId` or `toKey` names the target (by id, or by normalized key: a
 * candidate of the same batch, or a URL already known); neither when a rule refused the link
 * (`refusedBy` names the rule).
 */
export interface LinkWrite {
  fromUrlId: number;
  /** The link as written (cut at STORED_RAW_URL_CHARS); stored only where it differs from the target URL (migration 0016). */
  rawUrl: string;
  /** The target's normalized key (a candidate of the batch, or a URL the store holds); null when the link was refused, or when `toUrlId` names the target. */
  toKey: string | null;
  /**
   * The target's URL id, when the scheduler knew it (CommitResult.seen of an earlier batch): the
   * batch need not offer the target as a candidate. Absent: the target is `toKey`'s.
   */
  toUrlId?: number;
  /** LinkKind: a, redirect, canonical … */
  kind: string;
  refusedBy: string | null;
  /** The link's text (`<a>` text with `<img alt>`, whitespace collapsed, capped); null when the element has none. */
  anchorText?: string | null;
  /** Its `rel` tokens, lower case, space-separated (nofollow, sponsored, ugc …); null when none. */
  rel?: string | null;
}

/**
 * One raw spelling of a URL (named by normalized key) and the page it was met on (null for seeds),
 * as engine/links/aliases.ts aliasWrite decides it: `rawUrl` without any `#fragment`, and
 * `fragmentSpellings` the fragment spellings it stands for (added to the stored spelling's count).
 */
export interface AliasWrite {
  toKey: string;
  rawUrl: string;
  fromUrlId: number | null;
  /** Spellings of `rawUrl` plus a `#fragment` met (not stored apart: counted). @default 0 */
  fragmentSpellings?: number;
}

/** How a claimed URL ended, as the store records it (its host's bookkeeping included). */
export type UrlOutcome =
  /** Fetched: any HTTP status below 400. */
  | { kind: 'done'; url: ClaimedUrl; disposition: Disposition }
  /** Failed: HTTP ≥ 400, a transport error after its retries, robots.txt unavailable, a limit. */
  | { kind: 'failed'; url: ClaimedUrl; error: UrlError; disposition: Disposition }
  /**
   * Blocked: robots.txt refused it, it was never requested (RFC 9309). `reason` is kept as the
   * URL's error code and message (ROBOTS_DISALLOWED) so every table can say why; `robotsLine` is
   * the rule that matched, `12: Disallow: /private/` (null when unknown).
   */
  | { kind: 'blocked'; url: ClaimedUrl; reason: UrlError; robotsLine: string | null; disposition: Disposition }
  /** Back to pending (a retry, a stop); its host waits as the disposition says; `reason`: the error retried (kept as the URL's retry reason). */
  | { kind: 'requeued'; url: ClaimedUrl; disposition: Disposition; reason?: UrlError }
  /**
   * A redirect answer (RFC 9110 §15.4), done with its 3xx status; the store writes its `redirect`
   * link to `target` (a candidate of the batch or a known URL) and fails it as REDIRECT_LOOP
   * instead when the target's stored redirects lead back to it within `maxHops` hops.
   */
  | { kind: 'redirected'; url: ClaimedUrl; disposition: Disposition; target: { key: string; url: string }; rawUrl: string; maxHops: number };

/**
 * A sitemap the crawl read (or could not), as the committer hands it over (engine/sitemaps): its
 * row, and the URLs it listed that went to the frontier (named by normalized key, each a candidate
 * of the same batch or a known URL).
 */
export interface SitemapWrite {
  url: string;
  /** How it was found (engine/sitemaps/sitemap-discovery.ts SitemapFoundVia). */
  foundVia: 'robots' | 'probe' | 'index';
  /** The index that listed it; null unless found via `index`. */
  parentUrl: string | null;
  /** Its root element; null when not read (an error, no answer). */
  kind: 'urlset' | 'sitemapindex' | null;
  /** The HTTP status of its answer; null when it was never requested or got none. */
  httpStatus: number | null;
  gzipped: boolean;
  /** Uncompressed bytes read. */
  bytes: number;
  /** `<loc>` entries read (at most 50,000). */
  entries: number;
  /** Entries past the 50,000 cap (counted, not used). */
  entriesOverCap: number;
  /** Listed URLs the link rules refused (each refusal counted by rule too), or an index's entries that are not http(s) URLs. */
  urlsRefused: number;
  /** Why it was not read whole (SITEMAP_MALFORMED, HTTP_404, ROBOTS_DISALLOWED …), or null. */
  error: UrlError | null;
  fetchMs: number;
  /** When it settled, epoch ms. */
  fetchedAtMs: number;
  /**
   * The page URLs it listed that passed the link rules, with each `<lastmod>` as written and
   * `listedAs`, the `<loc>` spelling where it differs from the URL fetched (else null).
   */
  listed: readonly { key: string; lastmod: string | null; listedAs: string | null }[];
}

/**
 * Everything one batch of settled fetches writes, as data; {@link CrawlWriter.commit} writes it
 * whole or not at all, in this order: `candidates` (the URL-seen test, IIR 20.2.2: a key met
 * twice is added once, a known key not again), `pages` (with the content-seen test, in order; a
 * page written again, a re-fetch, drops the link rows of its earlier fetch),
 * `outcomes` (in order; a redirect sees the redirect links of earlier outcomes), `links`,
 * `aliases`, `status`.
 */
export interface CommitBatch {
  /** When the batch is written, epoch ms (the new URLs' enqueue time). */
  nowMs: number;
  candidates?: readonly FrontierCandidate[];
  pages?: readonly PageWrite[];
  outcomes?: readonly UrlOutcome[];
  links?: readonly LinkWrite[];
  aliases?: readonly AliasWrite[];
  /**
   * Crawler traps found since the last batch (engine/traps): stored before the candidates (which
   * name them by pattern in `heldBy`); then every pending URL of the crawl on the trap's host that
   * its pattern matches becomes held.
   */
  traps?: readonly TrapSuspicion[];
  /** Sitemaps read, written after `candidates` (their listed URLs are candidates of the batch). */
  sitemaps?: readonly SitemapWrite[];
  /** The crawl row's new status (epoch ms `finishedAtMs`; null while the crawl may go on). */
  status?: { status: CrawlStatus; finishedAtMs: number | null };
}

/** What a committed batch did. */
export interface CommitResult {
  /** Candidates that passed the URL-seen test (new URLs). */
  added: number;
  /** The host of each new URL (`added` entries, in candidate order): the scheduler's queues wake for them. */
  addedHosts: string[];
  /** Pages the content-seen test found to duplicate earlier content (exact or near). */
  duplicates: number;
  /**
   * The batch's candidates after the URL-seen test, in candidate order: each one's seenEntry
   * (engine/dedupe/seen-cache.ts: URL id and source bits), when the store tells them (SQLite); the
   * scheduler keeps them so a later link to a known URL names its id ({@link LinkWrite.toUrlId})
   * and offers no candidate. Absent: the store does not (PostgreSQL, shared by processes).
   */
  seen?: Float64Array;
  /** URL ids of redirects failed as REDIRECT_LOOP. */
  redirectLoops: number[];
  /** New URLs stored held (their `heldBy` trap matched). @default 0 */
  held?: number;
  /** Pending URLs the batch's new traps took to held. @default [] */
  heldFromPending?: HeldUrl[];
}

/** Writes of one crawl's results, and the crawl row. */
export interface CrawlWriter {
  /**
   * Writes `batch` in one write transaction (SQLite: BEGIN IMMEDIATE … COMMIT): all of it, or
   * nothing when it fails (the promise rejects, with a storage error such as DISK_FULL).
   * @throws Error when a link, alias or redirect names a key that is neither a candidate of the
   *   batch nor a known URL (a caller's bug)
   */
  commit(batch: CommitBatch): Promise<CommitResult>;
  /** Sets the crawl row's status alone. @param finishedAtMs epoch ms; null while the crawl may go on */
  setStatus(status: CrawlStatus, finishedAtMs: number | null): Promise<void>;
  /** The crawl's summary row. @throws CodedError CRAWL_NOT_FOUND */
  summary(): Promise<CrawlSummary>;
  /** Pages recorded as exact or near duplicates so far (resumed counters). */
  duplicateCount(): Promise<number>;
  /** Redirect targets of the crawl's seeds stored so far (to widen a resumed crawl's scope). */
  seedRedirectTargets(): Promise<{ url: string; registrableDomain: string | null }[]>;
  /** The crawl's stored traps (host, pattern, state), for a resumed run's trap guard. */
  knownTraps(): Promise<{ host: string; pattern: string; state: TrapState }[]>;
  /** URLs of the sitemaps stored so far (a resumed crawl does not fetch them again). */
  storedSitemaps(): Promise<string[]>;
}

/** The ports of one crawl, as the crawl runner takes them. */
export interface CrawlStores {
  /** The crawl these stores belong to (its row in `crawls`). */
  crawlId: number;
  /** The crawl's URL frontier. */
  frontier: FrontierStore;
  /** The batch writer: new URLs, pages, links, aliases, outcomes and the crawl's status. */
  writer: CrawlWriter;
  /**
   * Ends the stores after the writes already asked for (a writer thread or a pool connection is
   * released). Call once, when the run is over; nothing may be written after.
   */
  close(): Promise<void>;
  /** Where fetched robots.txt files outlive the run; absent: kept in memory only, asked again on resume. */
  robots?: RobotsStore;
}

/**
 * A robots.txt as fetched for one origin of a crawl, kept so a resumed crawl does not ask again
 * within its cache lifetime (RFC 9309 §2.4). Only answers that decide rules are kept: a 2xx with
 * its body, a 4xx, or a redirect failure that counts as "unavailable" (no rules); a 5xx or an
 * unreachable host is not (it is asked again, §2.3.1.4).
 */
export interface StoredRobots {
  /** `scheme://host[:port]`, as `new URL(url).origin` spells it. */
  origin: string;
  /** The HTTP status of the answer; null when the fetch ended in `errorCode` (a redirect failure). */
  status: number | null;
  /** The error that made robots.txt "unavailable" (ROBOTS_REDIRECT_FAILURES), or null. */
  errorCode: string | null;
  /** The body as decoded text, at most ROBOTS_PARSE_LIMIT_BYTES characters ('' for a 4xx). */
  body: string;
  /** When it was fetched, epoch ms. */
  fetchedAtMs: number;
  /** When it must be fetched again, epoch ms (fetchedAtMs + the crawl's robotsCacheTtlMs). */
  expiresAtMs: number;
}

/**
 * The backing tier of the robots.txt cache (engine/robots/robots-cache.ts keeps a byte-bounded
 * set in memory; this keeps every origin of the crawl). Writes are their own small statement,
 * not part of a CommitBatch: a robots.txt belongs to an origin, not to any URL's outcome, and one
 * lost in a crash costs only one more fetch.
 */
export interface RobotsStore {
  /**
   * The stored entries of `origins` still valid at `nowMs` (expiresAtMs > nowMs), one round trip
   * for the batch; an origin with none (never stored, or expired) is absent from the answer.
   */
  load(origins: readonly string[], nowMs: number): Promise<StoredRobots[]>;
  /** Stores `entry`, replacing the origin's earlier one. @throws a storage error (DISK_FULL, …) */
  save(entry: StoredRobots): Promise<void>;
}
