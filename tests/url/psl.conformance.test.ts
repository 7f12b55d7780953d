import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDomainResolver, DEFAULT_TLD_CONFIG, parsePublicSuffixList, registrableDomain } from '../../shared/url';
import { readConformanceJson, REPO_ROOT } from './conformance';

interface PslCase {
  input: string | null;
  expected: string | null;
  section: string;
}

const cases = readConformanceJson<PslCase[]>('psl_tests.json');
const psl = parsePublicSuffixList(fs.readFileSync(path.join(REPO_ROOT, 'resources/tld/public_suffix_list.dat'), 'utf8'));

describe('Public Suffix List test cases (publicsuffix/list tests/test_psl.txt) in PSL mode', () => {
  it('has all 78 cases', () => {
    expect(cases).toHaveLength(78);
  });

  it('registrableDomain passes 100%', () => {
    const failures = cases.filter((c) => registrableDomain(c.input, DEFAULT_TLD_CONFIG, psl).registrableDomain !== c.expected);
    expect(failures).toEqual([]);
  });

  it('the hot-path resolver passes 100%', () => {
    const resolve = createDomainResolver(DEFAULT_TLD_CONFIG, psl);
    const failures = cases.filter((c) => resolve(c.input ?? '').registrableDomain !== c.expected);
    expect(failures).toEqual([]);
  });

  it('the snapshot has no rule below an exception rule, so longest-first checking is the PSL algorithm', () => {
    const rules = fs
      .readFileSync(path.join(REPO_ROOT, 'resources/tld/public_suffix_list.dat'), 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s/)[0] ?? '')
      .filter((rule) => rule !== '' && !rule.startsWith('//'));
    const exceptions = rules.filter((rule) => rule.startsWith('!')).map((rule) => rule.slice(1));
    expect(exceptions.length).toBeGreaterThan(0);
    expect(rules.filter((rule) => exceptions.some((exception) => rule.endsWith('.' + exception)))).toEqual([]);
  });

  it('parses both sections of the snapshot', () => {
    expect(psl.counts).toEqual({ icann: 6949, private: 3299 });
  });
});
