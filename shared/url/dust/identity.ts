/** A crawl's normalizer with its accepted DUST rules in front (issue 12 part 6). */
import type { Result } from '../result';
import { applyDustRules, type DustRule } from './rule';

/**
 * Puts accepted DUST rules in front of a normalizer: a raw URL is rewritten by the rules (in
 * acceptance order), then normalized under the crawl's profile; the URL fetched stays the raw one.
 * With no rules the normalizer is returned as it is (no cost on the crawler's hot path).
 * @example withDustRules(createNormalizer(PROFILES.standard), [storyRule])('http://n.test/story?id=7') → ok({ normalized: 'http://n.test/story_7.html', key: '…' })
 */
export function withDustRules<T>(normalize: (raw: string) => Result<T>, rules: readonly DustRule[]): (raw: string) => Result<T> {
  if (rules.length === 0) return normalize;
  return (raw) => normalize(applyDustRules(raw, rules));
}
