/**
 * shared/url: raw URLs, normalization rules and profiles, normalized keys, canonical URLs,
 * version templates and registrable domains (issue 3). Pure TypeScript: no Node, DOM or
 * Electron; the Public Suffix List text and site-rule JSON are passed in by the caller.
 */
export { ok, err, type ErrorInfo, type Result } from './result';
export { resolveHref, documentBaseUrl, rawUrlOfLink } from './resolve';
export { parseUrlParts, serializeUrlParts, DEFAULT_PORTS, type UrlParts } from './parse';
export { RULE_ORDER, RULE_INFO, removeDotSegmentsFromPath, type NormalizationRuleName, type RuleFiring, type RuleInfo } from './rules';
export {
  PROFILES,
  DEFAULT_DIRECTORY_INDEXES,
  DEFAULT_REMOVED_QUERY_PARAMS,
  DEFAULT_FILE_EXTENSIONS,
  customProfile,
  validateProfile,
  type BuiltInProfileName,
  type NormalizationProfile,
} from './profiles';
export { normalizeUrl, createNormalizer, createStringNormalizer, type NormalizedUrl, type NormalizeOptions } from './normalize';
export { normalizedKey, NORMALIZED_KEY_NAMESPACE } from './key';
export { uuidV5, parseUuid } from './sha1';
export {
  canonicalUrl,
  chooseGroupCanonical,
  differenceCauses,
  GROUP_HEURISTICS,
  RULE_CAUSES,
  type CanonicalContext,
  type CanonicalInput,
  type CanonicalLayer,
  type CanonicalResult,
  type CanonicalStep,
  type DifferenceCause,
  type DifferenceReport,
  type GroupCanonical,
  type GroupHeuristic,
  type GroupMember,
} from './canonical';
export { parseLinkHeader, type HeaderLink } from './link-header';
export { parseSiteRules, applySiteRules, type CompiledSiteRules, type SiteRule, type SiteRuleSet, type SiteRewrite } from './site-rules';
export { DEFAULT_SITE_RULES } from './site-rules.default';
export { groupByVersionTemplate, fillVersionTemplate, isVersionSegment, VERSION_CHANNELS, type VersionGrouping, type VersionTemplate } from './version-template';
export { DEFAULT_GENERIC_TLDS, DEFAULT_TLD_CONFIG, validateTldConfig, tldEntryProblem, type TldConfig } from './tld-config';
export {
  createDomainResolver,
  registrableDomain,
  type DomainLogger,
  type DomainOptions,
  type DomainResult,
  type TraceStep,
} from './domain';
export { parsePublicSuffixList, matchSuffix, withExtraRules, type PublicSuffixList, type SuffixMatch, type SuffixNode, type SuffixRuleSource } from './psl';
export { extractHost, type ExtractedHost, type HostKind } from './host';
export { punycodeEncode, punycodeDecode, domainToAscii, domainToUnicode } from './punycode';
export { toDisplayUrl } from './display';
export { EncodeSet, percentEncode, uppercasePercentEscapes, decodeUnreservedEscapes, isUnreserved } from './percent';
