/** The context the canonical layers of a crawl's URL groups run in: its site rules, registrable domains and normalization profile. */
import type { CrawlSettings } from '../../shared/types/crawl';
import { createDomainResolver } from '../../shared/url/domain';
import type { GroupCanonicalContext } from '../../shared/url/group-canonical';
import type { NormalizationProfile } from '../../shared/url/profiles';
import { parseSiteRules, type CompiledSiteRules } from '../../shared/url/site-rules';
import { DEFAULT_SITE_RULES } from '../../shared/url/site-rules.default';
import { validateTldConfig } from '../../shared/url/tld-config';
import { defaultTldConfig, publicSuffixListSnapshot } from './url-services';

let shippedRules: CompiledSiteRules | null = null;

/** The site rules shipped with Crawlbench (shared/url/site-rules.default.ts), compiled once. */
function siteRules(): CompiledSiteRules {
  if (shippedRules === null) {
    const compiled = parseSiteRules(DEFAULT_SITE_RULES);
    // The shipped document is checked by tests/url/resources.test.ts: failing here is a build defect.
    if (!compiled.ok) throw new Error(`The shipped site rules do not compile: ${compiled.error.message}`);
    shippedRules = compiled.value;
  }
  return shippedRules;
}

/**
 * The canonical layers' context for a crawl: the shipped site rules, registrable domains under the
 * crawl's TLD settings (PSL mode by default; an unreadable setting falls back to the default, as
 * the crawl itself would not have started with it) and the crawl's normalization profile.
 */
export function groupCanonicalContext(settings: Partial<CrawlSettings>, profile: NormalizationProfile): GroupCanonicalContext {
  const valid = validateTldConfig(settings.tld);
  const tld = valid.ok ? valid.value : defaultTldConfig();
  return { siteRules: siteRules(), domainOf: createDomainResolver(tld, tld.mode === 'psl' ? publicSuffixListSnapshot() : undefined), profile };
}
