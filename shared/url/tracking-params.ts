/**
 * Does a raw URL carry a tracking or session parameter? The lists are the normalization profile's
 * own (profiles.ts DEFAULT_REMOVED_QUERY_PARAMS: `utm_*`, `gclid`, `sessionid`, `jsessionid`, …),
 * and the test is the `removeQueryParams` rule itself (rules.ts): a URL carries one exactly when
 * that rule would change it (a listed query variable, or a listed `;name=value` path parameter).
 * One source of truth for what "a tracking or session parameter" is.
 */
import { parseUrlParts, parseUrlPartsFast } from './parse';
import { compileRuleContext, PROFILES, type NormalizationProfile } from './profiles';
import { RULE_FUNCTIONS, type RuleContext } from './rules';

const contexts = new WeakMap<NormalizationProfile, RuleContext>();

/**
 * True when `rawUrl` has a query variable or last-segment path parameter that the profile's
 * `removeQueryParams` list names (whether or not the profile's rule is switched on). A string that
 * is not a URL carries none.
 * @default profile PROFILES.standard
 * @example carriesSessionOrTracking('http://a.test/p?id=3&utm_source=mail') → true
 * @example carriesSessionOrTracking('http://a.test/item;jsessionid=AB12') → true
 * @example carriesSessionOrTracking('http://a.test/p?id=3') → false
 */
export function carriesSessionOrTracking(rawUrl: string, profile: NormalizationProfile = PROFILES.standard): boolean {
  let context = contexts.get(profile);
  if (context === undefined) {
    context = compileRuleContext(profile);
    contexts.set(profile, context);
  }
  if (!rawUrl.includes('?') && !rawUrl.includes(';')) return false;
  let parts = parseUrlPartsFast(rawUrl);
  if (parts === null) {
    const parsed = parseUrlParts(rawUrl);
    if (!parsed.ok) return false;
    parts = parsed.value;
  }
  return RULE_FUNCTIONS.removeQueryParams(parts, context);
}
