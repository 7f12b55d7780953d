import { Parser } from 'htmlparser2';

/** Which element a link came from (seed 004's link patterns, extended). */
export type LinkKind = 'a' | 'area' | 'frame' | 'iframe' | 'canonical';

/** A link as written in the page, before resolution against the base URL. */
export interface ExtractedLink {
  href: string;
  kind: LinkKind;
}

/** What the parse module takes from one HTML page. */
export interface ParsedHtml {
  title: string | null;
  /** `<base href>`: the first one with an href wins (HTML Standard §4.2.3). */
  baseHref: string | null;
  links: ExtractedLink[];
  /** `<meta name="robots">` directives, lowercased. */
  metaRobots: { noindex: boolean; nofollow: boolean };
  /** True when the page had more links than `maxLinks`; the rest were not kept. */
  linksTruncated: boolean;
  /** Visible text (outside script, style, noscript, template, head), whitespace-joined, at most `maxTextChars`. */
  text: string;
}

export interface ParseOptions {
  /** Links kept per page. @default 200_000 */
  maxLinks?: number;
  /** Visible text kept per page, in characters. @default 2_000_000 */
  maxTextChars?: number;
}

/** Elements whose text a reader never sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'iframe', 'object']);

const TITLE_MAX_CHARS = 1024;

/**
 * Extracts links (`a href`, `area href`, `frame src`, `iframe src` and `iframe href` as seed 004
 * names it, `link rel=canonical`), `<base href>`, the title and meta robots from HTML, with
 * htmlparser2's streaming tokenizer (no DOM is built, so memory stays proportional to the output).
 * Hostile HTML (unclosed tags, deep nesting) costs linear time.
 * @example parseHtml('<base href="/d/"><a href="x">X</a>').links // [{ href: 'x', kind: 'a' }]
 */
export function parseHtml(html: string, options: ParseOptions = {}): ParsedHtml {
  const maxLinks = options.maxLinks ?? 200_000;
  const maxTextChars = options.maxTextChars ?? 2_000_000;
  const result: ParsedHtml = { title: null, baseHref: null, links: [], metaRobots: { noindex: false, nofollow: false }, linksTruncated: false, text: '' };
  let inTitle = false;
  let titleText = '';
  let hiddenDepth = 0;
  const textParts: string[] = [];
  let textChars = 0;

  const addLink = (href: string | undefined, kind: LinkKind): void => {
    if (href === undefined) return;
    const trimmed = href.trim();
    if (trimmed === '') return;
    if (result.links.length >= maxLinks) {
      result.linksTruncated = true;
      return;
    }
    result.links.push({ href: trimmed, kind });
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (HIDDEN.has(name)) hiddenDepth += 1;
        switch (name) {
          case 'a':
          case 'area':
            addLink(attribs['href'], name);
            break;
          case 'frame':
            addLink(attribs['src'], 'frame');
            break;
          case 'iframe':
            addLink(attribs['src'] ?? attribs['href'], 'iframe');
            break;
          case 'link':
            if ((attribs['rel'] ?? '').toLowerCase().split(/\s+/).includes('canonical')) addLink(attribs['href'], 'canonical');
            break;
          case 'base':
            if (result.baseHref === null && attribs['href'] !== undefined) result.baseHref = attribs['href'].trim();
            break;
          case 'meta':
            if ((attribs['name'] ?? '').toLowerCase() === 'robots') {
              const directives = (attribs['content'] ?? '').toLowerCase().split(/[\s,]+/);
              if (directives.includes('noindex') || directives.includes('none')) result.metaRobots.noindex = true;
              if (directives.includes('nofollow') || directives.includes('none')) result.metaRobots.nofollow = true;
            }
            break;
          case 'title':
            if (result.title === null) inTitle = true;
            break;
        }
      },
      ontext(text) {
        if (inTitle && titleText.length < TITLE_MAX_CHARS) titleText += text;
        if (hiddenDepth === 0 && textChars < maxTextChars) {
          textParts.push(text);
          textChars += text.length + 1;
        }
      },
      onclosetag(name) {
        if (HIDDEN.has(name) && hiddenDepth > 0) hiddenDepth -= 1;
        if (name === 'title' && inTitle) {
          inTitle = false;
          result.title = titleText.replace(/\s+/g, ' ').trim().slice(0, TITLE_MAX_CHARS);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  result.text = textParts.join(' ').slice(0, maxTextChars);
  if (inTitle) result.title = titleText.replace(/\s+/g, ' ').trim().slice(0, TITLE_MAX_CHARS);
  return result;
}
