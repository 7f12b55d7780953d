/** The HTML scanner: links (with anchor text and rel), title, first H1, meta description and robots, canonical, lang and base href from htmlparser2's Tokenizer, with the visible text for fingerprints. */
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import type { QuoteType, TokenizerCallbacks } from 'htmlparser2';
import { SkippingTokenizer } from './skipping-tokenizer';

import type { LinkKind } from '../worker/protocol';

/** A link as written in the page, before resolution against the base URL. */
export interface ExtractedLink {
  href: string;
  kind: LinkKind;
  /**
   * The link's text: an `<a>`'s text with the alt of images inside it, an `<area>`'s alt;
   * whitespace collapsed, at most ANCHOR_TEXT_MAX_CHARS. Absent when empty or the element has none.
   */
  anchorText?: string;
  /** `rel` tokens, lower case, single-space separated, at most REL_MAX_CHARS; absent when none. */
  rel?: string;
}

/** Characters of a link's anchor text kept. */
export const ANCHOR_TEXT_MAX_CHARS = 200;
/** Characters of a link's rel tokens kept. */
export const REL_MAX_CHARS = 128;
/** Characters of the first H1's text kept. */
export const H1_MAX_CHARS = 1024;
/** Characters of the meta description kept (a hostile page may send megabytes). */
export const META_DESCRIPTION_MAX_CHARS = 2048;
/** Characters of the `<html lang>` value kept (a BCP 47 tag is far shorter). */
export const LANG_MAX_CHARS = 64;
/** Robots directives kept from meta tags, each at most 128 characters. */
const MAX_META_DIRECTIVES = 32;

/** What the parse module takes from one HTML page. */
export interface ParsedHtml {
  title: string | null;
  /** `<base href>`: the first one with an href wins (HTML Standard §4.2.3). */
  baseHref: string | null;
  links: ExtractedLink[];
  /** `<meta name="robots">` directives, lowercased (what link following obeys: googlebot's are not). */
  metaRobots: { noindex: boolean; nofollow: boolean };
  /**
   * Directives of every `<meta name="robots">` and `<meta name="googlebot">`, in order, lower case,
   * whitespace collapsed, repeats dropped (`noindex`, `max-snippet:50` …); at most 32.
   */
  robotsDirectives: string[];
  /** The first `<meta name="description">` content, whitespace collapsed, capped; null when none. */
  metaDescription: string | null;
  /** The first `<h1>`'s text (images' alt not included), whitespace collapsed, capped; null when none. */
  h1: string | null;
  /** The first `<link rel="canonical">` href as written (trimmed), unresolved; null when none. */
  canonicalHref: string | null;
  /** The first `<html lang>` value, trimmed, capped; null when none or empty. */
  lang: string | null;
  /** True when the page had more links than `maxLinks`; the rest were not kept. */
  linksTruncated: boolean;
  /** Links past `maxLinks`, not kept (counted under the `max-links-per-page` link rule). */
  linksOverCap: number;
  /**
   * Visible text (outside script, style, noscript, template, head, svg, iframe, object), at most
   * `maxTextChars`. Text on either side of a tag is separated by a space; an entity (`caf&eacute;`)
   * stays part of its word.
   */
  text: string;
}

/** Links kept per page by default; the rest are counted, not kept (ParseOptions.maxLinks). */
export const MAX_LINKS_PER_PAGE = 200_000;

export interface ParseOptions {
  /** Links kept per page. @default {@link MAX_LINKS_PER_PAGE} */
  maxLinks?: number;
  /** Visible text kept per page, in characters. @default 2_000_000 */
  maxTextChars?: number;
}

/** Elements whose text a reader never sees. */
const HIDDEN = ['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'iframe', 'object'];

/** Start tags that belong in `<head>`; any other start tag ends it (HTML Standard §13.2.6.4.4). */
const HEAD_CONTENT = ['base', 'basefont', 'bgsound', 'link', 'meta', 'title', 'noscript', 'noframes', 'style', 'script', 'template', 'head', 'html'];

/** Elements whose attributes the parse reads, and which attributes; every other tag's attributes are skipped unread. */
const ATTRIBUTES_READ: Record<string, readonly string[]> = {
  a: ['href', 'rel'],
  area: ['href', 'rel', 'alt'],
  frame: ['src'],
  iframe: ['src', 'href'],
  link: ['rel', 'href'],
  base: ['href'],
  meta: ['name', 'content'],
  html: ['lang'],
  // Read only inside an <a> (see onopentagname): its alt is part of the anchor text.
  img: ['alt'],
};

/** What the scanner does with one tag name. */
interface TagRole {
  name: string;
  hidden: boolean;
  /** May appear in `<head>` without ending it. */
  headContent: boolean;
  /** Attributes read, or null. */
  attributes: readonly string[] | null;
}

/**
 * A tag name as a number, read straight from the document without making a string: ASCII letters
 * (case-folded) and the digit 1, at most 10 of them (5 bits each). -1 for any other name (h2,
 * custom-element), none of which the scanner needs.
 */
function tagKey(html: string, start: number, end: number): number {
  const length = end - start;
  if (length > 10) return -1;
  let key = 0;
  for (let i = start; i < end; i += 1) {
    const code = html.charCodeAt(i);
    let letter = (code | 0x20) - 0x60;
    if (code === 0x31) letter = 27;
    else if (letter < 1 || letter > 26) return -1;
    key = key * 32 + letter;
  }
  return key;
}

/** The tags the scanner acts on, by {@link tagKey}; every other tag costs no string work. */
const ROLES = new Map<number, TagRole>();
for (const name of new Set([...HIDDEN, ...HEAD_CONTENT, ...Object.keys(ATTRIBUTES_READ), 'body', 'math', 'h1'])) {
  const attributes = ATTRIBUTES_READ[name];
  ROLES.set(tagKey(name, 0, name.length), { name, hidden: HIDDEN.includes(name), headContent: HEAD_CONTENT.includes(name), attributes: attributes ?? null });
}

const TITLE_MAX_CHARS = 1024;
const NOT_WHITESPACE = /\S/;

/** `text` with whitespace runs made one space, trimmed, at most `maxChars` (only the start of a huge text is looked at). */
function collapsed(text: string, maxChars: number): string {
  return text.slice(0, maxChars * 4).replace(/\s+/g, ' ').trim().slice(0, maxChars);
}

/** Text gathered for an element until it closes (an anchor's text, the first H1's). */
interface TextCollector {
  text: string;
  /** Raw characters gathered at most: whitespace collapses, so a little more than the cap. */
  readonly maxRawChars: number;
}

function gather(collector: TextCollector, text: string): void {
  if (collector.text.length < collector.maxRawChars) collector.text += text.slice(0, collector.maxRawChars - collector.text.length);
}

/**
 * The parse as htmlparser2 Tokenizer callbacks. It keeps no element tree: only the stack of open
 * hidden elements (for visible text), the title, and the attributes of the few elements that
 * carry links or directives. Tags and attributes of every other element cost no string work.
 */
class PageScanner implements TokenizerCallbacks {
  readonly result: ParsedHtml = {
    title: null,
    baseHref: null,
    links: [],
    metaRobots: { noindex: false, nofollow: false },
    robotsDirectives: [],
    metaDescription: null,
    h1: null,
    canonicalHref: null,
    lang: null,
    linksTruncated: false,
    linksOverCap: 0,
    text: '',
  };
  private html = '';
  /** The open tag being read, when it is one the scanner acts on (its attributes are read when it names some). */
  private tag: TagRole | null = null;
  /** Attributes read of the open tag (its role's, or none: an <img> outside an <a>). */
  private attributesRead: readonly string[] | null = null;
  /** The open <a> and its text so far; link is null when the <a> added none (no href, over the cap). */
  private anchor: (TextCollector & { link: ExtractedLink | null }) | null = null;
  /** The first <h1> while it is open. */
  private h1: TextCollector | null = null;
  private attributeName: string | null = null;
  private attributeValue = '';
  private attributes: Record<string, string> = {};
  /** Open hidden elements, innermost last. */
  private readonly hidden: string[] = [];
  private titleOpen = false;
  private titleText = '';
  private readonly textParts: string[] = [];
  private textChars = 0;
  /** No tag since the last text piece: the next piece continues it without a space. */
  private joinNext = false;

  constructor(
    private readonly maxLinks: number,
    private readonly maxTextChars: number,
  ) {}

  parse(html: string): ParsedHtml {
    this.html = html;
    // Entities are decoded here, per text run and attribute value that has an `&`: the tokenizer
    // then skips through text to the next `<` instead of visiting every character (by indexOf:
    // skipping-tokenizer.ts).
    const tokenizer = new SkippingTokenizer({ decodeEntities: false }, this);
    tokenizer.write(html);
    tokenizer.end();
    return this.result;
  }

  onopentagname(start: number, endIndex: number): void {
    const tag = ROLES.get(tagKey(this.html, start, endIndex)) ?? null;
    this.tag = tag;
    this.attributesRead = tag === null || (tag.name === 'img' && this.anchor === null) ? null : tag.attributes;
    if (this.attributesRead) this.attributes = {};
    this.joinNext = false;
    // A start tag that cannot be in <head> ends it, as does <body> (HTML Standard §13.2.6.4.4).
    if (this.hidden.length === 1 && this.hidden[0] === 'head' && !tag?.headContent) this.hidden.pop();
  }

  onattribname(start: number, endIndex: number): void {
    const read = this.attributesRead;
    if (!read) return;
    // Compared in place (ASCII case-insensitive): `class`, `title`… of an <a> make no string.
    let name: string | null = null;
    for (const wanted of read) {
      if (endIndex - start !== wanted.length) continue;
      let i = 0;
      while (i < wanted.length && (this.html.charCodeAt(start + i) | 0x20) === wanted.charCodeAt(i)) i += 1;
      if (i === wanted.length) {
        name = wanted;
        break;
      }
    }
    this.attributeName = name !== null && !(name in this.attributes) ? name : null;
    this.attributeValue = '';
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.attributeName !== null) this.attributeValue += this.html.slice(start, endIndex);
  }

  onattribentity(): void {
    // Not called: the tokenizer does not decode entities (see parse).
  }

  onattribend(_quote: QuoteType, _endIndex: number): void {
    if (this.attributeName === null) return;
    const value = this.attributeValue;
    this.attributes[this.attributeName] = value.includes('&') ? decodeHTMLAttribute(value) : value;
    this.attributeName = null;
  }

  onopentagend(_endIndex: number): void {
    this.openElement(false);
  }

  /** `<x/>`: only foreign elements (svg, math and inside them) close themselves in HTML. */
  onselfclosingtag(_endIndex: number): void {
    const name = this.tag?.name;
    this.openElement(name === 'svg' || name === 'math' || this.hidden.includes('svg'));
  }

  onclosetag(start: number, endIndex: number): void {
    const tag = ROLES.get(tagKey(this.html, start, endIndex));
    this.joinNext = false;
    if (tag === undefined) return;
    if (tag.name === 'title' && this.titleOpen) this.endTitle();
    if (tag.name === 'a') this.endAnchor();
    if (tag.name === 'h1') this.endH1();
    if (!tag.hidden) return;
    const at = this.hidden.lastIndexOf(tag.name);
    if (at !== -1) this.hidden.length = at;
  }

  ontext(start: number, endIndex: number): void {
    const raw = this.html.slice(start, endIndex);
    const text = raw.includes('&') ? decodeHTML(raw) : raw;
    this.addText(text);
    // Text a reader sees inside the element (textContent: pieces join as they are, then collapse).
    if (this.hidden.length > 0 || this.titleOpen) return;
    if (this.anchor !== null) gather(this.anchor, text);
    if (this.h1 !== null) gather(this.h1, text);
  }

  ontextentity(): void {
    // Not called: the tokenizer does not decode entities (see parse).
  }

  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  onend(): void {
    if (this.titleOpen) this.endTitle();
    this.endAnchor();
    this.endH1();
    this.result.text = this.textParts.join('').slice(0, this.maxTextChars);
  }

  private addText(text: string): void {
    if (this.titleOpen) {
      if (this.titleText.length < TITLE_MAX_CHARS) this.titleText += text;
      return;
    }
    // Text that is not whitespace ends <head> (HTML Standard §13.2.6.4.4, "anything else").
    if (this.hidden.length === 1 && this.hidden[0] === 'head' && NOT_WHITESPACE.test(text)) this.hidden.pop();
    if (this.hidden.length > 0 || this.textChars >= this.maxTextChars) return;
    if (!this.joinNext && this.textParts.length > 0) this.textParts.push(' ');
    this.textParts.push(text);
    this.textChars += text.length + 1;
    // The tokenizer may hand one run over in pieces (at the end of its buffer): they join.
    this.joinNext = true;
  }

  private openElement(selfClosed: boolean): void {
    const tag = this.tag;
    if (tag === null) return;
    if (this.attributesRead !== null) this.readElement(tag.name, this.attributes);
    if (tag.name === 'h1' && this.result.h1 === null && this.h1 === null && this.hidden.length === 0) this.h1 = { text: '', maxRawChars: H1_MAX_CHARS * 4 };
    if (tag.name === 'title' && this.result.title === null && !this.hidden.includes('svg')) {
      this.titleOpen = true;
      this.titleText = '';
    }
    // No hidden element is void (area, base, link, meta… never open a section).
    if (tag.hidden && !selfClosed) this.hidden.push(tag.name);
  }

  private readElement(name: string, attributes: Record<string, string>): void {
    switch (name) {
      case 'a': {
        // An <a> inside an open <a> closes it (HTML Standard §13.2.6.4.7, "a" start tag).
        this.endAnchor();
        const link = this.addLink(attributes['href'], name, attributes['rel']);
        this.anchor = { text: '', maxRawChars: ANCHOR_TEXT_MAX_CHARS * 4, link };
        break;
      }
      case 'area': {
        const link = this.addLink(attributes['href'], name, attributes['rel']);
        const alt = collapsed(attributes['alt'] ?? '', ANCHOR_TEXT_MAX_CHARS);
        if (link !== null && alt !== '') link.anchorText = alt;
        break;
      }
      case 'img':
        // Only read inside an <a>: its alt is part of the link's text.
        if (this.anchor !== null && attributes['alt'] !== undefined) gather(this.anchor, ` ${attributes['alt']} `);
        break;
      case 'html':
        if (this.result.lang === null && attributes['lang'] !== undefined) {
          const lang = attributes['lang'].trim().slice(0, LANG_MAX_CHARS);
          if (lang !== '') this.result.lang = lang;
        }
        break;
      case 'frame':
        this.addLink(attributes['src'], 'frame');
        break;
      case 'iframe':
        this.addLink(attributes['src'] ?? attributes['href'], 'iframe');
        break;
      case 'link':
        if ((attributes['rel'] ?? '').toLowerCase().split(/\s+/).includes('canonical')) {
          if (this.result.canonicalHref === null && attributes['href'] !== undefined && attributes['href'].trim() !== '') this.result.canonicalHref = attributes['href'].trim();
          this.addLink(attributes['href'], 'canonical', attributes['rel']);
        }
        break;
      case 'base':
        if (this.result.baseHref === null && attributes['href'] !== undefined) this.result.baseHref = attributes['href'].trim();
        break;
      case 'meta': {
        const metaName = (attributes['name'] ?? '').trim().toLowerCase();
        if (metaName === 'robots') {
          const directives = (attributes['content'] ?? '').toLowerCase().split(/[\s,]+/);
          if (directives.includes('noindex') || directives.includes('none')) this.result.metaRobots.noindex = true;
          if (directives.includes('nofollow') || directives.includes('none')) this.result.metaRobots.nofollow = true;
        }
        if (metaName === 'robots' || metaName === 'googlebot') this.addDirectives(attributes['content'] ?? '');
        if (metaName === 'description' && this.result.metaDescription === null && attributes['content'] !== undefined) {
          this.result.metaDescription = collapsed(attributes['content'], META_DESCRIPTION_MAX_CHARS);
        }
        break;
      }
    }
  }

  /** Adds a robots meta tag's comma-separated directives (lower case, whitespace collapsed, repeats dropped). */
  private addDirectives(content: string): void {
    const kept = this.result.robotsDirectives;
    for (const piece of content.slice(0, 4096).split(',')) {
      if (kept.length >= MAX_META_DIRECTIVES) return;
      const directive = collapsed(piece.toLowerCase(), 128);
      if (directive !== '' && !kept.includes(directive)) kept.push(directive);
    }
  }

  /** The open <a> ends (its close tag, the next <a>, or the document's end): its link gets its text. */
  private endAnchor(): void {
    const anchor = this.anchor;
    if (anchor === null) return;
    this.anchor = null;
    const text = collapsed(anchor.text, ANCHOR_TEXT_MAX_CHARS);
    if (anchor.link !== null && text !== '') anchor.link.anchorText = text;
  }

  private endH1(): void {
    if (this.h1 === null) return;
    this.result.h1 = collapsed(this.h1.text, H1_MAX_CHARS);
    this.h1 = null;
  }

  /** @returns the link kept, or null (no href, or past the cap) */
  private addLink(href: string | undefined, kind: LinkKind, rel?: string): ExtractedLink | null {
    if (href === undefined) return null;
    const trimmed = href.trim();
    if (trimmed === '') return null;
    if (this.result.links.length >= this.maxLinks) {
      this.result.linksTruncated = true;
      this.result.linksOverCap += 1;
      return null;
    }
    const link: ExtractedLink = { href: trimmed, kind };
    if (rel !== undefined) {
      const tokens = collapsed(rel.toLowerCase(), REL_MAX_CHARS);
      if (tokens !== '') link.rel = tokens;
    }
    this.result.links.push(link);
    return link;
  }

  private endTitle(): void {
    this.titleOpen = false;
    this.result.title = this.titleText.replace(/\s+/g, ' ').trim().slice(0, TITLE_MAX_CHARS);
  }
}

/**
 * Extracts links (`a href`, `area href`, `frame src`, `iframe src` and `iframe href` as seed 004
 * names it, `link rel=canonical`) with their anchor text and rel tokens, `<base href>`, the
 * title, the first H1, the meta description, meta robots and googlebot directives, the canonical
 * href, `<html lang>` and the visible text from HTML with htmlparser2's Tokenizer (no DOM and no element tree is built, so memory stays
 * proportional to the output). Hostile HTML (unclosed tags, deep nesting) costs linear time.
 * @example parseHtml('<base href="/d/"><a href="x">X</a>').links // [{ href: 'x', kind: 'a' }]
 */
export function parseHtml(html: string, options: ParseOptions = {}): ParsedHtml {
  return new PageScanner(options.maxLinks ?? MAX_LINKS_PER_PAGE, options.maxTextChars ?? 2_000_000).parse(html);
}
