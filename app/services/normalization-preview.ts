import type { ReadableDB } from '../../engine';
import type { NormalizationPreview } from '../../shared/ipc/views';
import { createNormalizer } from '../../shared/url/normalize';
import type { NormalizationProfile } from '../../shared/url/profiles';

/** URLs examined at most per preview: the work runs on main's thread beside the crawl. */
export const PREVIEW_LIMIT = 50_000;

/** Examples kept per kind (changed keys, merges, splits): enough to judge a profile, small to send. */
export const PREVIEW_EXAMPLES = 20;

/** Normalized URLs listed per merge or split example (the example's `count` has them all). */
const NAMES_PER_EXAMPLE = 5;

/**
 * What switching the open crawl to `profile` would do (the Settings view's preview): how many of
 * its URLs would get another normalized key, how many new keys would merge raw URLs now under
 * different keys, and how many current keys would split, each with up to {@link PREVIEW_EXAMPLES}
 * before → after examples in normalized URLs (oldest URLs first). Reads the crawl's URLs and their
 * raw spellings (url_aliases); at most `limit` URLs, oldest first (`sampled` says when cut).
 * @example previewNormalization(db, 1, PROFILES.aggressive).changedExamples[0] → { url: 'http://www.a.test/doc.html', before: 'http://www.a.test/doc.html', after: 'http://a.test/doc' }
 */
export function previewNormalization(db: ReadableDB, crawlId: number, profile: NormalizationProfile, limit = PREVIEW_LIMIT): NormalizationPreview {
  const normalize = createNormalizer(profile);
  const urls = db
    .prepare(`SELECT id, url, normalized, normalized_key AS key FROM urls WHERE +crawl_id = ? ORDER BY id LIMIT ?`)
    .all(crawlId, limit + 1) as { id: number; url: string; normalized: string; key: string }[];
  const sampled = urls.length > limit;
  if (sampled) urls.pop();
  const aliases = db.prepare(`SELECT raw_url FROM url_aliases WHERE url_id = ?`).pluck();
  let changedKeys = 0;
  const changedExamples: NormalizationPreview['changedExamples'] = [];
  /** new key → its normalized URL, and the current keys whose spellings land there with their normalized URLs */
  const sources = new Map<string, { after: string; current: Map<string, string> }>();
  let splitGroups = 0;
  const splitExamples: NormalizationPreview['splitExamples'] = [];
  for (const url of urls) {
    const own = normalize(url.url);
    if (own.ok && own.value.key !== url.key) {
      changedKeys += 1;
      if (changedExamples.length < PREVIEW_EXAMPLES) changedExamples.push({ url: url.url, before: url.normalized, after: own.value.normalized });
    }
    const spellings = new Set<string>([url.url, ...(aliases.all(url.id) as string[])]);
    /** new key → new normalized URL, for this URL's spellings */
    const newKeys = new Map<string, string>();
    for (const raw of spellings) {
      const result = normalize(raw);
      if (!result.ok) continue;
      newKeys.set(result.value.key, result.value.normalized);
      let source = sources.get(result.value.key);
      if (!source) sources.set(result.value.key, (source = { after: result.value.normalized, current: new Map() }));
      source.current.set(url.key, url.normalized);
    }
    if (newKeys.size > 1) {
      splitGroups += 1;
      if (splitExamples.length < PREVIEW_EXAMPLES) splitExamples.push({ before: url.normalized, after: [...newKeys.values()].slice(0, NAMES_PER_EXAMPLE), count: newKeys.size });
    }
  }
  let mergedGroups = 0;
  const mergedExamples: NormalizationPreview['mergedExamples'] = [];
  for (const { after, current } of sources.values()) {
    if (current.size < 2) continue;
    mergedGroups += 1;
    if (mergedExamples.length < PREVIEW_EXAMPLES) mergedExamples.push({ after, before: [...current.values()].slice(0, NAMES_PER_EXAMPLE), count: current.size });
  }
  return { examined: urls.length, sampled, changedKeys, mergedGroups, splitGroups, changedExamples, mergedExamples, splitExamples };
}
