/**
 * htmlparser2's Tokenizer with its skips done by `String.prototype.indexOf`.
 *
 * With entity decoding off (as the page scan runs it, parse-html.ts), the Tokenizer skips through
 * a text run to the next `<`, through a quoted attribute value to its closing quote, and through
 * comments and `<script>`/`<style>` bodies to the character that may end them, in its private
 * `fastForwardTo(c)`: a loop that reads and writes `this.index` for every character. V8's indexOf
 * scans a one-byte string natively. On the synthetic site's 44 KB pages (40,000 characters of text)
 * the page scan took 253-352 µs a page with the loop and 168-223 µs with indexOf, alternating, the
 * same results; on the Python docs' markup-dense pages it is level (their runs are short).
 *
 * `fastForwardTo(c)` is htmlparser2 10.1.0's (package.json pins it): it moves `index` to the next
 * `c` after it and returns true, or to the buffer's last character and returns false. Its fields
 * (`buffer`, `offset`, `index`) are private to the library. If a version lacks them, the
 * subclass keeps the library's own method (same results, its speed): see {@link SKIPS_BY_INDEX_OF}.
 */
import { Tokenizer } from 'htmlparser2';

/** The Tokenizer fields a skip reads and moves (private in htmlparser2's types). */
interface TokenizerPosition {
  /** The text written so far, less what was dropped from its front. */
  buffer: string;
  /** Characters dropped from the front of `buffer`: `index - offset` is a position in it. */
  offset: number;
  /** The character being read, counted from the start of the document. */
  index: number;
}

/**
 * The skip: the next `code` after the current character, found by indexOf; at the buffer's end,
 * the index on its last character (the Tokenizer's loop then moves past it and waits for more).
 */
function fastForwardTo(this: TokenizerPosition, code: number): boolean {
  const at = this.buffer.indexOf(String.fromCharCode(code), this.index + 1 - this.offset);
  if (at !== -1) {
    this.index = at + this.offset;
    return true;
  }
  this.index = this.buffer.length + this.offset - 1;
  return false;
}

/** The htmlparser2 Tokenizer whose skips use indexOf (see the file comment); otherwise the same class. */
export class SkippingTokenizer extends Tokenizer {}

/** True when the installed htmlparser2 has the method this module replaces (it is replaced only then). */
export const SKIPS_BY_INDEX_OF = typeof (Tokenizer.prototype as unknown as Record<string, unknown>)['fastForwardTo'] === 'function';

if (SKIPS_BY_INDEX_OF) Object.defineProperty(SkippingTokenizer.prototype, 'fastForwardTo', { value: fastForwardTo, writable: true, configurable: true });
