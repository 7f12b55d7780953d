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
 * Issue 12 adds: `list-mode` (a list-mode crawl fetches its seeds only), `link-nofollow` (the link
 * itself carries one of {@link NOFOLLOW_REL_TOKENS}), and `include-pattern` / `exclude-pattern`
 * (the crawl's regular expressions over the URL).
 */
export type LinkRuleName =
  | 'invalid-url'
  | 'protocol'
  | 'url-length'
  | 'list-mode'
  | 'query-string'
  | 'ignored-extension'
  | 'nofollow'
  | 'link-nofollow'
  | 'scope'
  | 'include-domains'
  | 'exclude-domains'
  | 'include-pattern'
  | 'exclude-pattern'
  | 'host-not-mapped'
  | 'max-depth'
  | 'max-links-per-page';

/**
 * Every rule, in the order they are checked; the first that refuses a link is the one counted.
 * `url-length` is also checked first of all, in the worker, for hrefs longer than the limit;
 * `max-links-per-page` counts links the worker did not pass on (past the page's cap).
 * `list-mode` comes right after the rules about the URL's form: in list mode every other link is
 * counted under it (the crawl follows none), and the costlier rules are not run for nothing.
 * The pattern rules come after the cheap set lookups: they run a regular expression.
 */
export const LINK_RULES: readonly LinkRuleName[] = [
  'invalid-url',
  'protocol',
  'url-length',
  'list-mode',
  'query-string',
  'ignored-extension',
  'nofollow',
  'link-nofollow',
  'scope',
  'include-domains',
  'exclude-domains',
  'include-pattern',
  'exclude-pattern',
  'host-not-mapped',
  'max-depth',
  'max-links-per-page',
];

/**
 * `rel` tokens that make a link nofollow (rule `link-nofollow`, unless `followNofollowLinks`).
 * `nofollow` is HTML's "not endorsed" link type (WHATWG HTML, link types); `ugc` and `sponsored`
 * are Google's 2019 refinements of it ("Evolving nofollow": user-generated and paid links), which
 * the site means the same way, so a crawl that obeys one obeys all three.
 */
export const NOFOLLOW_REL_TOKENS: readonly string[] = ['nofollow', 'ugc', 'sponsored'];

/** Each link rule in plain words, as a sentence fragment: "refused: <label>". */
export const LINK_RULE_LABELS: Readonly<Record<LinkRuleName, string>> = {
  'invalid-url': 'not a valid URL',
  protocol: 'not an http or https link',
  'url-length': 'URL too long',
  'query-string': 'has a query string (query strings are not followed)',
  'ignored-extension': 'file type on the ignored extensions list',
  'list-mode': 'list mode (only the listed URLs are fetched)',
  nofollow: 'the page says nofollow',
  'link-nofollow': 'the link says rel="nofollow" (or ugc, sponsored)',
  scope: 'outside the crawl scope',
  'include-domains': 'domain not on the include list',
  'exclude-domains': 'domain on the exclude list',
  'include-pattern': 'URL matches no include pattern',
  'exclude-pattern': 'URL matches an exclude pattern',
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
