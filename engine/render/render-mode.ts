/**
 * Whether a fetched page is rendered in Chromium (issue 14 part 3): the `auto` heuristic, a pure
 * function of the page's static HTML and the word count the static parse found.
 */
import type { RenderMode } from '../../shared/types/crawl';
import { isHtml } from '../parse/page-processor';

/** Fewer visible words than this (the static parse's count) is "too little text" for `auto`. */
export const AUTO_RENDER_MIN_WORDS = 50;

import type { RenderReason } from '../../shared/types/render';

export type { RenderReason };

/** The HTML scanned for the heuristic's markers at most (its start: where app roots and noscript notes live in practice). */
const SCAN_CHARS = 512 * 1024;

/** A `<script>` tag's type that marks a data block, not code (JSON-LD, JSON, templates, import maps). */
const DATA_SCRIPT_TYPE = /\btype\s*=\s*["']?(?:application\/(?:ld\+)?json|text\/template|text\/x-template|importmap|speculationrules)\b/i;
/** An app mount point's id attribute. */
const APP_ROOT_ID = /\bid\s*=\s*["']?(?:root|app|__next|__nuxt|svelte|main-app)(?=["'\s>/])/gi;
/** Tags looked at per marker, at most (a hostile page may repeat them). */
const MAX_TAGS = 200;

/**
 * True when `lower` (lower-cased HTML) has a runnable `<script>`: any but data blocks
 * ({@link DATA_SCRIPT_TYPE}). A linear scan: each tag is read up to its `>` (1,000 characters at most).
 */
function hasRunnableScript(lower: string): boolean {
  let from = 0;
  for (let seen = 0; seen < MAX_TAGS; seen += 1) {
    const start = lower.indexOf('<script', from);
    if (start < 0) return false;
    const end = lower.indexOf('>', start);
    const tag = lower.slice(start, end < 0 ? start + 1000 : Math.min(end, start + 1000));
    if (!DATA_SCRIPT_TYPE.test(tag)) return true;
    from = start + 7;
  }
  return false;
}

/**
 * True when `lower` has an empty app mount point: a `<div>`, `<main>` or `<section>` whose id is
 * root, app, __next, __nuxt, svelte or main-app and whose content is only white space, or an empty
 * `<app-root>`. Linear: each id found is checked by index lookups.
 */
function hasEmptyAppRoot(lower: string): boolean {
  const angular = lower.indexOf('<app-root');
  if (angular >= 0) {
    const end = lower.indexOf('>', angular);
    if (end >= 0 && lower.slice(end + 1, end + 1 + 200).trimStart().startsWith('</app-root')) return true;
  }
  APP_ROOT_ID.lastIndex = 0;
  for (let seen = 0; seen < MAX_TAGS; seen += 1) {
    const match = APP_ROOT_ID.exec(lower);
    if (match === null) return false;
    const tagStart = lower.lastIndexOf('<', match.index);
    const tagEnd = lower.indexOf('>', match.index);
    if (tagStart < 0 || tagEnd < 0 || lower.lastIndexOf('>', match.index) > tagStart) continue;
    const name = /^<(div|main|section)[\s/]/.exec(lower.slice(tagStart, tagStart + 9));
    if (name === null) continue;
    if (lower.slice(tagEnd + 1, tagEnd + 1 + 200).trimStart().startsWith(`</${name[1]!}`)) return true;
  }
  return false;
}

/** Words of a `<noscript>` text that ask for JavaScript ("enable JavaScript", "requires JavaScript", "JavaScript is disabled"). */
const ASKS_FOR_JAVASCRIPT = /\b(?:enable|activate|require[sd]?|needs?|needed|turn(?:ed)? on|switch on|disabled)\b/i;
/** `<noscript>` elements looked at, at most (each up to 1,000 characters of content). */
const MAX_NOSCRIPTS = 20;

/**
 * True when a `<noscript>` of `lower` (lower-cased HTML) asks for JavaScript: its text (markup dropped, first 1,000
 * characters) names JavaScript and one of {@link ASKS_FOR_JAVASCRIPT}. A linear scan, no backtracking.
 */
function noscriptAsks(lower: string): boolean {
  let from = 0;
  for (let seen = 0; seen < MAX_NOSCRIPTS; seen += 1) {
    const start = lower.indexOf('<noscript', from);
    if (start < 0) return false;
    const open = lower.indexOf('>', start);
    if (open < 0) return false;
    const close = lower.indexOf('</noscript', open);
    const end = Math.min(close < 0 ? lower.length : close, open + 1 + 1000);
    const text = lower.slice(open + 1, end).replace(/<[^>]*>/g, ' ');
    if (text.includes('javascript') && ASKS_FOR_JAVASCRIPT.test(text)) return true;
    from = end;
  }
  return false;
}

/** `document.write(` inside the page's inline scripts. */
const DOCUMENT_WRITE = /document\.write(?:ln)?\s*\(/;

/**
 * Whether to render a page, and why. Only a 2xx HTML answer that is not a redirect is ever
 * rendered (the caller checks that). `off` never renders, `always` always does; `auto` renders
 * when the static HTML has a runnable `<script>` (JSON-LD and other data blocks do not count) AND
 * one of, checked in this order:
 * - `app-root`: an empty app mount point (`<div id="root"></div>`, `id="app"`, `id="__next"`,
 *   `id="__nuxt"`, `id="svelte"`, `<app-root></app-root>`);
 * - `noscript`: a `<noscript>` asking to enable JavaScript;
 * - `document-write`: an inline script calling `document.write(`;
 * - `little-text`: fewer than {@link AUTO_RENDER_MIN_WORDS} words of visible text.
 * A page without scripts is never rendered by `auto`: nothing could change its DOM.
 * Only the first 512 KiB of the HTML are scanned for the markers, by linear scans (no
 * backtracking regular expression over the page: a hostile page cannot make it slow).
 * @param html the page's HTML as text (any decoding that keeps ASCII: the markers are ASCII)
 * @param wordCount words of visible text the static parse found (PageResult.wordCount; null counts as 0)
 * @returns the reason to render, or null not to render
 * @example renderReason('auto', '<div id="app"></div><script src="/app.js"></script>', 0) → 'app-root'
 * @example renderReason('auto', '<p>…300 words…</p>', 300) → null
 */
export function renderReason(mode: RenderMode, html: string, wordCount: number | null): RenderReason | null {
  if (mode === 'off') return null;
  if (mode === 'always') return 'always';
  const scanned = (html.length > SCAN_CHARS ? html.slice(0, SCAN_CHARS) : html).toLowerCase();
  if (!hasRunnableScript(scanned)) return null;
  if (hasEmptyAppRoot(scanned)) return 'app-root';
  if (noscriptAsks(scanned)) return 'noscript';
  if (DOCUMENT_WRITE.test(scanned)) return 'document-write';
  if ((wordCount ?? 0) < AUTO_RENDER_MIN_WORDS) return 'little-text';
  return null;
}

/**
 * Whether a fetched answer may be rendered at all: a 2xx that is not a redirect, with a body the
 * static parser reads as HTML (engine/parse/page-processor.ts isHtml: text/html or
 * application/xhtml+xml, or no type and an `<html` start).
 */
export function renderable(answer: { status: number; redirect: unknown; contentType: string | undefined; body: Uint8Array }): boolean {
  if (answer.status < 200 || answer.status >= 300 || answer.redirect !== null || answer.body.length === 0) return false;
  return isHtml(answer.contentType, answer.body);
}
