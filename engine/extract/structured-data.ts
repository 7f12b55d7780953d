/**
 * schema.org structured data of a page (issue 14 part 2, `schema:TYPE.FIELD` extractors): the
 * items of a type in its JSON-LD blocks (W3C JSON-LD 1.1 as schema.org uses it: `@type`, `@graph`,
 * nested objects and arrays) and its microdata (WHATWG HTML §5.2: `itemscope`, `itemtype`,
 * `itemprop`), and the values of a property path in them.
 */
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

/** A JSON value as JSON.parse gives it. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** True when a JSON-LD node's @type names `type` (a bare name, or a schema.org URL ending in it). */
function hasType(node: { [key: string]: Json }, type: string): boolean {
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']];
  return types.some((t) => typeof t === 'string' && (t === type || t.endsWith(`/${type}`) || t.endsWith(`#${type}`)));
}

/** Every object in a JSON-LD document, depth first (through @graph, arrays and nested values). */
function* jsonObjects(value: Json, depth = 0): Generator<{ [key: string]: Json }> {
  if (depth > 32 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) yield* jsonObjects(item, depth + 1);
    return;
  }
  yield value;
  for (const child of Object.values(value)) yield* jsonObjects(child, depth + 1);
}

/** The values at `path` under a JSON-LD node, as strings (arrays flattened; objects give their @id, name or JSON text). */
function jsonValues(value: Json | undefined, path: readonly string[], out: string[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) jsonValues(item, path, out);
    return;
  }
  if (path.length === 0) {
    if (typeof value === 'object') {
      const named = value['@value'] ?? value['name'] ?? value['@id'];
      out.push(typeof named === 'string' || typeof named === 'number' ? String(named) : JSON.stringify(value));
    } else out.push(String(value));
    return;
  }
  if (typeof value !== 'object') return;
  jsonValues(value[path[0]!], path.slice(1), out);
}

/**
 * The values of `TYPE.FIELD[.FIELD…]` in a page's JSON-LD blocks, in document order. A block that
 * is not valid JSON is skipped (pages often carry broken ones).
 */
export function jsonLdValues($: CheerioAPI, type: string, path: readonly string[]): string[] {
  const out: string[] = [];
  $('script[type="application/ld+json" i]').each((_, script) => {
    let parsed: Json;
    try {
      parsed = JSON.parse($(script).text()) as Json;
    } catch {
      return;
    }
    for (const node of jsonObjects(parsed)) if (hasType(node, type)) jsonValues(node[path[0]!], path.slice(1), out);
  });
  return out;
}

/** An itemprop element's value (WHATWG HTML §5.2.4): content, or the URL attribute of its element, or its text. */
function microdataValue($: CheerioAPI, element: Element): string {
  const node = $(element);
  const content = node.attr('content');
  if (content !== undefined) return content;
  const urlAttribute = { a: 'href', link: 'href', area: 'href', img: 'src', audio: 'src', video: 'src', source: 'src', iframe: 'src', embed: 'src', object: 'data', meta: 'content', time: 'datetime', data: 'value', meter: 'value' }[element.tagName.toLowerCase()];
  const attribute = urlAttribute ? node.attr(urlAttribute) : undefined;
  return (attribute ?? node.text()).replace(/\s+/g, ' ').trim();
}

/** The itemprop elements of an item scope named `name`, not those of nested scopes. */
function properties($: CheerioAPI, scope: Element, name: string): Element[] {
  const found: Element[] = [];
  const walk = (node: AnyNode) => {
    for (const child of $(node).children().toArray()) {
      const props = ($(child).attr('itemprop') ?? '').split(/\s+/);
      if (props.includes(name)) found.push(child);
      // A nested itemscope's own properties belong to it, not to this item.
      if ($(child).attr('itemscope') === undefined) walk(child);
    }
  };
  walk(scope);
  return found;
}

/** The values of `TYPE.FIELD[.FIELD…]` in a page's microdata items, in document order. */
export function microdataValues($: CheerioAPI, type: string, path: readonly string[]): string[] {
  const out: string[] = [];
  $('[itemscope][itemtype]').each((_, element) => {
    const types = ($(element).attr('itemtype') ?? '').split(/\s+/);
    if (!types.some((t) => t === type || t.endsWith(`/${type}`))) return;
    let scopes: Element[] = [element];
    for (let i = 0; i < path.length; i += 1) {
      const matches = scopes.flatMap((scope) => properties($, scope, path[i]!));
      if (i === path.length - 1) for (const match of matches) out.push(microdataValue($, match));
      else scopes = matches.filter((match) => $(match).attr('itemscope') !== undefined);
    }
  });
  return out;
}
