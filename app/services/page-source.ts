/**
 * The inspector's source view (issue 14 part 1): a URL's stored body, decompressed and decoded
 * for display (at most SOURCE_VIEW_MAX_BYTES), or why none is kept.
 */
import { bodyBytes, decodeHtml, type InspectorQueries } from '../../engine';
import { SOURCE_VIEW_MAX_BYTES, type PageSource } from '../../shared/ipc/inspector-view';
import type { CrawlSettings } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';

/** Media types shown as text besides text/*: markup, data and script formats (RFC 6838 +xml/+json suffixes included). */
const TEXT_MEDIA = /^(text\/|application\/([\w.+-]*\+)?(xml|json|javascript|ecmascript|xhtml\+xml|x-www-form-urlencoded)\b|image\/svg\+xml)/i;

/**
 * Whether a body is shown as text: by its Content-Type, or (none sent) when its first kilobyte
 * holds no NUL byte.
 */
export function isTextBody(contentType: string | null, bytes: Uint8Array): boolean {
  if (contentType !== null && contentType.trim() !== '') return TEXT_MEDIA.test(contentType.trim());
  return !bytes.subarray(0, 1024).includes(0);
}

/**
 * The stored body of URL `urlId` for the source view.
 * @param settings the crawl's settings (to say why a body is missing)
 * @throws CodedError URL_NOT_FOUND; BODY_UNREADABLE when the stored bytes do not decompress
 */
export function pageSource(queries: InspectorQueries, crawlId: number, urlId: number, settings: Pick<CrawlSettings, 'storeBodies'>): PageSource {
  const record = queries.url(crawlId, urlId);
  if (!record) throw new CodedError('URL_NOT_FOUND', `Crawl ${crawlId} has no URL ${urlId}`);
  const page = queries.page(urlId);
  const stored = page ? queries.storedBody(urlId) : undefined;
  if (!page || !stored) return { stored: false, reason: missingReason(page, settings) };
  let bytes: Buffer;
  try {
    bytes = bodyBytes(stored.encoding, stored.body);
  } catch (error) {
    throw new CodedError('BODY_UNREADABLE', `The stored body of ${record.url} cannot be read (${error instanceof Error ? error.message : String(error)}); re-fetch the URL to store it again`);
  }
  const common = { contentType: page.contentType, rawBytes: stored.rawBytes, storedBytes: stored.body.length, truncated: stored.truncated, payloadDigest: stored.payloadDigest };
  if (!isTextBody(page.contentType, bytes)) return { stored: true, ...common, charset: null, text: '', shownBytes: 0, binary: true };
  const shown = bytes.subarray(0, SOURCE_VIEW_MAX_BYTES);
  const decoded = decodeHtml(page.contentType ?? undefined, shown);
  return { stored: true, ...common, charset: decoded.charset, text: decoded.text, shownBytes: shown.length, binary: false };
}

function missingReason(page: { location: string | null; bodyBytes: number } | undefined, settings: Pick<CrawlSettings, 'storeBodies'>): string {
  if (!page) return 'Not fetched yet: there is no answer to show.';
  if (page.location !== null) return 'A redirect: its body is not kept (the crawl follows the Location instead).';
  if (page.bodyBytes === 0) return 'The answer had an empty body.';
  if (!settings.storeBodies) return 'This crawl does not keep bodies (the "Keep page bodies" setting, --no-store-bodies).';
  return 'Not kept: the crawl reached its cap on kept bodies (maxStoredBodiesBytes), or the page was fetched before bodies were kept.';
}
