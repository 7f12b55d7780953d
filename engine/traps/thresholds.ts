/**
 * The trap detectors' thresholds: named defaults, one place. Each was chosen against the fixture
 * traps (testweb/scope-sites/traps.ts) and the Python docs mirror (no false positive: see
 * tests/integration/traps.test.ts), and each says what a normal site stays under.
 */
export interface TrapThresholds {
  /**
   * Occurrences in a row of one block of 1 to MAX_REPEAT_BLOCK path segments from which a path is
   * pathological: Heritrix PathologicalPathDecideRule's maxRepetitions 2 means a third occurrence.
   * @default 3
   */
  repeatedSegments: number;
  /**
   * Path segments beyond which any URL is held (Heritrix TooManyPathSegmentsDecideRule's
   * maxPathDepth: 20). The static floor; real sites stay far below (the Python docs: 4).
   * @default 20
   */
  maxPathSegments: number;
  /**
   * Links in a row, each to a path one level or more deeper under its page's own path, from which
   * the prefix is a trap (a relative link that re-appends itself). A docs tree gains a level per
   * section (`/3/` → `/3/library/` → `/3/library/os.html`: 3).
   * @default 8
   */
  depthChain: number;
  /**
   * Links in a row from a URL to another of the same template with other numbers (next month, next
   * page) from which the template is a counter without end. A paginated list that ends stops below.
   * @default 30
   */
  counterChain: number;
  /**
   * Distinct query strings on one path from which the parameter-explosion test runs.
   * @default 16
   */
  paramQueries: number;
  /**
   * The query strings must outnumber the sum of each parameter's distinct values by this factor:
   * combinations (a product) rather than one list (`?page=1…N` has as many strings as values).
   * @default 2
   */
  paramProductFactor: number;
  /**
   * Pages of one template near-identical to an earlier page of it, from which the template is held;
   * only pages linked from a page of their own template count (trap-guard.ts), so a short series
   * of thin pages (six products chained by "next", their reviews) stays below it.
   * @default 5
   */
  nearIdenticalPages: number;
  /**
   * Estimated Jaccard similarity (MinHash of 4-word shingles, IIR 19.6) from which two pages of a
   * template count as near-identical. Below the crawl's near-duplicate threshold (0.9): pages of one
   * template differ at least by the number that made them.
   * @default 0.8
   */
  nearIdenticalSimilarity: number;
}

/** The defaults of {@link TrapThresholds}. */
export const DEFAULT_TRAP_THRESHOLDS: Readonly<TrapThresholds> = Object.freeze({
  repeatedSegments: 3,
  maxPathSegments: 20,
  depthChain: 8,
  counterChain: 30,
  paramQueries: 16,
  paramProductFactor: 2,
  nearIdenticalPages: 5,
  nearIdenticalSimilarity: 0.8,
});

/** Longest block of path segments the repetition test looks for (`/x/y/z/w/` repeated). */
export const MAX_REPEAT_BLOCK = 4;

/**
 * Templates (host + template) or paths whose live state each detector keeps; past this, new ones
 * are not watched (near-identical: at most 4 sketches of 256 bytes each, about 10 MB in all).
 */
export const MAX_WATCHED_TEMPLATES = 10_000;

/** Query strings the parameter-explosion detector keeps over all paths (about 100 bytes each). */
export const MAX_TRACKED_QUERIES = 100_000;

/**
 * Per-URL chains (path depth, counter sequences) kept by each detector, and the URLs the guard
 * knows as linked from their own template: entries, as 64-bit fingerprints of the URLs
 * (engine/dedupe/fingerprint-cache.ts), at most 5.2 MiB with the chain lengths and 3.7 MiB as a
 * set (196,608 entries of 17 or 9 bytes, 524,288 table cells of 4). As Maps of the URL strings
 * they held 100,000 entries and about 8 MiB each (some 55,000 synthetic-site URLs).
 */
export const CHAIN_CACHE_LIMITS = { maxEntries: 196_608 } as const;

/**
 * Link targets the trap guard remembers as screened (a repeat skips the detectors): entries, as
 * 64-bit fingerprints of the URLs in a set of 7.4 MiB at most (393,216 entries of 9 bytes,
 * 1,048,576 table cells of 4). When it held about 55,000 URL strings (8 MiB) the 100,000-page
 * synthetic crawl's 105,000 link targets ran the detectors again on most links: 45 of the main
 * thread's 204 busy seconds in a CPU profile went to screening. As a Map of the strings it held
 * 400,000 entries in 32 MiB (estimated).
 */
export const SCREENED_CACHE_LIMITS = { maxEntries: 393_216, values: false } as const;

/** Reference pages kept per template for the near-identical test. */
export const NEAR_IDENTICAL_REFERENCES = 4;

/** Distinct query strings kept per path for the explosion test (past it the path has fired or is counted only). */
export const MAX_QUERIES_PER_PATH = 512;
