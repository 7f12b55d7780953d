/** Seed validation: what a crawl may start from (seed document 001: absolute http(s) URLs). */
import { CodedError } from '../../shared/types/result';

/**
 * Validates seed URLs: absolute http(s) URLs, at most 8192 characters; the fragment is dropped.
 * @returns the seeds as absolute URLs (WHATWG `href`), in order
 * @throws CodedError INVALID_SEED naming the first bad seed
 * @example validateSeeds([' https://example.com/a#top']) → ['https://example.com/a']
 */
export function validateSeeds(seeds: readonly string[]): string[] {
  if (seeds.length === 0) throw new CodedError('INVALID_SEED', 'At least one seed URL is needed');
  return seeds.map((seed) => {
    let url: URL;
    try {
      url = new URL(seed.trim());
    } catch {
      throw new CodedError('INVALID_SEED', `Seed "${seed}" is not an absolute URL (expected e.g. https://example.com/)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CodedError('INVALID_SEED', `Seed "${seed}" is not an http(s) URL`);
    url.hash = '';
    return url.href;
  });
}
