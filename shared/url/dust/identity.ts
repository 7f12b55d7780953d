/** A crawl's normalizer: its accepted DUST rules in front of its normalization profile (issue 12 part 6). */
import { createNormalizer, type NormalizedUrl } from '../normalize';
import type { NormalizationProfile } from '../profiles';
import type { Result } from '../result';
import { applyDustRules, type DustRule } from './rule';

/**
 * The one way a crawl keys its URLs (the crawler's URL-seen test, the re-key of an accepted rule,
 * the inspector's lookup): a raw URL is rewritten by the accepted DUST rules (in acceptance order),
 * then normalized under the crawl's profile; the URL fetched stays the raw one. With no rules it is
 * the profile's normalizer as it is (no cost on the crawler's hot path).
 * @example createCrawlNormalizer(PROFILES.standard, [storyRule])('http://n.test/story?id=7') → ok({ normalized: 'http://n.test/story_7.html', key: '…' })
 */
export function createCrawlNormalizer(profile: NormalizationProfile, rules: readonly DustRule[]): (raw: string) => Result<NormalizedUrl> {
  const normalize = createNormalizer(profile);
  if (rules.length === 0) return normalize;
  return (raw) => normalize(applyDustRules(raw, rules));
}
