/**
 * Bounds and the syntax check of URL regular expressions (the crawl's include / exclude URL
 * patterns, the Pages table's "URL matches" filter). What runs them is engine/regex/url-regex.ts:
 * V8's linear-time engine, which needs node:v8 and so cannot run here (the renderer imports this
 * file). This file checks what every side can check: length and JavaScript syntax. Whether a
 * pattern needs backtracking is the engine's verdict, given at crawl start (INVALID_URL_REGEX).
 */

/** Longest URL regular expression accepted (characters). */
export const MAX_URL_REGEX_CHARS = 1000;

/** Most patterns in one include or exclude list of a crawl. */
export const MAX_URL_PATTERNS = 200;

/**
 * Why `pattern` cannot be a URL regular expression by length or syntax, or null when it can (the
 * engine may still refuse one that needs backtracking). Compiling a pattern never runs it, so
 * this costs time linear in the pattern, whatever it is.
 * @param pattern a JavaScript regular expression source, no slashes, no flags
 * @returns a sentence fragment for people, or null
 * @example urlPatternProblem('/blog/') → null
 * @example urlPatternProblem('(unclosed') → 'not a valid regular expression: … Unterminated group'
 * @example urlPatternProblem('') → 'empty'
 */
export function urlPatternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'empty';
  if (pattern.length > MAX_URL_REGEX_CHARS) return `longer than ${MAX_URL_REGEX_CHARS} characters`;
  try {
    new RegExp(pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `not a valid regular expression: ${message.replace(/^Invalid regular expression: /, '')}`;
  }
  return null;
}
