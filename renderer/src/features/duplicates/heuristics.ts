import type { GroupHeuristic } from '../../../../shared/url/canonical';

/** Words for the heuristic that chose a group's canonical URL (seed 001, GROUP_HEURISTICS). */
export const HEURISTIC_WORDS: Readonly<Record<GroupHeuristic, string>> = {
  onlyMember: 'the only member',
  fetchedOk: 'fetched with status 200',
  https: 'uses https',
  matchesRelCanonical: "named by a member's rel=canonical",
  noQuery: 'has no query string',
  shorterPath: 'shortest path and query',
  lexicographic: 'alphabetically first (tie-break)',
};
