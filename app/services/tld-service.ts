import fs from 'node:fs';
import path from 'node:path';
import type { DomainTestResult, PublicSuffixImport } from '../../shared/ipc/views';
import { fallbackAdvice, registrableDomain } from '../../shared/url/domain';
import { tldEntryProblem, type TldConfig } from '../../shared/url/tld-config';
import { resourcesDir } from './resources';
import { publicSuffixListSnapshot } from './url-services';

/**
 * Seed 000's domain algorithm for one URL or host under the given lists, step by step (the
 * Settings view's "Test a URL"). PSL mode uses the shipped Public Suffix List snapshot. A
 * fallback to the last two terms comes with a readable warning saying what to add to the lists
 * (the seed's DEBUG line stays the resolver's log message).
 * @example testDomain('http://www.xyz.co.uk/', { mode: 'seed', generic: ['com'], additional: ['co.uk'] }).registrableDomain → 'xyz.co.uk'
 */
export function testDomain(url: string, tld: TldConfig): DomainTestResult {
  const result = registrableDomain(url.trim(), tld, tld.mode === 'psl' ? publicSuffixListSnapshot() : undefined);
  return {
    host: result.host,
    registrableDomain: result.registrableDomain,
    publicSuffix: result.publicSuffix,
    fellBack: result.fellBack,
    warning: result.fellBack ? fallbackAdvice(result.host) : null,
    error: result.error?.message ?? null,
    trace: result.trace,
  };
}

let cachedImport: PublicSuffixImport | null = null;

/**
 * The Public Suffix List snapshot's plain rules as "Additional TLDs" entries (ICANN section, then
 * PRIVATE), for seed mode. Wildcard and exception rules cannot be list entries and are counted
 * in `skipped`. Read once per process from resources/tld/public_suffix_list.dat.
 * @throws Error when the resources folder or the list is missing
 */
export function publicSuffixImport(): PublicSuffixImport {
  if (cachedImport) return cachedImport;
  const folder = path.join(resourcesDir(), 'tld');
  const text = fs.readFileSync(path.join(folder, 'public_suffix_list.dat'), 'utf8');
  const meta = JSON.parse(fs.readFileSync(path.join(folder, 'public_suffix_list.meta.json'), 'utf8')) as { snapshotDate?: string };
  const rules: string[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim().split(/\s/)[0] ?? '';
    if (line === '' || line.startsWith('//')) continue;
    const rule = line.toLowerCase();
    if (rule.includes('*') || rule.startsWith('!') || tldEntryProblem(rule, 'additional') !== null) {
      skipped += 1;
      continue;
    }
    if (!seen.has(rule)) {
      seen.add(rule);
      rules.push(rule);
    }
  }
  cachedImport = { rules, skipped, snapshotDate: meta.snapshotDate ?? 'unknown' };
  return cachedImport;
}
