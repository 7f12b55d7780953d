import { describe, expect, it } from 'vitest';
import { DEFAULT_GENERIC_TLDS, DEFAULT_TLD_CONFIG, tldEntryProblem, validateTldConfig } from './tld-config';

describe('TLD settings', () => {
  it('default: PSL mode with the seed generic list (com, org, net, edu, gov, mil, int, info, biz, …)', () => {
    expect(DEFAULT_TLD_CONFIG.mode).toBe('psl');
    expect(DEFAULT_GENERIC_TLDS.slice(0, 9)).toEqual(['com', 'org', 'net', 'edu', 'gov', 'mil', 'int', 'info', 'biz']);
    expect(validateTldConfig(DEFAULT_TLD_CONFIG).ok).toBe(true);
  });

  const bad: [unknown, string][] = [
    [null, 'TLD settings must be an object'],
    [{ mode: 'dns', generic: [], additional: [] }, 'mode must be "seed" or "psl"'],
    [{ mode: 'seed', generic: 'com', additional: [] }, 'generic must be an array of strings'],
    [{ mode: 'seed', generic: ['co.uk'], additional: [] }, 'generic[0] "co.uk" must be a single label'],
    [{ mode: 'seed', generic: [], additional: ['.co.uk'] }, 'additional[0] ".co.uk" has a leading dot (write "co.uk")'],
    [{ mode: 'seed', generic: [], additional: ['co.uk.'] }, 'additional[0] "co.uk." has a trailing dot'],
    [{ mode: 'seed', generic: [], additional: ['co..uk'] }, 'additional[0] "co..uk" has an empty label'],
    [{ mode: 'seed', generic: [], additional: ['Co.UK'] }, 'additional[0] "Co.UK" must be lowercase'],
    [{ mode: 'seed', generic: [], additional: ['co uk'] }, 'additional[0] "co uk" contains " "'],
    [{ mode: 'seed', generic: [], additional: [''] }, 'additional[0] "" is empty'],
    [{ mode: 'psl', generic: [], additional: [7] }, 'additional[0] must be a string'],
  ];
  for (const [value, message] of bad) {
    it(`rejects: ${message}`, () => {
      const result = validateTldConfig(value);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_TLD_CONFIG' } });
      expect(!result.ok && result.error.message).toContain(message);
    });
  }

  it('accepts Unicode lowercase labels', () => {
    expect(tldEntryProblem('公司.cn', 'additional')).toBeNull();
  });
});
