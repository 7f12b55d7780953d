import { createHash } from 'node:crypto';
import { decodeHtml } from './charset';
import { textSketch } from './shingles';
import type { FetchedResponse } from './fetcher';
import { parseHtml } from './parse-html';
import type { DiscoveredLink, PageResult } from './protocol';

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

/**
 * Turns a fetched response into a {@link PageResult}: HTML is decoded (header charset, then meta
 * charset) and parsed; links are resolved against `<base href>` or the final URL with WHATWG URL
 * semantics (seed 001's raw URL: `new URL(href, document.baseURI)`); non-HTML and 3xx answers
 * (redirects, or a 300/304 without one) are recorded unparsed.
 */
export function processFetch(response: FetchedResponse, options: { excerptChars?: number } = {}): PageResult {
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
  for (const link of parsed.links) {
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
    const href = url.protocol === 'http:' || url.protocol === 'https:' ? url.href : url.href.slice(0, MAX_OTHER_SCHEME_CHARS);
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
    nofollow: parsed.metaRobots.nofollow || /\b(nofollow|none)\b/.test(robotsHeader),
    noindex: parsed.metaRobots.noindex || /\b(noindex|none)\b/.test(robotsHeader),
  };
}
