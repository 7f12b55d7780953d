/**
 * Shapes the workbench views receive over IPC (Frontier, Duplicates, Settings, Checkpoints,
 * Crawls). Plain JSON; units live in names (`…Ms` milliseconds, `…AtMs` epoch milliseconds).
 */
import type { CrawlSettings, CrawlSummary, UrlState } from '../types/crawl';
import type { DifferenceCause, GroupHeuristic } from '../url/canonical';
import type { GroupCanonicalLayer } from '../url/group-canonical';
import type { NormalizationProfile } from '../url/profiles';
import type { TldConfig } from '../url/tld-config';
import type { TraceStep } from '../url/domain';
import type { ContentGroupMember, ContentGroupRow } from '../types/rows';
import type { VersionMemberRow, VersionTemplateRow } from '../types/versions';

/** Row shapes the store's view queries return, defined in shared/types/rows.ts (the engine may not import shared/ipc). */
export type { HostWaitingReason, UrlTableRow, HostRow, UrlGroupRow, ContentGroupKind, ContentGroupRow, ContentGroupMember, CheckpointRow } from '../types/rows';

/** One raw URL of a duplicate-URL group. */
export interface UrlGroupMember {
  rawUrl: string;
  /** Labels for why this spelling differs from the group's normalized form; empty when it is that form. */
  causes: DifferenceCause[];
  /** The page the spelling was first met on; null for a seed. */
  firstSeenFrom: string | null;
  /** Spellings met that are this one plus a `#fragment` (counted, not stored apart: issue 15). */
  fragmentSpellings: number;
}

/** A duplicate-URL group with its members and the canonical URL chosen for it (seed 001's layers, then its heuristics). */
export interface UrlGroupDetail {
  urlId: number;
  normalizedKey: string;
  normalized: string;
  /** The URL that was fetched for the group, its HTTP status (null when not fetched). */
  fetchedUrl: string;
  httpStatus: number | null;
  canonical: string;
  /** The layer that chose it: the fetched URL's redirect target, a site rule, its page's rel=canonical, or the heuristics (shared/url/group-canonical.ts). */
  layer: GroupCanonicalLayer;
  /** The heuristic that left one member (GROUP_HEURISTICS of shared/url/canonical) when `layer` is `heuristic`; else null. */
  decidedBy: GroupHeuristic | null;
  /** The site rule that rewrote the URL when `layer` is `siteRule`. */
  siteRuleId?: string;
  /** Each heuristic that narrowed the candidates, and the members it kept. */
  steps: { heuristic: GroupHeuristic; kept: string[] }[];
  members: UrlGroupMember[];
  /** Normalization profile the crawl used (its name). */
  profileName: string;
}

/**
 * A content group with its members. `texts` holds the visible text of the first two members
 * when the database stores page texts (blocks named by `pages.text_block_id`, or `page_texts`
 * rows of older runs), else their titles only
 * (`textSource: 'titles'`): the text diff compares whichever is present.
 */
export interface ContentGroupDetail {
  group: ContentGroupRow;
  members: ContentGroupMember[];
  texts: { left: string; right: string; textSource: 'page text' | 'titles' } | null;
}

export type { VersionMemberRow, VersionTemplateRow } from '../types/versions';

/** One version URL template (seed 001) with its member URLs in version order and how each fetch went. */
export interface VersionTemplateDetail {
  template: VersionTemplateRow;
  members: VersionMemberRow[];
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
  /** When `fellBack`: what to add to the TLD lists, in words (shared/url/domain.ts fallbackAdvice). */
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
  /** Up to `PREVIEW_EXAMPLES` URLs whose key would change: the URL, its normalized URL now and under the profile. */
  changedExamples: { url: string; before: string; after: string }[];
  /**
   * Up to `PREVIEW_EXAMPLES` merges: the normalized URL under the profile, and the current
   * normalized URLs that would join in it (at most 5 listed; `count` says how many).
   */
  mergedExamples: { after: string; before: string[]; count: number }[];
  /**
   * Up to `PREVIEW_EXAMPLES` splits: a current normalized URL, and the normalized URLs its raw
   * spellings would spread over under the profile (at most 5 listed; `count` says how many).
   */
  splitExamples: { before: string; after: string[]; count: number }[];
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

/** A seed whose fetch failed, with the stored error code and message (`DNS_FAILURE`, `Host not in the resolver map …`). */
export interface SeedFailure {
  url: string;
  errorCode: string | null;
  errorReason: string | null;
}

/** A crawl opened in the workbench: its summary, whether it runs now, its refusals by rule, and its stored history. */
export interface OpenedCrawl {
  summary: CrawlSummary;
  running: boolean;
  /** Links refused per link rule over the whole crawl (links.refused_by). */
  refusedByRule: Record<string, number>;
  /** Pages per second over the whole crawl, oldest first, from the stored fetch times (at most 240 samples). */
  rateHistory: number[];
  /** Seeds that failed (at most 20), so a crawl that fetched nothing says why. */
  seedFailures: SeedFailure[];
}

/** What an export writes. */
export type ExportKind = 'pages' | 'frontier' | 'errors' | 'urlGroups' | 'contentGroups' | 'versions' | 'traps' | 'sitemapReport';
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

/**
 * Progress of one re-run of a crawl's extractors over its stored bodies (issue 14 part 2), pushed
 * as `extract.onDidProgress` at most every 100 ms and once at the end.
 */
export interface ExtractionProgress {
  /** Numbers the re-runs of this app session (a late event of an older one is ignored). */
  rerunId: number;
  crawlId: number;
  /** Names of the extractors being run, in order: the Pages table's extracted columns once it is done. */
  extractors: string[];
  /** Stored bodies read so far. */
  done: number;
  /** Stored bodies of the crawl (counted when the re-run started). */
  total: number;
  /** HTML pages the extractors ran on so far; the other stored bodies are skipped (not HTML, redirects). */
  pages: number;
  skipped: number;
  state: 'running' | 'done' | 'failed';
  /** Wall time so far, ms. */
  ms: number;
  /** Why it failed (state `failed`): DISK_FULL, DB_BUSY, … The results of the batches written before stay. */
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
