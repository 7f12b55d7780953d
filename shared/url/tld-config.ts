/**
 * The registrable-domain settings (seed 000's `crawlscope.top-level-domains.generic` and
 * `.additional` lists, plus the mode) and their validation.
 */
import { err, ok, type Result } from './result';

/** Registrable-domain settings (JSON-serialisable; stored in the app's settings). */
export interface TldConfig {
  /**
   * `seed`: seed 000's algorithm over the two lists, exactly. `psl`: the Public Suffix List
   * algorithm, with the PSL's rules added to the additional list (see domain.ts).
   */
  mode: 'seed' | 'psl';
  /** Generic TLDs, one label each (`com`): a host ending in one takes its last two terms. */
  generic: string[];
  /** Additional suffixes (`co.uk`): the longest one the host ends in, plus one label, is the domain. */
  additional: string[];
}

/**
 * The generic TLD list. Seed 000 (Oracle Endeca Web Crawler, `crawlscope.top-level-domains.generic`)
 * names `com` as its example and says the list holds "generic top-level domain names" but does not
 * print its default value, so the list is reconstructed from its definition: the generic TLDs of
 * RFC 1591 (com, org, net, edu, gov, mil, int) and the generic and sponsored TLDs ICANN delegated
 * before the 2012 new-gTLD round (IANA Root Zone Database: info, biz, name, pro, aero, coop,
 * museum, mobi, asia, jobs, tel, travel, cat, post, xxx).
 */
export const DEFAULT_GENERIC_TLDS: readonly string[] = Object.freeze([
  'com',
  'org',
  'net',
  'edu',
  'gov',
  'mil',
  'int',
  'info',
  'biz',
  'name',
  'pro',
  'aero',
  'coop',
  'museum',
  'mobi',
  'asia',
  'jobs',
  'tel',
  'travel',
  'cat',
  'post',
  'xxx',
]);

/** The default settings: PSL mode with the seed's generic list and no additional entries (issue 3). */
export const DEFAULT_TLD_CONFIG: Readonly<TldConfig> = Object.freeze({ mode: 'psl', generic: [...DEFAULT_GENERIC_TLDS], additional: [] });

/** Why one label is unacceptable, or null. Labels are lowercase LDH (or lowercase Unicode). */
function labelProblem(label: string): string | null {
  if (label === '') return 'has an empty label';
  if (label !== label.toLowerCase()) return 'must be lowercase';
  for (let i = 0; i < label.length; i++) {
    const code = label.charCodeAt(i);
    const allowed = (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45 || code === 95 || code >= 0x80;
    if (!allowed) return `contains "${label[i]}" (labels are letters, digits, "-" and "_")`;
  }
  return null;
}

/**
 * Checks one list entry: lowercase labels joined by dots, no leading or trailing dot, no empty
 * label; a generic entry must be a single label.
 * @returns a message such as `has a leading dot`, or null when the entry is fine
 * @example tldEntryProblem('.co.uk', 'additional') → 'has a leading dot (write "co.uk")'
 */
export function tldEntryProblem(entry: string, list: 'generic' | 'additional'): string | null {
  if (entry.trim() === '') return 'is empty';
  if (entry.trim() !== entry) return 'has surrounding spaces';
  if (entry.startsWith('.')) return `has a leading dot (write "${entry.replace(/^\.+/, '')}")`;
  if (entry.endsWith('.')) return `has a trailing dot (write "${entry.replace(/\.+$/, '')}")`;
  const labels = entry.split('.');
  if (list === 'generic' && labels.length > 1) return 'must be a single label (put multi-label suffixes such as "co.uk" in the additional list)';
  for (const label of labels) {
    const problem = labelProblem(label);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * Validates registrable-domain settings (from settings storage or the GUI).
 * @returns the settings (fresh copies of the lists), or INVALID_TLD_CONFIG naming the bad entry,
 *   e.g. `additional[0] ".co.uk" has a leading dot (write "co.uk")`
 * @example validateTldConfig({ mode: 'seed', generic: ['com'], additional: ['Co.UK'] }) → { ok: false, error: { code: 'INVALID_TLD_CONFIG', message: 'additional[0] "Co.UK" must be lowercase' } }
 */
export function validateTldConfig(value: unknown): Result<TldConfig> {
  const fail = (message: string): Result<TldConfig> => err('INVALID_TLD_CONFIG', message);
  if (typeof value !== 'object' || value === null) return fail('TLD settings must be an object');
  const record = value as Record<string, unknown>;
  if (record['mode'] !== 'seed' && record['mode'] !== 'psl') return fail('mode must be "seed" or "psl"');
  const lists: Record<'generic' | 'additional', string[]> = { generic: [], additional: [] };
  for (const list of ['generic', 'additional'] as const) {
    const entries = record[list];
    if (!Array.isArray(entries)) return fail(`${list} must be an array of strings`);
    for (const [index, entry] of entries.entries()) {
      if (typeof entry !== 'string') return fail(`${list}[${index}] must be a string`);
      const problem = tldEntryProblem(entry, list);
      if (problem !== null) return fail(`${list}[${index}] "${entry}" ${problem}`);
      lists[list].push(entry);
    }
  }
  return ok({ mode: record['mode'], generic: lists.generic, additional: lists.additional });
}
