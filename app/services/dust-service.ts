/**
 * DUST rules of a crawl (issue 12 parts 5 and 6): mine them from its fetched pages, accept one
 * into the crawl's normalization (re-keying its frontier), undo it. The headless service behind
 * `crawlbench dust` and the Duplicates view's Rules section.
 */
import { CrawlReader, CrawlRuleStore, DuplicateQueries, DustQueries, otherLiveHolder, busyMessage, type RekeyOutcome, type WritableDB } from '../../engine';
import { CodedError } from '../../shared/types/result';
import { createCrawlNormalizer } from '../../shared/url/dust/identity';
import { mineDustRules } from '../../shared/url/dust/mine';
import type { DustReport, ListedProposal, RuleSource, RuleUndoOutcome } from '../../shared/types/dust-rules';
import { applyDustRule, dustRuleKey, type DustRule } from '../../shared/url/dust/rule';
import type { CrawlService } from './crawl-service';
import { crawlProfile } from './duplicates-service';

export type { DustReport, ListedProposal } from '../../shared/types/dust-rules';

/** Thresholds a user may set for mining (the caps are mine.ts defaults). */
export interface DustMiningRequest {
  /** @default 3 */
  minSupport?: number;
  /** @default 0.9 */
  minConfidence?: number;
}

/** How an accept treats a crawl running in this process. */
export type RunningCrawlChoice = 'refuse' | 'pause-and-resume';

/** Mines, accepts and undoes DUST rules of the crawls in one database. */
export class DustService {
  private readonly reader: CrawlReader;
  private readonly rules: CrawlRuleStore;
  private readonly queries: DustQueries;
  private readonly duplicates: DuplicateQueries;

  /** @param crawls the service running crawls on this database (to pause and resume one), if any */
  constructor(
    private readonly db: WritableDB,
    private readonly crawls?: CrawlService,
  ) {
    this.reader = new CrawlReader(db);
    this.rules = new CrawlRuleStore(db);
    this.queries = new DustQueries(db);
    this.duplicates = new DuplicateQueries(db);
  }

  /**
   * Mines DUST rules from a crawl's fetched pages under its identity (profile and rules in force).
   * @throws CodedError CRAWL_NOT_FOUND, INVALID_DUST_OPTIONS
   */
  mine(crawlId: number, request: DustMiningRequest = {}): DustReport {
    const { minSupport, minConfidence } = request;
    if (minSupport !== undefined && (!Number.isInteger(minSupport) || minSupport < 1)) throw new CodedError('INVALID_DUST_OPTIONS', `min support must be a whole number ≥ 1 (got ${minSupport})`);
    if (minConfidence !== undefined && !(minConfidence >= 0 && minConfidence <= 1)) throw new CodedError('INVALID_DUST_OPTIONS', `min confidence must be between 0 and 1 (got ${minConfidence})`);
    const active = this.rules.activeRules(crawlId);
    const identity = this.identity(crawlId, active);
    const { pages, truncated } = this.queries.pages(crawlId);
    const mined = mineDustRules(pages, {
      identity: (url) => {
        const result = identity(url);
        return result.ok ? result.value.key : null;
      },
      ...(minSupport !== undefined ? { minSupport } : {}),
      ...(minConfidence !== undefined ? { minConfidence } : {}),
    });
    const inForce = new Set(active.map(dustRuleKey));
    return {
      crawlId,
      proposals: mined.proposals.map((proposal, index) => ({ ...proposal, number: index + 1, accepted: inForce.has(dustRuleKey(proposal.rule)) })),
      stats: mined.stats,
      pagesTruncated: truncated,
      rules: this.rules.list(crawlId),
    };
  }

  /**
   * The rules that explain one content group: mined over the whole crawl with a support of 1 (so
   * the group's own difference counts) and kept when the rule takes a member URL to another
   * member (by the crawl's identity); validated on the fetched pages like every proposal. This is
   * "promote a group's cause to a rule": `/print/ → /` for a print copy, `drop ?ref=` for a
   * tracking parameter the profile does not know.
   * @throws CodedError GROUP_NOT_FOUND, CRAWL_NOT_FOUND
   */
  groupRules(crawlId: number, groupId: number): ListedProposal[] {
    if (!this.duplicates.contentGroup(crawlId, groupId)) throw new CodedError('GROUP_NOT_FOUND', `Crawl ${crawlId} has no content group ${groupId}`);
    const members = this.duplicates.contentMembers(groupId).map((member) => member.url);
    const active = this.rules.activeRules(crawlId);
    const identity = this.identity(crawlId, active);
    const keyOf = (url: string) => {
      const result = identity(url);
      return result.ok ? result.value.key : null;
    };
    // Under the profile alone, so a rule already in force still explains the group (listed as accepted).
    const profileIdentity = this.identity(crawlId, []);
    const profileKey = (url: string) => {
      const result = profileIdentity(url);
      return result.ok ? result.value.key : null;
    };
    const memberKeys = new Set(members.map(profileKey));
    const explains = (rule: DustRule) =>
      members.some((url) => {
        const rewritten = applyDustRule(url, rule);
        if (rewritten === null) return false;
        const key = profileKey(rewritten);
        return key !== null && key !== profileKey(url) && memberKeys.has(key);
      });
    const inForce = new Set(active.map(dustRuleKey));
    const mined = mineDustRules(this.queries.pages(crawlId).pages, { identity: keyOf, minSupport: 1 });
    return mined.proposals
      .filter((proposal) => explains(proposal.rule))
      .map((proposal, index) => ({ ...proposal, number: index + 1, accepted: inForce.has(dustRuleKey(proposal.rule)) }));
  }

  /**
   * Accepts a rule into a crawl and re-keys its frontier (crawl-rules.ts). A crawl running in this
   * process is paused, re-keyed and resumed when `whileRunning` is `pause-and-resume`; its
   * in-memory frontier and link cache are then rebuilt from the re-keyed rows.
   * @throws CodedError CRAWL_NOT_FOUND, CRAWL_RUNNING (running here and `refuse`), DB_BUSY (another
   *   process crawls this database), INVALID_DUST_RULE, DUST_RULE_EXISTS
   */
  async accept(crawlId: number, rule: DustRule, options: { source?: RuleSource; whileRunning?: RunningCrawlChoice } = {}): Promise<RekeyOutcome> {
    this.reader.getCrawl(crawlId);
    const other = otherLiveHolder(this.db);
    if (other) throw new CodedError('DB_BUSY', busyMessage(other));
    const running = this.crawls?.isRunning(crawlId) === true;
    if (running && options.whileRunning !== 'pause-and-resume') {
      throw new CodedError('CRAWL_RUNNING', `Crawl ${crawlId} is running: pause it first, or accept with "pause, apply and resume"`);
    }
    if (running) {
      this.crawls!.pause(crawlId);
      await this.crawls!.whenStopped(crawlId);
    }
    const outcome = this.rules.accept(crawlId, options.source ?? 'dust', rule, this.identity(crawlId, [...this.rules.activeRules(crawlId), rule]), Date.now());
    if (running) this.crawls!.resume(crawlId);
    return outcome;
  }

  /**
   * Accepts proposal `number` (1-based, as {@link mine} lists it with the same thresholds).
   * @throws CodedError DUST_RULE_NOT_FOUND when there is no such proposal, and as {@link accept}
   */
  async acceptProposal(crawlId: number, number: number, request: DustMiningRequest = {}, whileRunning: RunningCrawlChoice = 'refuse'): Promise<{ proposal: ListedProposal; outcome: RekeyOutcome }> {
    const report = this.mine(crawlId, request);
    const proposal = report.proposals.find((candidate) => candidate.number === number);
    if (!proposal) throw new CodedError('DUST_RULE_NOT_FOUND', `Crawl ${crawlId} has ${report.proposals.length} proposed rule(s), no number ${number}: list them with crawlbench dust --db FILE`);
    return { proposal, outcome: await this.accept(crawlId, proposal.rule, { whileRunning }) };
  }

  /**
   * Undoes the newest rule in force (see CrawlRuleStore.undo); the crawl must not be running.
   * @throws CodedError CRAWL_RUNNING, DB_BUSY, DUST_RULE_NOT_FOUND, DUST_UNDO_ORDER, DUST_UNDO_CONFLICT
   */
  undo(crawlId: number, ruleId: number): RuleUndoOutcome {
    this.reader.getCrawl(crawlId);
    const other = otherLiveHolder(this.db);
    if (other) throw new CodedError('DB_BUSY', busyMessage(other));
    if (this.crawls?.isRunning(crawlId) === true) throw new CodedError('CRAWL_RUNNING', `Crawl ${crawlId} is running: pause it, undo, then resume`);
    return this.rules.undo(crawlId, ruleId, Date.now());
  }

  /** The crawl's URL identity (normalized string and key) with `rules` in front of its profile. */
  private identity(crawlId: number, rules: readonly DustRule[]) {
    return createCrawlNormalizer(crawlProfile(this.reader.getCrawl(crawlId).settings), rules);
  }
}
