/** The Pages table's "URL matches" filter: a user's regular expression, run in linear time so a hostile pattern cannot hang the main process. */
import { setFlagsFromString } from 'node:v8';
import { CodedError } from '../../../../shared/types/result';

/** Longest pattern accepted (characters); the IPC schema bounds it the same way. */
export const MAX_URL_REGEX_CHARS = 1000;

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
 * Compiles a URL filter pattern for V8's linear-time regular expression engine, so matching one
 * URL takes time proportional to its length and a pattern such as `(a+)+$` cannot backtrack
 * forever. The pattern is JavaScript syntax, matched as written (case-sensitive: the linear
 * engine has no `i` flag), anywhere in the URL unless anchored.
 * @example compileUrlRegex('/docs/.*\\.html$').test('http://a.test/docs/x.html') // true
 * @throws CodedError INVALID_URL_REGEX: empty, longer than MAX_URL_REGEX_CHARS, not a valid
 *   pattern, or one that needs backtracking (backreferences, lookahead/lookbehind, large counted
 *   repetitions); REGEX_UNAVAILABLE when this runtime lacks the linear engine
 */
export function compileUrlRegex(pattern: string): RegExp {
  if (pattern.length === 0) throw new CodedError('INVALID_URL_REGEX', 'The regular expression is empty');
  if (pattern.length > MAX_URL_REGEX_CHARS) throw new CodedError('INVALID_URL_REGEX', `The regular expression is longer than ${MAX_URL_REGEX_CHARS} characters`);
  if (!linearEngine) throw new CodedError('REGEX_UNAVAILABLE', 'This runtime cannot run regular expressions in linear time; use "URL contains" without the regex switch');
  try {
    return new RegExp(pattern, LINEAR);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('linear time')) {
      throw new CodedError(
        'INVALID_URL_REGEX',
        'This regular expression needs backtracking (backreferences, lookahead or lookbehind, or a large counted repetition such as {1,1000}), which could hang the crawl; rewrite it without them',
      );
    }
    throw new CodedError('INVALID_URL_REGEX', `Not a valid regular expression: ${message.replace(/^Invalid regular expression: /, '')}`);
  }
}
