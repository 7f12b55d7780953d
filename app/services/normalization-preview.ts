import type { ReadableDB } from '../../engine';
import type { NormalizationPreview } from '../../shared/ipc/views';
import { createNormalizer } from '../../shared/url/normalize';
import type { NormalizationProfile } from '../../shared/url/profiles';

/** URLs examined at most per preview: the work runs on main's thread beside the crawl. */
export const PREVIEW_LIMIT = 50_000;

/**
 * What switching the open crawl to `profile` would do (the Settings view's preview): how many of
 * its URLs would get another normalized key, how many new keys would merge raw URLs now under
 * different keys, and how many current keys would split. Reads the crawl's URLs and their raw
 * spellings (url_aliases); at most `limit` URLs, oldest first (`sampled` says when cut).
 */
export function previewNormalization(db: ReadableDB, crawlId: number, profile: NormalizationProfile, limit = PREVIEW_LIMIT): NormalizationPreview {
  const normalize = createNormalizer(profile);
  const urls = db.prepare(`SELECT id, url, normalized_key AS key FROM urls WHERE +crawl_id = ? ORDER BY id LIMIT ?`).all(crawlId, limit + 1) as { id: number; url: string; key: string }[];
  const sampled = urls.length > limit;
  if (sampled) urls.pop();
  const aliases = db.prepare(`SELECT raw_url FROM url_aliases WHERE url_id = ?`).pluck();
  let changedKeys = 0;
  /** new key → current keys whose spellings land there */
  const sources = new Map<string, Set<string>>();
  let splitGroups = 0;
  for (const url of urls) {
    const own = normalize(url.url);
    if (own.ok && own.value.key !== url.key) changedKeys += 1;
    const spellings = new Set<string>([url.url, ...(aliases.all(url.id) as string[])]);
    const newKeys = new Set<string>();
    for (const raw of spellings) {
      const result = normalize(raw);
      if (!result.ok) continue;
      newKeys.add(result.value.key);
      let set = sources.get(result.value.key);
      if (!set) sources.set(result.value.key, (set = new Set()));
      set.add(url.key);
    }
    if (newKeys.size > 1) splitGroups += 1;
  }
  let mergedGroups = 0;
  for (const set of sources.values()) if (set.size > 1) mergedGroups += 1;
  return { examined: urls.length, sampled, changedKeys, mergedGroups, splitGroups };
}
