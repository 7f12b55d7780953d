/**
 * Shapes the workbench views receive over IPC (Frontier, Duplicates, Settings, Checkpoints,
 * Crawls). Plain JSON; units live in names (`…Ms` milliseconds, `…AtMs` epoch milliseconds).
 */
import type { CrawlSettings, CrawlSummary, FrontierRow, UrlState } from '../types/crawl';
import type { DifferenceCause, GroupHeuristic } from '../url/canonical';
import type { NormalizationProfile } from '../url/profiles';
import type { TldConfig } from '../url/tld-config';
import type { TraceStep } from '../url/domain';

/** Why a host is not fetched from right now, in the words the Frontier view shows. */
export type HostWaitingReason = 'politeness delay' | 'robots Crawl-delay' | 'Retry-After backoff' | 'robots.txt pending' | 'robots.txt unavailable, retrying' | 'connection limit';

/** One row of the Frontier view's URL table: a frontier row plus where it was discovered. */
export interface UrlTableRow extends FrontierRow {
  /** URL of the page the link was found on; null for seeds. */
  discoveredFrom: string | null;
}

/** One row of the Frontier view's host table. Live fields are null when the crawl is not running. */
export interface HostRow {
  host: string;
  registrableDomain: string | null;
  /** URLs pending for this host. */
  queued: number;
  inFlight: number;
  done: number;
  errors: number;
  /** Epoch ms the host may next be fetched from (live crawls only). */
  nextEligibleAtMs: number | null;
  waitingReason: HostWaitingReason | null;
}

/** A duplicate-URL group in the list: one normalized key with two or more raw spellings. */
export interface UrlGroupRow {
  /** The URL row (frontier id) all members map to. */
  urlId: number;
  normalizedKey: string;
  normalized: string;
  /** Distinct raw URLs met (rows of url_aliases). */
  members: number;
}

/** One raw URL of a duplicate-URL group. */
export interface UrlGroupMember {
  rawUrl: string;
  /** Labels for why this spelling differs from the group's normalized form; empty when it is that form. */
  causes: DifferenceCause[];
  /** The page the spelling was first met on; null for a seed. */
  firstSeenFrom: string | null;
}

/** A duplicate-URL group with its members and the canonical URL chosen for it (seed 001 heuristics). */
export interface UrlGroupDetail {
  urlId: number;
  normalizedKey: string;
  normalized: string;
  /** The URL that was fetched for the group, its HTTP status (null when not fetched). */
  fetchedUrl: string;
  httpStatus: number | null;
  canonical: string;
  /** The heuristic that left one member (GROUP_HEURISTICS of shared/url/canonical). */
  decidedBy: GroupHeuristic;
  /** Each heuristic that narrowed the candidates, and the members it kept. */
  steps: { heuristic: GroupHeuristic; kept: string[] }[];
  members: UrlGroupMember[];
  /** Normalization profile the crawl used (its name). */
  profileName: string;
}

/** Kind of a content-duplicate group: identical visible text, or near-duplicate shingle sets. */
export type ContentGroupKind = 'exact' | 'near';

/** A content-duplicate group in the list. */
export interface ContentGroupRow {
  id: number;
  kind: ContentGroupKind;
  /** SHA-256 of the visible text (exact groups). */
  fingerprint: string | null;
  /** The first page seen with this content. */
  firstUrl: string;
  members: number;
  /** Lowest similarity of a member to the first page (1 for exact groups). */
  minSimilarity: number;
}

/** One page of a content group. */
export interface ContentGroupMember {
  urlId: number;
  url: string;
  title: string | null;
  /** Estimated Jaccard similarity of its shingle set to the group's first page (1 = identical). */
  similarity: number;
  /** Visible text length in characters. */
  textChars: number | null;
}

/**
 * A content group with its members. `texts` holds the visible text of the first two members
 * when the database stores page texts (table `page_texts`), else their titles only
 * (`textSource: 'titles'`): the text diff compares whichever is present.
 */
export interface ContentGroupDetail {
  group: ContentGroupRow;
  members: ContentGroupMember[];
  texts: { left: string; right: string; textSource: 'page text' | 'titles' } | null;
}

/** The settings the Settings view edits; stored in SQLite and applied to the next crawl. */
export interface SavedSettings {
  tld: TldConfig;
  /** Seed 004's pipe-separated lowercase extension list. */
  ignoredExtensions: string;
  normalizationProfile: NormalizationProfile;
}

/** Answer of `settings.testDomain`: seed 000's algorithm step by step for one URL or host. */
export interface DomainTestResult {
  host: string;
  registrableDomain: string | null;
  publicSuffix: string | null;
  /** True when no rule matched and the last-two-terms default was used. */
  fellBack: boolean;
  /** The seed's DEBUG message when `fellBack`. */
  warning: string | null;
  /** Set when the input has no usable host. */
  error: string | null;
  trace: TraceStep[];
}

/** The Public Suffix List snapshot's plain rules, for "Import Public Suffix List". */
export interface PublicSuffixImport {
  /** Rules that are valid list entries (no wildcard or exception), ICANN then PRIVATE section. */
  rules: string[];
  /** Wildcard (`*.kobe.jp`) and exception (`!city.kobe.jp`) rules left out: only PSL mode applies them. */
  skipped: number;
  snapshotDate: string;
}

/** What a normalization profile would do to the open crawl's URLs. */
export interface NormalizationPreview {
  /** URLs examined (all of the crawl's, or the first `limit` when `sampled`). */
  examined: number;
  sampled: boolean;
  /** URLs whose normalized key would change. */
  changedKeys: number;
  /** New keys that would join raw URLs now under two or more keys. */
  mergedGroups: number;
  /** Current keys whose raw URLs would spread over two or more new keys. */
  splitGroups: number;
}

/** One checkpoint as the Checkpoints view lists it. */
export interface CheckpointRow {
  crawlId: number;
  name: string;
  createdAtMs: number;
  pagesDone: number;
  /** URLs pending or in flight when the snapshot was taken. */
  frontierSize: number;
  /** First 16 hex chars of SHA-256 of the crawl's settings JSON. */
  settingsHash: string;
}

/** A crawl left running by a process that died, offered in the "Resume crawl?" dialog. */
export interface RecoveryOffer {
  crawlId: number;
  seeds: string[];
  pagesDone: number;
  queued: number;
  errors: number;
  createdAtMs: number;
}

/** A crawl opened in the workbench: its summary, whether it runs now, and its refusals by rule. */
export interface OpenedCrawl {
  summary: CrawlSummary;
  running: boolean;
  /** Links refused per link rule over the whole crawl (links.refused_by). */
  refusedByRule: Record<string, number>;
}

/** What an export writes. */
export type ExportKind = 'pages' | 'frontier' | 'errors' | 'urlGroups' | 'contentGroups';
/** The file format of an export: CSV (RFC 4180, header row) or JSON Lines. */
export type ExportFormat = 'csv' | 'jsonl';

/** Progress of one export, pushed at most 4 times a second and once at the end. */
export interface ExportProgress {
  exportId: number;
  crawlId: number;
  kind: ExportKind;
  format: ExportFormat;
  file: string;
  rowsWritten: number;
  /** Rows the export will write (counted when it started). */
  totalRows: number;
  state: 'running' | 'done' | 'failed';
  error: { code: string; message: string } | null;
}

/** Settings a running crawl can take when "Apply now" restarts it (its normalization keys stay). */
export type ApplicableSettings = Partial<Pick<CrawlSettings, 'tld' | 'ignoredExtensions'>>;

/** Filters of the URL table (the same as `frontier.queryUrls`). */
export interface UrlFilter {
  state?: UrlState;
  host?: string;
  text?: string;
}
