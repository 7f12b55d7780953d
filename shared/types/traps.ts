/**
 * Crawler traps (issue 12 part 4; IIR 20.2 "spider traps"; Heritrix's TooManyPathSegments and
 * PathologicalPath decide rules as the static floor): the shapes shared by the engine, the CLI,
 * IPC and the Frontier view. A trap is a URL pattern on one host that a detector found to lead into
 * an endless URL space; the URLs matching it are *held* (URL state `held`: not fetched, not lost,
 * reversible) until the user releases the pattern or excludes it for good.
 */

/**
 * Which live detector suspected the trap (engine/traps/):
 * - `repeated-segments`: a block of path segments repeats (`/a/a/a/`, `/x/y/x/y/x/y/`), Heritrix PathologicalPath
 * - `path-depth`: paths keep growing deeper along one prefix, or pass the static depth floor (Heritrix TooManyPathSegments)
 * - `counter-sequence`: one URL template's numbers keep climbing link after link (`/calendar/2031/7`, `?page=N`)
 * - `param-explosion`: one path's query strings grow as the product of its parameters' values (`?sort=&page=&view=`)
 * - `near-identical`: many pages of one URL template have near-identical text (empty calendar months, soft 404s)
 */
export type TrapDetector = 'repeated-segments' | 'path-depth' | 'counter-sequence' | 'param-explosion' | 'near-identical';

/** Every detector, in the order reports list them. */
export const TRAP_DETECTORS: readonly TrapDetector[] = ['repeated-segments', 'path-depth', 'counter-sequence', 'param-explosion', 'near-identical'];

/**
 * A trap's state: `suspected` (its URLs are held, new matches are held too), `released` (the user
 * let its URLs go back to pending; new matches are crawled), `excluded` (its URLs stay held and new
 * matches are held, never fetched: a permanent exclude rule).
 */
export type TrapState = 'suspected' | 'released' | 'excluded';

export const TRAP_STATES: readonly TrapState[] = ['suspected', 'released', 'excluded'];

/** What a detector saw when it fired, as stored in traps.evidence_json. Numbers are counts. */
export interface TrapEvidence {
  /** One sentence for people: what repeats or grows, and the threshold it crossed. */
  summary: string;
  /** The measured value that crossed the threshold (repeats, depth, chain length, query strings, similar pages). */
  observed: number;
  /** The threshold it crossed (a named default in engine/traps/thresholds.ts). */
  threshold: number;
}

/** One suspected trap as stored and shown. */
export interface TrapRow {
  id: number;
  crawlId: number;
  host: string;
  /**
   * The URLs it holds, as a regular expression source over the whole URL (`^https?://host(?::\d+)?/…`),
   * built only of literals, character classes and bounded repeats, so a linear-time engine (RE2)
   * runs it and it can become an exclude rule as it is.
   */
  pattern: string;
  /** The pattern as people read it: `/calendar/{n}/{n}`, `/a/(a/){2,}…`. */
  template: string;
  detector: TrapDetector;
  evidence: TrapEvidence;
  /** A few URLs it matched (the first met), at most TRAP_EXAMPLES. */
  examples: string[];
  /** URLs of the crawl in state held under this trap now. */
  heldCount: number;
  state: TrapState;
  /** When it was first suspected, epoch ms. */
  detectedAtMs: number;
  /** When its state last changed, epoch ms. */
  updatedAtMs: number;
}

/** Examples kept per trap. */
export const TRAP_EXAMPLES = 5;
