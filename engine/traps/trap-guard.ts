/**
 * The trap guard (issue 12 part 4): runs the live detectors on the links and pages of a crawl as
 * the result committer batches them, and decides which new URLs are held. One per crawl run, on
 * the scheduler's thread; no I/O: what it finds travels in the commit batch (CommitBatch.traps,
 * FrontierCandidate.heldBy) and the store holds the URLs (engine/store/sqlite/trap-rows.ts).
 *
 * Cost per link: one host lookup when the host has no trap, a split of the URL and two bounded
 * cache reads for the live detectors; a page adds one template and up to four sketch comparisons.
 */
import type { TrapState } from '../../shared/types/traps';
import { FingerprintCache } from '../dedupe/fingerprint-cache';
import type { FrontierCandidate } from '../store/ports';
import { CounterSequenceDetector } from './counter-sequence';
import { NearIdenticalDetector } from './near-identical';
import { ParamExplosionDetector } from './param-explosion';
import { PathDepthDetector } from './path-depth';
import { repeatedSegments } from './repeated-segments';
import type { TrapSuspicion } from './suspicion';
import { CHAIN_CACHE_LIMITS, DEFAULT_TRAP_THRESHOLDS, SCREENED_CACHE_LIMITS, type TrapThresholds } from './thresholds';
import { urlShape, urlTemplate, type UrlShape } from './url-shape';

export type { TrapSuspicion } from './suspicion';

/** A trap the guard knows: one it found, or one stored by an earlier run. */
export interface KnownTrap {
  host: string;
  pattern: string;
  state: TrapState;
}

interface CompiledTrap extends KnownTrap {
  regex: RegExp;
}

/** The parent page of a batch of links, worked out once. */
interface Parent {
  url: string;
  shape: UrlShape;
  template: string;
}

export class TrapGuard {
  private readonly byHost = new Map<string, CompiledTrap[]>();
  private readonly patterns = new Set<string>();
  private fresh: TrapSuspicion[] = [];
  private readonly repeatThresholds: Pick<TrapThresholds, 'repeatedSegments'>;
  private readonly depth: PathDepthDetector;
  private readonly counter: CounterSequenceDetector;
  private readonly params: ParamExplosionDetector;
  private readonly nearIdentical: NearIdenticalDetector;
  /**
   * URLs linked from a page of their own template (`/calendar/2031/7` from `/calendar/2031/6`):
   * the pattern generates itself, as traps do. Only such pages count for the near-identical
   * detector, so a list's detail pages (products, reviews, profiles linked from an index) that
   * share most of their text are never held for it. Bounded like the detectors' chains.
   */
  private readonly selfGenerated = new FingerprintCache({ ...CHAIN_CACHE_LIMITS, values: false });
  /**
   * Link targets the detectors have seen: navigation links recur on every page, and a trap shows in
   * the URLs it keeps making up, so a repeat costs one lookup instead of the detectors' work
   * (a 7% slower docs crawl before this). Bounded by SCREENED_CACHE_LIMITS.
   */
  private readonly screened = new FingerprintCache(SCREENED_CACHE_LIMITS);

  /**
   * @param known traps stored by earlier runs of the crawl (suspected and excluded ones hold their
   *   matches again; a released one is never suspected again)
   * @param thresholds the detectors' thresholds (thresholds.ts)
   */
  constructor(known: readonly KnownTrap[] = [], thresholds: TrapThresholds = DEFAULT_TRAP_THRESHOLDS) {
    this.repeatThresholds = thresholds;
    this.depth = new PathDepthDetector(thresholds);
    this.counter = new CounterSequenceDetector(thresholds);
    this.params = new ParamExplosionDetector(thresholds);
    this.nearIdentical = new NearIdenticalDetector(thresholds);
    this.addKnown(known);
  }

  /** Adds traps stored by earlier runs (a pattern already known is skipped). */
  addKnown(known: readonly KnownTrap[]): void {
    for (const trap of known) this.remember(trap);
  }

  /**
   * Screens the links of one page (`parentUrl`, null for seeds) before they reach the frontier: runs
   * the link detectors, and sets `heldBy` (the trap's pattern) on each candidate a suspected or
   * excluded trap matches, a trap found by this very batch included.
   * @param memos `memos[i]`, when given, remembers whether `candidates[i]`'s URL was screened
   *   (link-pipeline.ts TargetMemo): a repeat link skips the lookup of its URL in `screened`, which
   *   was about 4% of the scheduler thread on the 20,200-page synthetic crawl.
   */
  screen(parentUrl: string | null, candidates: FrontierCandidate[], memos?: readonly { screened: boolean }[]): void {
    if (candidates.length === 0) return;
    let parent: Parent | null | undefined;
    for (let i = 0; i < candidates.length; i += 1) {
      const candidate = candidates[i]!;
      const memo = memos?.[i];
      const screenedBefore = memo?.screened === true || this.screened.has(candidate.url);
      // Screened by the time this link is done, either way.
      if (memo !== undefined) memo.screened = true;
      if (screenedBefore) {
        const trap = this.match(candidate.host, candidate.url);
        if (trap !== null) candidate.heldBy = trap.pattern;
        continue;
      }
      this.screened.set(candidate.url, 1);
      if (parent === undefined) {
        const parentShape = parentUrl === null ? null : urlShape(parentUrl);
        parent = parentShape === null ? null : { url: parentUrl!, shape: parentShape, template: urlTemplate(parentShape) };
      }
      const shape = urlShape(candidate.url);
      if (shape === null) continue;
      const child = { url: candidate.url, shape, template: urlTemplate(shape) };
      this.found(repeatedSegments(shape, candidate.url, this.repeatThresholds));
      this.found(this.depth.observeLink(parent, child));
      this.found(this.counter.observeLink(parent, child));
      this.found(this.params.observe(candidate.url, shape));
      if (parent !== null && parent.template === child.template && parent.shape.host === shape.host) this.selfGenerated.set(candidate.url, 1);
      const trap = this.match(candidate.host, candidate.url);
      if (trap !== null) candidate.heldBy = trap.pattern;
    }
  }

  /**
   * Counts a fetched page's content (2xx answers with text) for the near-identical detector, when
   * the page was linked from another page of its own URL template (see `selfGenerated`).
   */
  observePage(url: string, minhash: Uint32Array | null): void {
    if (minhash === null || !this.selfGenerated.has(url)) return;
    const shape = urlShape(url);
    if (shape === null) return;
    this.found(this.nearIdentical.observePage(url, shape, urlTemplate(shape), minhash));
  }

  /** The traps found since the last call (each once), for the next commit batch. */
  takeFound(): TrapSuspicion[] {
    const found = this.fresh;
    this.fresh = [];
    return found;
  }

  /** The trap (suspected or excluded) holding `url` of `host`, or null. */
  match(host: string, url: string): KnownTrap | null {
    const traps = this.byHost.get(host);
    if (traps === undefined) return null;
    for (const trap of traps) if (trap.state !== 'released' && trap.regex.test(url)) return trap;
    return null;
  }

  /** The user released or excluded a trap (or it was stored so): new matches follow its new state. */
  setState(pattern: string, state: TrapState): void {
    for (const traps of this.byHost.values()) for (const trap of traps) if (trap.pattern === pattern) trap.state = state;
  }

  private found(suspicion: TrapSuspicion | null): void {
    if (suspicion === null || this.patterns.has(suspicion.pattern)) return;
    this.remember({ host: suspicion.host, pattern: suspicion.pattern, state: 'suspected' });
    this.fresh.push(suspicion);
  }

  private remember(trap: KnownTrap): void {
    if (this.patterns.has(trap.pattern)) return;
    this.patterns.add(trap.pattern);
    let traps = this.byHost.get(trap.host);
    if (traps === undefined) this.byHost.set(trap.host, (traps = []));
    traps.push({ ...trap, regex: new RegExp(trap.pattern) });
  }
}
