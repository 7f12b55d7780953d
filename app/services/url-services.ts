import fs from 'node:fs';
import path from 'node:path';
import {
  createDomainResolver,
  DEFAULT_GENERIC_TLDS,
  parsePublicSuffixList,
  PROFILES,
  type NormalizationProfile,
  type PublicSuffixList,
  type TldConfig,
} from '../../shared/url';
import { createUrlIdentifier, type UrlIdentity } from '../../engine';
import { createCrawlNormalizer } from '../../shared/url/dust/identity';
import type { DustRule } from '../../shared/url/dust/rule';
import type { Result } from '../../shared/types/result';
import { resourcesDir } from './resources';

let snapshot: PublicSuffixList | null = null;

/** The Public Suffix List snapshot shipped in resources/tld/, parsed once per process. */
export function publicSuffixListSnapshot(): PublicSuffixList {
  snapshot ??= parsePublicSuffixList(fs.readFileSync(path.join(resourcesDir(), 'tld', 'public_suffix_list.dat'), 'utf8'));
  return snapshot;
}

/** The default TLD configuration: PSL mode with seed 000's generic list (issue 3). */
export function defaultTldConfig(): TldConfig {
  return { mode: 'psl', generic: [...DEFAULT_GENERIC_TLDS], additional: [] };
}

/**
 * The URL identity function a crawl uses: normalization under `profile` (default `standard`)
 * after the crawl's accepted DUST rules (`rules`, acceptance order; shared/url/dust), and
 * registrable domains under `tld` (default PSL mode).
 */
export function createCrawlIdentifier(
  profile: NormalizationProfile = PROFILES.standard,
  tld: TldConfig = defaultTldConfig(),
  rules: readonly DustRule[] = [],
): (raw: string) => Result<UrlIdentity> {
  const normalize = createCrawlNormalizer(profile, rules);
  const domainOf = createDomainResolver(tld, tld.mode === 'psl' ? publicSuffixListSnapshot() : undefined);
  return createUrlIdentifier(normalize, (host) => domainOf(host).registrableDomain);
}
