/**
 * A typed handle on the platform's WHATWG `URL` class for code that is compiled without DOM or
 * Node types (tsconfig.shared.json has lib ES2023 and `types: []`). An ambient `declare class URL`
 * would clash with the DOM and @types/node declarations when the same files are compiled by
 * tsconfig.web.json and the Node projects (tsconfig.engine.json, …), so the constructor is read from `globalThis` and given
 * the minimal shape this folder uses. Source: WHATWG URL Standard (https://url.spec.whatwg.org/).
 */

/** The parts of a WHATWG URL record this folder reads (all strings as serialized by the parser). */
export interface WhatwgUrl {
  readonly href: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

interface WhatwgUrlConstructor {
  new (input: string, base?: string): WhatwgUrl;
}

/**
 * The global WHATWG `URL` constructor (Node 18+, Electron, browsers). It throws a `TypeError`
 * for input that is not a valid URL.
 */
export const WhatwgURL: WhatwgUrlConstructor = (globalThis as unknown as { URL: WhatwgUrlConstructor }).URL;

/**
 * Parses `input` (against `base` when given) with the WHATWG URL parser.
 * @returns the URL record, or null when the parser reports failure
 * @example parseWhatwg('../c', 'http://a/b/d') → { href: 'http://a/c', … }
 */
export function parseWhatwg(input: string, base?: string): WhatwgUrl | null {
  try {
    return base === undefined ? new WhatwgURL(input) : new WhatwgURL(input, base);
  } catch {
    return null;
  }
}
