/**
 * Custom extraction (issue 14 part 2): a crawl's named extractors (shared/types/extraction.ts)
 * compiled once, then run on each HTML page with cheerio (CSS selectors, structured data) and V8's
 * linear-time regular expressions (the page's source), in the worker that parsed the page, or over
 * stored bodies when an edited extractor is re-run without a recrawl (app/services/extraction-rerun.ts).
 */
import { load, type CheerioAPI } from 'cheerio';
import { CodedError } from '../../shared/types/result';
import { MAX_EXTRACTED_VALUE_CHARS, MAX_EXTRACTED_VALUES, MAX_EXTRACTORS, type ExtractedValue, type Extractor } from '../../shared/types/extraction';
import { compileUrlRegex } from '../regex/url-regex';
import { jsonLdValues, microdataValues } from './structured-data';

/** An extractor ready to run. */
interface CompiledExtractor {
  extractor: Extractor;
  /** Its values on a page, in document order (at most MAX_EXTRACTED_VALUES + 1: enough to count past the cap). */
  values(page: { html: string; $: () => CheerioAPI }): string[];
}

/** Values an extractor reads on one page at most (a `count` beyond it says "at least"). */
const READ_LIMIT = 10_000;

const clip = (text: string): string => (text.length > MAX_EXTRACTED_VALUE_CHARS ? `${text.slice(0, MAX_EXTRACTED_VALUE_CHARS - 1)}…` : text);

/** One extractor compiled, or INVALID_EXTRACTOR naming it. */
function compile(extractor: Extractor): CompiledExtractor {
  const fail = (reason: string): never => {
    throw new CodedError('INVALID_EXTRACTOR', `Extractor "${extractor.name}": ${reason}`);
  };
  switch (extractor.kind) {
    case 'css': {
      try {
        // Parses the selector now (css-what): a bad one fails here, before the crawl starts.
        load('')(extractor.expression);
      } catch (error) {
        fail(`not a valid CSS selector (${error instanceof Error ? error.message : String(error)})`);
      }
      return {
        extractor,
        values: ({ $ }) => {
          const api = $();
          const out: string[] = [];
          api(extractor.expression).each((index, element) => {
            if (index >= READ_LIMIT) return false;
            const node = api(element);
            const value = extractor.attribute ? node.attr(extractor.attribute) : node.text().replace(/\s+/g, ' ').trim();
            if (value !== undefined) out.push(value);
            return undefined;
          });
          return out;
        },
      };
    }
    case 'regex': {
      let pattern: RegExp;
      try {
        pattern = compileUrlRegex(extractor.expression);
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
      const global = new RegExp(pattern.source, `${pattern.flags}g`);
      return {
        extractor,
        values: ({ html }) => {
          const out: string[] = [];
          global.lastIndex = 0;
          for (const match of html.matchAll(global)) {
            out.push(match[1] ?? match[0]);
            if (out.length >= READ_LIMIT) break;
          }
          return out;
        },
      };
    }
    case 'schema': {
      const [type = '', ...path] = extractor.expression.split('.');
      if (path.length === 0) fail('a schema extractor is TYPE.FIELD, e.g. Product.offers.price');
      return { extractor, values: ({ $ }) => [...jsonLdValues($(), type, path), ...microdataValues($(), type, path)] };
    }
    default: {
      const exhaustive: never = extractor.kind;
      return fail(`unknown kind ${String(exhaustive)}`);
    }
  }
}

/** A crawl's extractors, compiled: run them on pages with {@link CompiledExtractors.run}. */
export class CompiledExtractors {
  private constructor(private readonly compiled: readonly CompiledExtractor[]) {}

  /**
   * Compiles a crawl's extractors.
   * @throws CodedError INVALID_EXTRACTOR naming the first extractor that does not compile (a CSS
   *   selector cheerio cannot parse, a regular expression that needs backtracking …), a repeated
   *   name, or more than MAX_EXTRACTORS
   */
  static compile(extractors: readonly Extractor[]): CompiledExtractors {
    if (extractors.length > MAX_EXTRACTORS) throw new CodedError('INVALID_EXTRACTOR', `${extractors.length} extractors, more than ${MAX_EXTRACTORS}`);
    const names = new Set<string>();
    for (const extractor of extractors) {
      if (names.has(extractor.name)) throw new CodedError('INVALID_EXTRACTOR', `Two extractors are named "${extractor.name}": give each its own name`);
      names.add(extractor.name);
    }
    return new CompiledExtractors(extractors.map(compile));
  }

  /** True when there is nothing to run. */
  get empty(): boolean {
    return this.compiled.length === 0;
  }

  /**
   * Every extractor's result on one page: by name, `first` a string or null, `all` up to
   * MAX_EXTRACTED_VALUES strings, `count` a number; values cut at MAX_EXTRACTED_VALUE_CHARS.
   * The page is parsed by cheerio once, and only when a CSS or schema extractor needs it. Never
   * throws: an extractor that fails on a page finds nothing there.
   * @param html the page's decoded HTML source
   */
  run(html: string): Record<string, ExtractedValue> {
    let parsed: CheerioAPI | null = null;
    const page = { html, $: () => (parsed ??= load(html)) };
    const result: Record<string, ExtractedValue> = {};
    for (const { extractor, values } of this.compiled) {
      let found: string[];
      try {
        found = values(page);
      } catch {
        // A page cheerio or an extractor chokes on (hostile markup) gives no values; the page itself is kept.
        found = [];
      }
      switch (extractor.mode) {
        case 'first':
          result[extractor.name] = found.length > 0 ? clip(found[0]!) : null;
          break;
        case 'all':
          result[extractor.name] = found.slice(0, MAX_EXTRACTED_VALUES).map(clip);
          break;
        case 'count':
          result[extractor.name] = found.length;
          break;
      }
    }
    return result;
  }
}
