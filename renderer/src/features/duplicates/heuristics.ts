import type { GroupHeuristic } from '../../../../shared/url/canonical';
import type { GroupCanonicalLayer } from '../../../../shared/url/group-canonical';

/** Words for the layer that chose a group's canonical URL (seed 001; shared/url/group-canonical.ts). */
export const LAYER_WORDS: Readonly<Record<GroupCanonicalLayer, string>> = {
  redirect: 'the fetched URL redirects to it',
  siteRule: 'a site rule rewrites the URL to it',
  relCanonical: 'the page names it with rel=canonical',
  heuristic: 'the best raw URL of the group',
};

/** Words for the heuristic that chose a group's canonical URL (seed 001, GROUP_HEURISTICS). */
export const HEURISTIC_WORDS: Readonly<Record<GroupHeuristic, string>> = {
  onlyMember: 'the only member',
  noSessionOrTracking: 'carries no session or tracking parameter',
  fetchedOk: 'fetched with status 200',
  https: 'uses https',
  matchesRelCanonical: "named by a member's rel=canonical",
  noQuery: 'has no query string',
  shorterPath: 'shortest path and query',
  lexicographic: 'alphabetically first (tie-break)',
};
