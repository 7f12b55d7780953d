import { describe, expect, it } from 'vitest';
import { normalizeUrl, PROFILES } from '../../shared/url';
import { readConformanceJson } from './conformance';

const cases = Object.entries(readConformanceJson<Record<string, string>>('urlcanon/semantic_precise.json'));

/**
 * Measured pass count of iipc/urlcanon's semantic_precise group under the `safe` profile (floor).
 * The rest are urlcanon's own opinions, not semantics-preserving RFC 3986 §6.2.2-6.2.3
 * normalization: it strips userinfo, sorts the query, decodes escapes repeatedly and outside the
 * unreserved set, prepends "http://" to scheme-less input, treats "%2e" hosts as 0.0.0.0; and
 * some inputs are UTF-8 bytes stored as Latin-1 text in the JSON.
 */
const MEASURED_PASSES = 162;

describe('urlcanon semantic_precise under the safe profile', () => {
  it('has 280 cases', () => {
    expect(cases).toHaveLength(280);
  });
  it(`passes at least ${MEASURED_PASSES} of them`, () => {
    const passed = cases.filter(([input, expected]) => {
      const result = normalizeUrl(input, PROFILES.safe);
      return result.ok && result.value.normalized === expected;
    });
    expect(passed.length).toBeGreaterThanOrEqual(MEASURED_PASSES);
  });
  it('examples that pass', () => {
    const examples: [string, string][] = [
      ['http://www.GOOgle.com/', 'http://www.google.com/'],
      ['http://host/%7Euser', 'http://host/~user'],
      ['http://example.com/foo/bar/../ton/../../a', 'http://example.com/a'],
      ['https://foo:443/', 'https://foo/'],
      ['http://192.0x00A80001', 'http://192.168.0.1/'],
    ];
    for (const [input, expected] of examples) expect(normalizeUrl(input, PROFILES.safe)).toMatchObject({ ok: true, value: { normalized: expected } });
  });
});
