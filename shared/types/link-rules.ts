/**
 * Link rules in words (seed 004's rules, IIR 20.2's domain filter, the depth and per-page limits):
 * one place the workbench turns `links.refused_by` identifiers into text. The identifiers are the
 * engine's LinkRuleName (engine/links/link-rules.ts) plus `robots`.
 */
export const LINK_RULE_WORDS: Readonly<Record<string, string>> = {
  'invalid-url': 'not a URL',
  protocol: 'scheme not followed',
  'url-length': 'URL too long',
  'query-string': 'has a query string',
  'ignored-extension': 'ignored extension',
  nofollow: 'nofollow',
  scope: 'outside the scope',
  'include-domains': 'not in the included domains',
  'exclude-domains': 'in the excluded domains',
  'max-depth': 'deeper than max depth',
  'max-links-per-page': 'past the links kept per page',
  robots: 'disallowed by robots.txt',
};

/**
 * A link rule's identifier in words; an unknown identifier is returned as it is.
 * @example linkRuleWords('scope') → 'outside the scope'
 */
export function linkRuleWords(rule: string): string {
  return Object.hasOwn(LINK_RULE_WORDS, rule) ? LINK_RULE_WORDS[rule]! : rule;
}
