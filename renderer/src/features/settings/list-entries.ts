import { validateSetting } from '../../../../shared/types/crawl-settings';
import { tldEntryProblem } from '../../../../shared/url/tld-config';

/** Why an entry cannot join a list, or null. */
export type EntryValidator = (entry: string) => string | null;

/** Generic TLDs: one lowercase label each (seed 000). */
export const genericTldProblem: EntryValidator = (entry) => tldEntryProblem(entry, 'generic');

/** Additional TLDs: lowercase suffixes such as `co.uk` (seed 000). */
export const additionalTldProblem: EntryValidator = (entry) => tldEntryProblem(entry, 'additional');

/**
 * Ignored extensions (seed 004's "Ignore Links To"): lowercase letters and digits, no dot; an
 * entry is valid when it is one extension the `ignoredExtensions` setting's schema accepts.
 * @example extensionProblem('.PDF') → 'must be lowercase letters and digits without the dot (write "pdf")'
 */
export const extensionProblem: EntryValidator = (entry) => {
  if (entry === '') return 'is empty';
  if (!entry.includes('|') && validateSetting('ignoredExtensions', entry).ok) return null;
  const suggestion = entry.trim().replace(/^\.+/, '').toLowerCase();
  return /^[a-z0-9]+$/.test(suggestion) ? `must be lowercase letters and digits without the dot (write "${suggestion}")` : 'must be lowercase letters and digits without the dot';
};

/**
 * Reads an imported file: entries separated by newlines, commas, `|` or spaces; `#` and `//`
 * start a comment line. Valid new entries are kept in order; the rest are reported.
 * @example importEntries('pdf|doc\n.PS', [], extensionProblem) → { added: ['pdf', 'doc'], rejected: ['".PS" must be lowercase letters and digits without the dot (write "ps")'] }
 */
export function importEntries(text: string, existing: readonly string[], problem: EntryValidator): { added: string[]; rejected: string[] } {
  const seen = new Set(existing);
  const added: string[] = [];
  const rejected: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('//')) continue;
    for (const entry of trimmed.split(/[|,\s]+/).filter(Boolean)) {
      const why = problem(entry);
      if (why !== null) rejected.push(`"${entry}" ${why}`);
      else if (!seen.has(entry)) {
        seen.add(entry);
        added.push(entry);
      }
    }
  }
  return { added, rejected };
}

/** Seed 004's pipe-separated list as entries. @example splitPipeList('zip||gz|') → ['zip', 'gz'] */
export function splitPipeList(list: string): string[] {
  return list.split('|').filter(Boolean);
}
