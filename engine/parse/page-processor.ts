/** Turns a fetched response into a page result: decode, parse, resolve links, content fingerprints (runs in the crawl worker). */
import type { ExtractedValue } from '../../shared/types/extraction';
import { createHash } from 'node:crypto';
import { decodeHtml } from './charset';
import { textSketchUtf8 } from '../dedupe/shingles';
import type { FetchedResponse } from '../fetch/fetcher';
import { STORED_RAW_URL_CHARS } from '../links/link-rules';
import { parseLinkHeader } from '../../shared/url/link-header';
import { LANG_MAX_CHARS, parseHtml } from './parse-html';
import { basePrefix, resolvePlainHref } from './plain-href';
import type { DiscoveredLink, PageResult } from '../worker/protocol';

/** Non-HTTP links are passed on for counting only, cut to this length. */
const MAX_OTHER_SCHEME_CHARS = 256;

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** Characters of the merged robots directives kept. */
export const ROBOTS_DIRECTIVES_MAX_CHARS = 512;

/**
 * `href` resolved against `base` as an absolute http(s) URL without fragment, at most
 * STORED_RAW_URL_CHARS; null when it does not resolve or names another scheme.
 * @example canonicalTarget('/b#top', 'http://a.test/x/') → 'http://a.test/b'
 */
export function canonicalTarget(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href.slice(0, STORED_RAW_URL_CHARS);
}

/**
 * Directives of an X-Robots-Tag header (comma-separated; repeats already joined with ", "), lower
 * case, whitespace collapsed. A user-agent prefix stays on its directive (`googlebot: noindex`).
 * @example headerDirectives('NoIndex,  googlebot:  nofollow') → ['noindex', 'googlebot: nofollow']
 */
export function headerDirectives(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .slice(0, 4 * ROBOTS_DIRECTIVES_MAX_CHARS)
    .toLowerCase()
    .split(',')
    .map((directive) => directive.replace(/\s+/g, ' ').replace(/\s*:\s*/, ': ').trim())
    .filter((directive) => directive !== '');
}

/** Meta and header directives as one string: repeats dropped, ", "-separated, capped; null when none. */
function mergeDirectives(meta: readonly string[], header: readonly string[]): string | null {
  const merged = [...new Set([...meta, ...header])].join(', ');
  return merged === '' ? null : merged.slice(0, ROBOTS_DIRECTIVES_MAX_CHARS);
}

/** The canonical target a `Link` header names (RFC 8288 §3, resolved against the URL fetched), or null. */
function headerCanonical(linkHeader: string | undefined, finalUrl: string): string | null {
  if (linkHeader === undefined) return null;
  const link = parseLinkHeader(linkHeader.slice(0, 64 * 1024)).find((candidate) => candidate.rels.includes('canonical'));
  return link === undefined ? null : canonicalTarget(link.target, finalUrl);
}

/** Content-Language, trimmed and capped; null when absent or empty. */
function headerLang(value: string | undefined): string | null {
  const lang = (value ?? '').trim().slice(0, LANG_MAX_CHARS);
  return lang === '' ? null : lang;
}

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
  const sketch = textSketchUtf8(text, excerptChars);
  if (sketch === null) return null;
  return {
    // SHA-256 of the normalized text's UTF-8 (as update(string) would encode it), read before any other text is sketched.
    fingerprint: createHash('sha256').update(sketch.normalizedUtf8).digest('hex'),
    minhash: sketch.minhash,
    words: sketch.words,
    textChars: sketch.normalizedChars,
    excerpt: sketch.prefix,
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
  /** The crawl's extractors (engine/extract), run on an HTML page's decoded source; absent when it has none. */
  extract?: (html: string) => Record<string, ExtractedValue>;
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
    responseHeadersJson: response.responseHeadersJson,
    title: null,
    metaDescription: null,
    h1: null,
    // Headers speak for any answer (a PDF names its canonical and X-Robots-Tag only there).
    canonicalUrl: headerCanonical(response.headers['link'], response.finalUrl),
    robotsDirectives: mergeDirectives([], headerDirectives(response.headers['x-robots-tag'])),
    wordCount: null,
    lang: headerLang(response.headers['content-language']),
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
  const prefix = basePrefix(baseUrl);
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
    // Most hrefs are plain (root-relative or absolute in characters kept as written): no parser needed.
    let href = resolvePlainHref(link.href, prefix);
    let web = true;
    if (href === null) {
      let url: URL;
      try {
        url = new URL(link.href, baseUrl);
      } catch {
        unresolvable += 1;
        continue;
      }
      // Other schemes (mailto:, javascript:, data:) go on to the link rules, which count them under
      // "protocol"; long data: URLs are cut, the rules only need their scheme.
      web = url.protocol === 'http:' || url.protocol === 'https:';
      href = web ? url.href : url.href.slice(0, MAX_OTHER_SCHEME_CHARS);
    }
    if (web && href.length > maxUrlLength) {
      tooLong(href, link.kind);
      continue;
    }
    const key = link.kind === 'a' ? href : `${link.kind} ${href}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const discovered: DiscoveredLink = { url: href, kind: link.kind };
    if (link.anchorText !== undefined) discovered.anchorText = link.anchorText;
    if (link.rel !== undefined) discovered.rel = link.rel;
    links.push(discovered);
  }
  const content = fingerprintText(parsed.text, options.excerptChars ?? 0);
  return {
    ...base,
    content,
    title: parsed.title,
    metaDescription: parsed.metaDescription,
    h1: parsed.h1,
    // The page's own <link rel=canonical> first; the header when the page names none.
    canonicalUrl: (parsed.canonicalHref === null ? null : canonicalTarget(parsed.canonicalHref, baseUrl)) ?? base.canonicalUrl,
    robotsDirectives: mergeDirectives(parsed.robotsDirectives, headerDirectives(response.headers['x-robots-tag'])),
    wordCount: content?.words ?? 0,
    lang: parsed.lang ?? base.lang,
    links,
    unresolvableLinks: unresolvable,
    linksOverCap: parsed.linksOverCap,
    nofollow: parsed.metaRobots.nofollow || /\b(nofollow|none)\b/.test(robotsHeader),
    noindex: parsed.metaRobots.noindex || /\b(noindex|none)\b/.test(robotsHeader),
    ...(options.extract ? { extracted: options.extract(text) } : {}),
  };
}
