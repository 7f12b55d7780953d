/**
 * Each normalization rule's name in words, for every screen that shows a rule (the Settings
 * view's switches, the preview's examples, an inspector's rule firings). The camelCase name stays
 * the identifier (profiles, `crawlbench normalize --explain`, stored settings) and is shown as a
 * tooltip beside the words.
 */
import type { NormalizationRuleName } from './rules';

/** Every rule's label, keyed by its identifier. */
export const RULE_LABELS: Readonly<Record<NormalizationRuleName, string>> = {
  lowercaseSchemeAndHost: 'Lowercase scheme and host',
  lowercaseUrl: 'Lowercase the whole URL',
  uppercasePercentEscapes: 'Uppercase percent-escapes',
  decodeUnreservedCharacters: 'Decode unreserved characters',
  removeDefaultPort: 'Remove the default port',
  removeDotSegments: 'Remove dot segments',
  addTrailingSlash: 'Add "/" to an empty path',
  removeDirectoryIndex: 'Remove a directory index (index.html)',
  removeFragment: 'Remove the fragment',
  removeWww: 'Remove "www."',
  removeQueryParams: 'Remove listed query parameters',
  removeDefaultQueryParams: 'Remove default-valued parameters',
  sortQueryParams: 'Sort query parameters',
  removeEmptyQuery: 'Remove an empty query',
  foldHttpsToHttp: 'Treat https as http',
  removeFileExtension: 'Remove a listed file extension',
  removeTrailingSlash: 'Remove the trailing slash',
};

/**
 * A rule's label in words.
 * @example ruleLabel('removeDefaultPort') → 'Remove the default port'
 */
export function ruleLabel(rule: NormalizationRuleName): string {
  return RULE_LABELS[rule];
}
