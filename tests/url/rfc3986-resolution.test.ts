import { describe, expect, it } from 'vitest';
import { resolveHref } from '../../shared/url';
import { readConformanceJson } from './conformance';

interface ResolutionCase {
  base: string;
  input: string;
  expected: string;
  section: string;
}

const cases = readConformanceJson<ResolutionCase[]>('rfc3986_resolution.json');

/**
 * Where WHATWG URL resolution deliberately differs from RFC 3986 §5.4, with the reason. The raw
 * URL is defined by WHATWG semantics (seed 001: `new URL(href, baseURI)`), so these are expected.
 */
const WHATWG_DIFFERENCES: Record<string, { whatwg: string; reason: string }> = {
  '//g': {
    whatwg: 'http://g/',
    reason: 'WHATWG serializes the empty path of a special-scheme URL as "/"; RFC 3986 §6.2.3 treats http://g and http://g/ as equivalent',
  },
  'http:g': {
    whatwg: 'http://a/b/c/g',
    reason: 'RFC 3986 §5.4.2 gives "http:g" for strict parsers and allows http://a/b/c/g for backward compatibility; WHATWG takes the backward-compatible reading for a same-scheme special URL',
  },
};

describe('RFC 3986 §5.4 reference resolution examples (base http://a/b/c/d;p?q)', () => {
  it('has the 42 examples (23 normal, 19 abnormal)', () => {
    expect(cases).toHaveLength(42);
  });
  for (const c of cases) {
    const difference = WHATWG_DIFFERENCES[c.input];
    it(`${c.section}: "${c.input}" → ${difference === undefined ? c.expected : `${difference.whatwg} (WHATWG; RFC: ${c.expected})`}`, () => {
      expect(resolveHref(c.input, c.base)).toEqual({ ok: true, value: difference?.whatwg ?? c.expected });
    });
  }
  it('every listed WHATWG difference is still a real difference', () => {
    for (const input of Object.keys(WHATWG_DIFFERENCES)) {
      const c = cases.find((candidate) => candidate.input === input);
      expect(c?.expected).toBeDefined();
      expect(WHATWG_DIFFERENCES[input]?.whatwg).not.toBe(c?.expected);
    }
  });
});
