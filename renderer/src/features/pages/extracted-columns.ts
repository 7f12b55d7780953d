/**
 * The Pages table's extracted columns (issue 14 part 2): one per custom extractor of the open
 * crawl (its settings' `extractors`, in their order), showing each page's value compactly. They
 * are not sortable: the values live in one JSON object per page (page_extractions), with no index
 * to walk in their order.
 */
import type { CrawlSettings } from '../../../../shared/types/crawl';
import type { ExtractedValue } from '../../../../shared/types/extraction';

/** Key of an extracted column in the table (apart from the contract's column ids). */
export const extractedColumnKey = (name: string): string => `extracted:${name}`;

/** Between the values of an `all` extractor in one cell. */
export const VALUE_SEPARATOR = ' · ';

/** The extractor names of a crawl's settings, in order (none for a crawl without settings yet). */
export function extractorNames(settings: Pick<CrawlSettings, 'extractors'> | null | undefined): string[] {
  return (settings?.extractors ?? []).map((extractor) => extractor.name);
}

/**
 * One extracted value as a cell's text: a string as is, the strings of `all` joined, a count as
 * its number; nothing found (null, an empty list) or not extracted (undefined) is empty.
 * @example extractedText(['30.00', '35.00']) → '30.00 · 35.00'
 * @example extractedText(3) → '3'
 */
export function extractedText(value: ExtractedValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(VALUE_SEPARATOR);
  return String(value);
}
