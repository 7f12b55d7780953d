/**
 * Custom extraction (issue 14 part 2): named extractors a crawl runs on every HTML page, written
 * as `NAME[:MODE]=KIND:EXPRESSION` on the command line and in the crawl form:
 * - `css:SELECTOR[@attr]` — the text of the elements a CSS selector matches (cheerio), or one attribute of them;
 * - `regex:PATTERN` — matches in the page's HTML source (the first capture group when the pattern has one), linear-time;
 * - `schema:TYPE.FIELD[.FIELD…]` — a schema.org property of the items of TYPE in the page's JSON-LD
 *   (`<script type="application/ld+json">`) or microdata (`itemscope itemtype=…/TYPE`, `itemprop=FIELD`).
 * MODE is `first` (default: the first value, or null), `all` (every value, in page order) or
 * `count` (how many there are). Screaming Frog's "Custom Extraction" offers the same three kinds.
 */

/** Where an extractor looks. */
export const EXTRACTOR_KINDS = ['css', 'regex', 'schema'] as const;
export type ExtractorKind = (typeof EXTRACTOR_KINDS)[number];

/** What an extractor returns: the first value, all of them, or their count. */
export const EXTRACTOR_MODES = ['first', 'all', 'count'] as const;
export type ExtractorMode = (typeof EXTRACTOR_MODES)[number];

/** One named extractor of a crawl. */
export interface Extractor {
  /** Its name: a letter, then letters, digits, `_` or `-` (at most 64): the Pages-table column and export field. */
  name: string;
  kind: ExtractorKind;
  /** The CSS selector, the regular expression, or `TYPE.FIELD…` (see the module comment). */
  expression: string;
  /** For `css`: the attribute to read instead of the text (`img@src`). */
  attribute?: string;
  mode: ExtractorMode;
}

/** What an extractor found on one page: a string or null (`first`), strings (`all`), a number (`count`). */
export type ExtractedValue = string | null | string[] | number;

/** Extractors a crawl may have. */
export const MAX_EXTRACTORS = 32;
/** Characters of an expression at most. */
export const MAX_EXTRACTOR_EXPRESSION_CHARS = 1000;
/** Characters kept of one extracted value, and values kept per `all` extractor on one page. */
export const MAX_EXTRACTED_VALUE_CHARS = 2000;
export const MAX_EXTRACTED_VALUES = 100;

const NAME = /^[A-Za-z][\w-]{0,63}$/;
/** An HTML attribute name after a selector's last `@`. */
const ATTRIBUTE = /^[A-Za-z_:][-\w:.]*$/;
/** schema.org `TYPE.FIELD[.FIELD…]`: names of letters, digits and `_`. */
const SCHEMA_PATH = /^[A-Za-z][\w]*(\.[A-Za-z@][\w]*)+$/;

/**
 * Reads one extractor from its text form. Checks the syntax only: whether a CSS selector compiles
 * and a regular expression runs in linear time is checked by the engine when the crawl starts
 * (engine/extract/extractors.ts compileExtractors).
 * @example parseExtractor('price=css:.price') // { ok: true, value: { name: 'price', kind: 'css', expression: '.price', mode: 'first' } }
 * @example parseExtractor('images:count=css:img@src') // { …, attribute: 'src', mode: 'count' }
 * @returns the extractor, or INVALID_EXTRACTOR saying what is wrong
 */
export function parseExtractor(text: string): { ok: true; value: Extractor } | { ok: false; error: { code: 'INVALID_EXTRACTOR'; message: string } } {
  const fail = (message: string) => ({ ok: false as const, error: { code: 'INVALID_EXTRACTOR' as const, message: `${JSON.stringify(text.slice(0, 120))}: ${message}` } });
  const equals = text.indexOf('=');
  if (equals < 0) return fail('expected NAME[:first|all|count]=css:SELECTOR[@attr], NAME=regex:PATTERN or NAME=schema:TYPE.FIELD');
  const [name = '', mode = 'first', ...extra] = text.slice(0, equals).split(':');
  if (!NAME.test(name)) return fail('the name must start with a letter and hold only letters, digits, _ or - (at most 64)');
  if (extra.length > 0 || !(EXTRACTOR_MODES as readonly string[]).includes(mode)) return fail(`the mode after the name must be one of ${EXTRACTOR_MODES.join(', ')}`);
  const body = text.slice(equals + 1);
  const colon = body.indexOf(':');
  const kind = colon < 0 ? '' : body.slice(0, colon);
  if (!(EXTRACTOR_KINDS as readonly string[]).includes(kind)) return fail(`the kind must be one of ${EXTRACTOR_KINDS.map((k) => `${k}:`).join(', ')}`);
  let expression = body.slice(colon + 1);
  let attribute: string | undefined;
  if (kind === 'css') {
    const at = expression.lastIndexOf('@');
    // `a[href^="mailto:x@y"]` keeps its @: an attribute suffix comes after the selector's last bracket or quote.
    if (at > 0 && ATTRIBUTE.test(expression.slice(at + 1)) && !/[\]"')]/.test(expression.slice(at + 1))) {
      attribute = expression.slice(at + 1);
      expression = expression.slice(0, at);
    }
  }
  expression = expression.trim();
  if (expression === '') return fail('the expression is empty');
  if (expression.length > MAX_EXTRACTOR_EXPRESSION_CHARS) return fail(`the expression is longer than ${MAX_EXTRACTOR_EXPRESSION_CHARS} characters`);
  if (kind === 'schema' && !SCHEMA_PATH.test(expression)) return fail('a schema extractor is TYPE.FIELD, e.g. Product.offers.price');
  return { ok: true, value: { name, kind: kind as ExtractorKind, expression, ...(attribute ? { attribute } : {}), mode: mode as ExtractorMode } };
}

/**
 * The text form of an extractor ({@link parseExtractor} reads it back).
 * @example extractorText({ name: 'img', kind: 'css', expression: 'img', attribute: 'src', mode: 'all' }) // 'img:all=css:img@src'
 */
export function extractorText(extractor: Extractor): string {
  const mode = extractor.mode === 'first' ? '' : `:${extractor.mode}`;
  return `${extractor.name}${mode}=${extractor.kind}:${extractor.expression}${extractor.attribute ? `@${extractor.attribute}` : ''}`;
}
