/**
 * What the workbench calls each name of a URL (seed 001), in every table, panel and CSV header:
 * the normalized URL is the string the normalization profile makes of a raw URL
 * (`http://example.com/document`); the normalized key is that string's UUIDv5
 * (`fa103210-7417-5691-af80-774fb1f134e0`, shared/url/key.ts), the URL-seen test's identity.
 * One map, so a table never calls the UUID by the string's name or the other way round.
 */
export const URL_NAME_LABELS = {
  url: 'URL',
  rawUrl: 'Raw URL',
  normalized: 'Normalized URL',
  normalizedKey: 'Normalized key',
  canonical: 'Canonical URL',
} as const;
