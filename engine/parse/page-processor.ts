/** Turns a fetched response into a page result: decode, parse, resolve links, content fingerprints (runs in the crawl worker). */
import { createHash } from 'node:crypto';
import { decodeHtml } from './charset';
import { textSketch } from '../dedupe/shingles';
import type { FetchedResponse } from '../fetch/fetcher';
import { STORED_RAW_URL_CHARS } from '../links/link-rules';
import { parseHtml } from './parse-html';
import type { DiscoveredLink, PageResult } from '../worker/protocol';

/** Non-HTTP links are passed on for counting only, cut to this length. */
const MAX_OTHER_SCHEME_CHARS = 256;

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** True when a response should be parsed as HTML (by Content-Type; none given → sniff for `<html`). */
export function isHtml(contentType: string | undefined, body: Uint8Array): boolean {
  if (contentType) return HTML_TYPES.test(contentType.trim());
  const head = Buffer.from(body.subarray(0, 512)).toString('latin1').toLowerCase();
  return head.includes('<html') || head.includes('<!doctype html');
}

/**
 * Fingerprint and MinHash sketch of a page's visible text, and its first `excerptChars` normalized
 * characters; null when it has no words.
 */
export function fingerprintText(text: string, excerptChars = 0): PageResult['content'] {
  const sketch = textSketch(text);
  if (sketch === null) return null;
  return {
    fingerprint: createHash('sha256').update(sketch.normalized).digest('hex'),
    minhash: sketch.minhash,
    words: sketch.words,
    textChars: sketch.normalized.length,
    excerpt: excerptChars > 0 ? sketch.normalized.slice(0, excerptChars) : '',
  };
}

/** Options of {@link processFetch}. */
export interface ProcessOptions {
  /** Characters of the page's normalized text kept as its excerpt. @default 0 */
  excerptChars?: number;
  /**
   * Longest URL followed, in characters (CrawlSettings.maxUrlLength; the `url-length` link rule).
   * An href longer than this as written, or resolving to a longer URL, is refused here before any
   * other work and sent on cut to STORED_RAW_URL_CHARS with `tooLong`. @default Infinity
   */
  maxUrlLength?: number;
}

/**
 * Turns a fetched response into a {@link PageResult}: HTML is decoded (header charset, then meta
 * charset) and parsed; links are resolved against `<base href>` or the final URL with WHATWG URL
 * semantics (seed 001's raw URL: `new URL(href, document.baseURI)`); non-HTML and 3xx answers
 * (redirects, or a 300/304 without one) are recorded unparsed. Links too long to follow are never
 * resolved nor kept whole (see ProcessOptions.maxUrlLength), so a page of 60 KB hrefs posts
 * kilobytes, not megabytes, to the scheduler.
 */
export function processFetch(response: FetchedResponse, options: ProcessOptions = {}): PageResult {
  const maxUrlLength = options.maxUrlLength ?? Infinity;
  const base: PageResult = {
    finalUrl: response.finalUrl,
    status: response.status,
    contentType: response.contentType ?? null,
    bodyBytes: response.body.length,
    truncated: response.truncated,
    fetchMs: response.fetchMs,
    redirect: response.redirect,
    title: null,
    links: [],
    unresolvableLinks: 0,
    linksOverCap: 0,
    nofollow: false,
    noindex: false,
    retryAfter: response.headers['retry-after'] ?? null,
    content: null,
  };
  // A 3xx body is not the page (RFC 9110 §15.4), redirect or not: no links, no text, no fingerprint.
  const is3xx = response.status >= 300 && response.status < 400;
  if (response.redirect !== null || is3xx || !isHtml(response.contentType, response.body)) return base;

  const { text } = decodeHtml(response.contentType, response.body);
  const parsed = parseHtml(text);
  const robotsHeader = (response.headers['x-robots-tag'] ?? '').toLowerCase();
  let baseUrl = response.finalUrl;
  if (parsed.baseHref) {
    try {
      baseUrl = new URL(parsed.baseHref, response.finalUrl).href;
    } catch {
      // An unusable <base href> is ignored, as browsers do.
    }
  }
  const links: DiscoveredLink[] = [];
  // The same href of the same kind twice on a page is one link (navigation repeats itself);
  // dropping repeats here saves the message and the writer thread work, and loses nothing.
  const seen = new Set<string>();
  const hrefsSeen = new Set<string>();
  let unresolvable = 0;
  // A too-long link is known by its first STORED_RAW_URL_CHARS characters (what is stored of it).
  const tooLong = (raw: string, kind: DiscoveredLink['kind']): void => {
    const cut = raw.slice(0, STORED_RAW_URL_CHARS);
    const key = `${kind} ${cut} too long`;
    if (seen.has(key)) return;
    seen.add(key);
    links.push({ url: cut, kind, tooLong: true });
  };
  for (const link of parsed.links) {
    // Refused by length before any other work: a 60 KB href is neither resolved nor kept whole.
    if (link.href.length > maxUrlLength) {
      tooLong(link.href, link.kind);
      continue;
    }
    // One href resolves to one URL on a page: resolve each (kind, href) once.
    const written = link.kind === 'a' ? link.href : `${link.kind} ${link.href}`;
    if (hrefsSeen.has(written)) continue;
    hrefsSeen.add(written);
    let url: URL;
    try {
      url = new URL(link.href, baseUrl);
    } catch {
      unresolvable += 1;
      continue;
    }
    // Other schemes (mailto:, javascript:, data:) go on to the link rules, which count them under
    // "protocol"; long data: URLs are cut, the rules only need their scheme.
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    const href = web ? url.href : url.href.slice(0, MAX_OTHER_SCHEME_CHARS);
    if (web && href.length > maxUrlLength) {
      tooLong(href, link.kind);
      continue;
    }
    const key = link.kind === 'a' ? href : `${link.kind} ${href}`;
    if (seen.has(key)) continue;
    seen.add(key);
    links.push({ url: href, kind: link.kind });
  }
  return {
    ...base,
    content: fingerprintText(parsed.text, options.excerptChars ?? 0),
    title: parsed.title,
    links,
    unresolvableLinks: unresolvable,
    linksOverCap: parsed.linksOverCap,
    nofollow: parsed.metaRobots.nofollow || /\b(nofollow|none)\b/.test(robotsHeader),
    noindex: parsed.metaRobots.noindex || /\b(noindex|none)\b/.test(robotsHeader),
  };
}
