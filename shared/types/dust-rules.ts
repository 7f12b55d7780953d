/**
 * DUST rules accepted into a crawl and what accepting one did (issue 12 parts 5 and 6): the rows
 * of crawl_rules (migration 0020) as the engine, the CLI and the Duplicates view's Rules section
 * see them.
 */
import type { DustMiningStats, DustProposal } from '../url/dust/mine';
import type { DustRule } from '../url/dust/rule';

/** Where an accepted rule came from: mining over the whole crawl, or one content group's members (promoted from the Duplicates view). */
export type RuleSource = 'dust' | 'content-group';

/** A rule accepted into a crawl, with what accepting it did. Times are epoch ms. */
export interface AcceptedRule {
  id: number;
  crawlId: number;
  source: RuleSource;
  rule: DustRule;
  description: string;
  acceptedAtMs: number;
  /** Null while the rule applies. */
  undoneAtMs: number | null;
  /** URL rows given a new normalized key. */
  rekeyed: number;
  /** Queued URLs merged into another URL: each one a fetch saved. */
  merged: number;
  /** Fetched URLs that now share a key with another fetched URL (left as they are). */
  fetchedDuplicates: number;
}

/** What accepting a rule did to the frontier. */
export interface RekeyOutcome {
  ruleId: number;
  rekeyed: number;
  merged: number;
  /** = merged: queued URLs that will not be fetched. */
  fetchesSaved: number;
  fetchedDuplicates: number;
  /** Up to 5 merges, `from` the URL removed, `into` the URL kept. */
  examples: { from: string; into: string }[];
}

/** A proposal as listed: numbered from 1, and whether the crawl already applies its rule. */
export interface ListedProposal extends DustProposal {
  number: number;
  accepted: boolean;
}

/** What `crawlbench dust` prints and the Rules section shows. */
export interface DustReport {
  crawlId: number;
  proposals: ListedProposal[];
  stats: DustMiningStats;
  /** The fetched pages read were cut at the page cap (MAX_DUST_PAGES). */
  pagesTruncated: boolean;
  /** Rules accepted into the crawl, oldest first (undone ones too). */
  rules: AcceptedRule[];
}

/** What an undo gave back. */
export interface RuleUndoOutcome {
  /** Merged URLs back in the frontier. */
  restored: number;
  /** URLs given back their old key, normalized string, depth or priority. */
  rekeyed: number;
}
