/**
 * A user's regular expression over URLs, run in linear time so a hostile pattern cannot hang the
 * process: the one compiler of the Pages table's "URL matches" filter
 * (store/sqlite/queries/page-queries.ts) and the crawl's include / exclude URL patterns
 * (links/url-patterns.ts). Length and syntax bounds are shared/url/url-patterns.ts (the renderer
 * checks them too).
 */
import { setFlagsFromString } from 'node:v8';
import { CodedError } from '../../shared/types/result';
import { urlPatternProblem } from '../../shared/url/url-patterns';

export { MAX_URL_REGEX_CHARS } from '../../shared/url/url-patterns';

// V8's linear-time engine (the `l` flag) runs a pattern in time linear in pattern × text, with no
// backtracking; the flag only enables the engine, every other RegExp keeps using irregexp.
setFlagsFromString('--enable-experimental-regexp-engine');

/** The linear engine's flag (a variable: eslint's no-invalid-regexp does not know it). */
const LINEAR = 'l';

/** True when this V8 accepts the `l` flag (checked once). */
const linearEngine = ((): boolean => {
  try {
    new RegExp('a', LINEAR);
    return true;
  } catch {
    return false;
  }
})();

/**
 * What V8's linear engine cannot run, in words (its error says only "Cannot be executed in linear
 * time"): those constructs need backtracking. Node 20's V8 refuses counted repetitions above 16.
 */
export const BACKTRACKING_CONSTRUCTS = 'backreferences such as \\1, lookahead (?= (?!, lookbehind (?<= (?<!, or a counted repetition above about 16 such as {1,50}';

/**
 * Compiles a URL pattern for V8's linear-time regular expression engine, so matching one URL
 * takes time proportional to pattern × URL length and a pattern such as `(a+)+$` cannot backtrack
 * (irregexp takes about 1 s on 24 a's and a '!', doubling with each more a; this engine well under 1 ms on 40).
 * The pattern is JavaScript syntax, matched as written (case-sensitive: the linear engine has no
 * `i` flag), anywhere in the URL unless anchored.
 * Source: V8's experimental non-backtracking engine (v8.dev/blog/non-backtracking-regexp, 2021).
 * @example compileUrlRegex('/docs/.*\\.html$').test('http://a.test/docs/x.html') // true
 * @throws CodedError INVALID_URL_REGEX: empty, longer than MAX_URL_REGEX_CHARS, not a valid
 *   pattern, or one that needs backtracking ({@link BACKTRACKING_CONSTRUCTS});
 *   REGEX_UNAVAILABLE when this runtime lacks the linear engine
 */
export function compileUrlRegex(pattern: string): RegExp {
  const problem = urlPatternProblem(pattern);
  if (problem !== null) throw new CodedError('INVALID_URL_REGEX', problem.startsWith('not a valid') ? `N${problem.slice(1)}` : `The regular expression is ${problem}`);
  if (!linearEngine) throw new CodedError('REGEX_UNAVAILABLE', 'This runtime cannot run regular expressions in linear time; use "URL contains" without the regex switch');
  try {
    return new RegExp(pattern, LINEAR);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('linear time')) {
      throw new CodedError('INVALID_URL_REGEX', `This regular expression needs backtracking (${BACKTRACKING_CONSTRUCTS}), which could hang the crawl; rewrite it without them`);
    }
    throw new CodedError('INVALID_URL_REGEX', `Not a valid regular expression: ${message.replace(/^Invalid regular expression: /, '')}`);
  }
}
