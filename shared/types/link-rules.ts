/**
 * Seed 004's link rules by name, in the order the crawler checks them, and each name in words for
 * the screen (the URL inspector's refused outlinks, refusal counts). The engine's rules
 * (engine/links/link-rules.ts) use these names; a refusal stored in `links.refused_by` is one of them.
 */

/**
 * Why a link was not followed. Seed 004's rules (protocol, address length, query strings, file
 * extension, robots nofollow, hostname / whole-site scope), IIR 20.2's domain URL filter
 * (include / exclude lists), a host the closed resolver would refuse (`host-not-mapped`: not in
 * the host overrides, so never fetched), the depth limit, and links that are not URLs at all.
 */
export type LinkRuleName =
  | 'invalid-url'
  | 'protocol'
  | 'url-length'
  | 'query-string'
  | 'ignored-extension'
  | 'nofollow'
  | 'scope'
  | 'include-domains'
  | 'exclude-domains'
  | 'host-not-mapped'
  | 'max-depth'
  | 'max-links-per-page';

/**
 * Every rule, in the order they are checked; the first that refuses a link is the one counted.
 * `url-length` is also checked first of all, in the worker, for hrefs longer than the limit;
 * `max-links-per-page` counts links the worker did not pass on (past the page's cap).
 */
export const LINK_RULES: readonly LinkRuleName[] = [
  'invalid-url',
  'protocol',
  'url-length',
  'query-string',
  'ignored-extension',
  'nofollow',
  'scope',
  'include-domains',
  'exclude-domains',
  'host-not-mapped',
  'max-depth',
  'max-links-per-page',
];

/** Each link rule in plain words, as a sentence fragment: "refused: <label>". */
export const LINK_RULE_LABELS: Readonly<Record<LinkRuleName, string>> = {
  'invalid-url': 'not a valid URL',
  protocol: 'not an http or https link',
  'url-length': 'URL too long',
  'query-string': 'has a query string (query strings are not followed)',
  'ignored-extension': 'file type on the ignored extensions list',
  nofollow: 'the page says nofollow',
  scope: 'outside the crawl scope',
  'include-domains': 'domain not on the include list',
  'exclude-domains': 'domain on the exclude list',
  'host-not-mapped': 'host not in the host overrides (closed mode)',
  'max-depth': 'deeper than the depth limit',
  'max-links-per-page': 'past the per-page link limit',
};

/** Refusal counters in words: the link rules, and `robots` (a URL robots.txt disallows, counted with them). */
const REFUSAL_LABELS: Readonly<Record<string, string>> = { ...LINK_RULE_LABELS, robots: 'disallowed by robots.txt' };

/**
 * A stored rule name (or the `robots` refusal counter) in words; a name this version does not
 * know is shown as it is.
 * @example linkRuleLabel('scope') → 'outside the crawl scope'
 * @example linkRuleLabel('some-future-rule') → 'some-future-rule'
 */
export function linkRuleLabel(rule: string): string {
  return Object.hasOwn(REFUSAL_LABELS, rule) ? REFUSAL_LABELS[rule]! : rule;
}
