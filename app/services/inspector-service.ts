/** The URL inspector's answers (issue 11 part 3): one URL's whole story from the store, and its actions (re-fetch, exclude URLs like this). */
import { readActiveRules, type CrawlReader, type DuplicateQueries, type InspectedAlias, type InspectedPageRecord, type InspectedUrlRecord, type InspectorQueries, type VersionQueries } from '../../engine';
import { urlSourcesOf } from '../../shared/types/url-sources';
import {
  INSPECTOR_LINKS_PER_PAGE,
  type ExcludeAnswer,
  type ExclusionOption,
  type ExclusionRule,
  type InspectorNames,
  type InspectorRedirects,
  type InspectorResponse,
  type InspectorRobots,
  type RedirectHopRow,
  type RefetchAnswer,
  type TimelineStep,
  type UrlInspection,
} from '../../shared/ipc/inspector-view';
import type { CrawlSettings } from '../../shared/types/crawl';
import { validateSetting } from '../../shared/types/crawl-settings';
import { CodedError } from '../../shared/types/result';
import { createCrawlNormalizer } from '../../shared/url/dust/identity';
import type { CrawlService } from './crawl-service';
import { groupCanonical } from '../../shared/url/group-canonical';
import { groupCanonicalContext } from './canonical-context';
import { crawlProfile, urlGroupDetail } from './duplicates-service';

/** What an inspection reads: the inspector's and the Duplicates view's queries, and the crawl's row reader. */
export interface InspectorSources {
  queries: InspectorQueries;
  duplicates: DuplicateQueries;
  crawls: CrawlReader;
  /** The crawl's stored version URL templates (migration 0021). */
  versions: VersionQueries;
}

/** Extensions of pages, never offered by "Exclude URLs like this" (ignoring them would refuse the site's pages). */
const PAGE_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'shtml', 'php', 'asp', 'aspx', 'jsp', 'cfm', 'cgi', 'pl']);

const isRedirectStatus = (status: number | null | undefined): boolean => status !== null && status !== undefined && status >= 300 && status < 400;

/**
 * Everything the URL inspector shows for URL `urlId` of crawl `crawlId`: Names, Response,
 * Redirect chain, Robots, Timeline (from stored fields only), the first
 * INSPECTOR_LINKS_PER_PAGE inlinks and outlinks with their totals, Duplicates and the exclusions
 * that fit it.
 * @param running whether the crawl runs now in this process
 * @throws CodedError CRAWL_NOT_FOUND, URL_NOT_FOUND (the crawl has no such URL)
 */
export function inspectUrl(sources: InspectorSources, crawlId: number, urlId: number, running: boolean): UrlInspection {
  const settings = sources.crawls.getCrawl(crawlId).settings;
  const record = sources.queries.url(crawlId, urlId);
  if (!record) throw new CodedError('URL_NOT_FOUND', `Crawl ${crawlId} has no URL ${urlId}`);
  const page = sources.queries.page(urlId);
  const redirects = redirectsOf(sources.queries.redirectChain(crawlId, urlId), record, page);
  return {
    crawlId,
    urlId,
    url: record.url,
    crawlRunning: running,
    names: namesOf(sources, crawlId, record, page, redirects, settings),
    sources: { sources: urlSourcesOf(record.sources), sitemaps: sources.queries.sitemaps(urlId) },
    response: responseOf(record, page),
    redirects,
    robots: robotsOf(record, page, settings),
    timeline: timelineOf(sources.queries, crawlId, record),
    inlinks: sources.queries.inlinks(crawlId, urlId, { offset: 0, limit: INSPECTOR_LINKS_PER_PAGE }),
    outlinks: sources.queries.outlinks(crawlId, urlId, { offset: 0, limit: INSPECTOR_LINKS_PER_PAGE }),
    duplicates: duplicatesOf(sources, crawlId, urlId, settings),
    extracted: sources.queries.extracted(urlId),
    render: sources.queries.render(urlId),
    exclusions: exclusionsOf(sources.queries, crawlId, record, settings),
  };
}

function redirectsOf(chain: RedirectHopRow[], record: InspectedUrlRecord, page: InspectedPageRecord | undefined): InspectorRedirects {
  const redirecting = isRedirectStatus(record.httpStatus) || (page?.location ?? null) !== null;
  const role: InspectorRedirects['role'] = redirecting ? 'redirects' : chain.length > 1 && chain[0]!.urlId !== record.urlId ? 'target' : 'none';
  return { role, hops: chain.length > 0 ? chain : [{ urlId: record.urlId, url: record.url, state: record.state, status: record.httpStatus, location: null, fetchMs: page?.fetchMs ?? null, errorCode: record.errorCode, refusedBy: null }] };
}

function namesOf(
  sources: InspectorSources,
  crawlId: number,
  record: InspectedUrlRecord,
  page: InspectedPageRecord | undefined,
  redirects: InspectorRedirects,
  settings: CrawlSettings,
): InspectorNames {
  const profile = crawlProfile(settings);
  const spellings = sources.queries.aliases(record.urlId);
  return {
    spellings: spellings.length > 0 ? spellings : [{ rawUrl: record.url, firstSeenFromId: record.discoveredFromId, firstSeenFromUrl: record.discoveredFromUrl }],
    normalized: record.normalized,
    normalizedKey: record.normalizedKey,
    profileName: profile.name,
    canonical: canonicalOf(sources, crawlId, record, page, redirects, settings, spellings),
    versionTemplate: versionTemplateOf(sources.versions, crawlId, record.urlId),
  };
}

/**
 * The canonical URL by the first layer that applies (shared/url/group-canonical.ts, the one
 * decision the Duplicates view and the export make too): the URL redirects (the chain's end), a
 * site rule rewrites it, the page names one with rel=canonical on its own site, two or more
 * spellings share its key (the group heuristics, never a session or tracking spelling while a
 * clean one exists), else the URL itself.
 */
function canonicalOf(
  sources: InspectorSources,
  crawlId: number,
  record: InspectedUrlRecord,
  page: InspectedPageRecord | undefined,
  redirects: InspectorRedirects,
  settings: CrawlSettings,
  spellings: readonly InspectedAlias[],
): InspectorNames['canonical'] {
  const from = redirects.hops.findIndex((hop) => hop.urlId === record.urlId);
  const end = redirects.hops.at(-1)!;
  const redirected = redirects.role === 'redirects' && end.urlId !== record.urlId;
  const profile = crawlProfile(settings);
  const members = (spellings.length > 0 ? spellings.map((spelling) => spelling.rawUrl) : [record.url]).map((rawUrl) => ({ rawUrl, ...(rawUrl === record.url && record.httpStatus !== null ? { status: record.httpStatus } : {}) }));
  const chosen = groupCanonical({ fetchedUrl: record.url, redirectTarget: redirected ? end.url : null, relCanonical: page?.canonicalUrl ?? null, members }, groupCanonicalContext(settings, profile));
  const idOf = (url: string): number | null => (url === record.url ? record.urlId : urlIdOf(sources.crawls, crawlId, url, settings));
  switch (chosen.layer) {
    case 'redirect': {
      const steps = redirects.hops.length - 1 - Math.max(0, from);
      return { url: end.url, urlId: end.urlId, source: 'redirect', heuristic: null, detail: `${steps} redirect${steps === 1 ? '' : 's'} to the end of the chain` };
    }
    case 'siteRule':
      return { url: chosen.canonical, urlId: idOf(chosen.canonical), source: 'siteRule', heuristic: null, detail: `site rule "${chosen.siteRuleId ?? ''}" rewrites the URL` };
    case 'relCanonical': {
      const self = chosen.canonical === record.url || chosen.canonical === page?.finalUrl;
      return { url: chosen.canonical, urlId: self ? record.urlId : idOf(chosen.canonical), source: 'relCanonical', heuristic: null, detail: self ? 'the page names itself' : 'the page names another URL' };
    }
    case 'heuristic':
      if (members.length > 1) return { url: chosen.canonical, urlId: record.urlId, source: 'groupHeuristic', heuristic: chosen.decidedBy, detail: `chosen among ${members.length} spellings` };
      return { url: record.url, urlId: record.urlId, source: 'none', heuristic: null, detail: 'no redirect, no site rule, no rel=canonical and one spelling: the URL stands for itself' };
    default: {
      const exhaustive: never = chosen.layer;
      throw new Error(`Unknown canonical layer ${String(exhaustive)}`);
    }
  }
}

/** The crawl's URL id of `url` (by its normalized key under the crawl's profile and accepted DUST rules), or null. */
function urlIdOf(crawls: CrawlReader, crawlId: number, url: string, settings: CrawlSettings): number | null {
  const normalized = createCrawlNormalizer(crawlProfile(settings), readActiveRules(crawls.db, crawlId))(url);
  return normalized.ok ? (crawls.findUrlId(crawlId, normalized.value.key) ?? null) : null;
}

/** Seed 001's version URL template of the URL as the crawl stored it (engine/store/sqlite/version-index.ts), or null. */
function versionTemplateOf(versions: VersionQueries, crawlId: number, urlId: number): InspectorNames['versionTemplate'] {
  const stored = versions.templateOfUrl(crawlId, urlId);
  return stored ? { template: stored.template, versions: stored.versions } : null;
}

function responseOf(record: InspectedUrlRecord, page: InspectedPageRecord | undefined): InspectorResponse {
  return {
    state: record.state,
    status: page?.httpStatus ?? record.httpStatus,
    headers: parseHeaders(page?.responseHeadersJson ?? null),
    sizeBytes: page?.bodyBytes ?? null,
    truncated: page?.truncated ?? false,
    fetchMs: page?.fetchMs ?? null,
    fetchedAtMs: page?.fetchedAtMs ?? record.fetchedAtMs,
    contentType: page?.contentType ?? null,
    title: page?.title ?? null,
    indexability: page?.indexability ?? null,
    errorCode: record.errorCode,
    errorMessage: record.errorReason,
  };
}

/** The stored headers object (name → value; array values joined with ", "), or null when absent or not an object. */
function parseHeaders(json: string | null): Record<string, string> | null {
  if (json === null) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    return Object.fromEntries(Object.entries(value).map(([name, header]) => [name, Array.isArray(header) ? header.join(', ') : String(header)]));
  } catch {
    return null;
  }
}

/** The robots.txt verdict from what the crawl stored: a refusal's code and message, or a fetch (allowed). */
function robotsOf(record: InspectedUrlRecord, page: InspectedPageRecord | undefined, settings: CrawlSettings): InspectorRobots {
  const message = record.errorReason ?? '';
  if (record.state === 'blocked' || record.errorCode === 'ROBOTS_DISALLOWED') return { verdict: 'blocked', matchedLine: record.robotsLine, message: message || 'robots.txt disallows this URL' };
  if (record.errorCode === 'ROBOTS_UNAVAILABLE' || record.errorCode?.startsWith('ROBOTS_')) return { verdict: 'unavailable', matchedLine: null, message };
  if (!settings.obeyRobots) return { verdict: 'ignored', matchedLine: null, message: 'This crawl ignores robots.txt (--no-robots).' };
  if (page || record.attempts > 0 || record.state === 'in_flight') return { verdict: 'allowed', matchedLine: null, message: 'robots.txt allowed the fetch.' };
  return { verdict: 'not-checked', matchedLine: null, message: 'Not checked yet: robots.txt is checked right before the fetch.' };
}

/** A duration in seconds for a sentence, e.g. 1.2 s. */
function formatSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** The URL's life from its stored fields (what the store keeps; see the report for what a full timeline would need). */
function timelineOf(queries: InspectorQueries, crawlId: number, record: InspectedUrlRecord): TimelineStep[] {
  const steps: TimelineStep[] = [];
  if (record.discoveredFromId === null) {
    steps.push({ step: 'discovered', atMs: record.enqueuedAtMs, detail: `Seed URL, depth ${record.depth}; queued` });
  } else {
    const link = queries.discoveryLink(crawlId, record.urlId, record.discoveredFromId);
    const kind = link ? (link.kind === 'redirect' ? 'a redirect' : link.kind === 'a' ? 'a link' : `a ${link.kind} link`) : 'a link';
    const how = `${kind}${link?.anchorText ? ` “${link.anchorText}”` : ''}`;
    const hops = record.redirectHops > 0 ? `, ${record.redirectHops} redirect${record.redirectHops === 1 ? '' : 's'} down a chain` : '';
    steps.push({ step: 'discovered', atMs: record.enqueuedAtMs, detail: `Found through ${how} on ${record.discoveredFromUrl ?? `URL ${record.discoveredFromId}`}, depth ${record.depth}${hops}; queued`, urlId: record.discoveredFromId });
  }
  if (record.attempts > 0) {
    const retries = record.attempts - 1;
    // The wait in the frontier: from queued to (last) claimed, politeness and the host's queue included.
    const waited = record.claimedAtMs !== null && retries === 0 ? `, after ${formatSeconds(record.claimedAtMs - record.enqueuedAtMs)} in the frontier` : '';
    const retried = retries > 0 ? ` (${retries} retr${retries === 1 ? 'y' : 'ies'}${record.retryReason ? `; last retried after ${record.retryReason}` : ''})` : '';
    steps.push({ step: 'claimed', atMs: record.claimedAtMs, detail: `Claimed for fetching ${record.attempts} time${record.attempts === 1 ? '' : 's'}${retried}${waited}` });
  }
  if (record.state === 'pending') steps.push({ step: 'waiting', atMs: null, detail: "Waiting in its host's queue" });
  else if (record.state === 'in_flight') steps.push({ step: 'waiting', atMs: null, detail: 'Being fetched now' });
  else if (record.state === 'done') steps.push({ step: 'fetched', atMs: record.fetchedAtMs, detail: `Fetched${record.httpStatus !== null ? `: HTTP ${record.httpStatus}` : ''}` });
  else steps.push({ step: 'failed', atMs: record.fetchedAtMs ?? record.committedAtMs, detail: `${record.state === 'blocked' ? 'Blocked' : 'Failed'}: ${record.errorCode ?? 'no code'}${record.errorReason ? `, ${record.errorReason}` : ''}` });
  if (record.committedAtMs !== null && record.state !== 'pending' && record.state !== 'in_flight') steps.push({ step: 'committed', atMs: record.committedAtMs, detail: 'Outcome written to the crawl store' });
  return steps;
}

function duplicatesOf(sources: InspectorSources, crawlId: number, urlId: number, settings: CrawlSettings): UrlInspection['duplicates'] {
  const spellings = sources.queries.aliases(urlId).length;
  const groupId = sources.queries.contentGroupId(crawlId, urlId);
  const group = groupId === null ? undefined : sources.duplicates.contentGroup(crawlId, groupId);
  return {
    urlGroup: spellings > 1 ? urlGroupDetail(sources.duplicates, crawlId, urlId, settings) : null,
    contentGroup: group ? { groupId: group.id, kind: group.kind, members: sources.duplicates.contentMembers(group.id) } : null,
  };
}

/** The file extension of a URL's last path segment, lower case, or null. @example extensionOf('http://a.test/f/Report.PDF?x') → 'pdf' */
function extensionOf(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(path.slice(path.lastIndexOf('/') + 1));
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * The link rules "Exclude URLs like this" can add for the URL: its file extension to the ignored
 * extensions (not a page's extension such as html), its registrable domain to the excluded
 * domains (not a seed's domain: that would refuse the whole crawl); none already in the settings.
 */
function exclusionsOf(queries: InspectorQueries, crawlId: number, record: InspectedUrlRecord, settings: CrawlSettings): ExclusionOption[] {
  const options: ExclusionOption[] = [];
  const extension = extensionOf(record.url);
  const ignored = settings.ignoredExtensions.split('|').filter(Boolean);
  if (extension && !PAGE_EXTENSIONS.has(extension) && !ignored.includes(extension)) options.push({ rule: 'ignored-extension', value: extension, label: `Ignore .${extension} links` });
  const domain = (record.registrableDomain ?? record.host).toLowerCase();
  if (!queries.seedDomains(crawlId).includes(domain) && !settings.excludeDomains.includes(domain)) options.push({ rule: 'exclude-domains', value: domain, label: `Exclude the domain ${domain}` });
  return options;
}

/** What the actions need of the crawl service (CrawlService; a fake in tests). */
export interface CrawlControl {
  isRunning(crawlId: number): boolean;
  refetch(crawlId: number, urlId: number): Promise<'queued' | 'already-queued' | 'in-flight' | 'held' | 'not-found'>;
  stop(crawlId: number): boolean;
  whenStopped(crawlId: number): Promise<void>;
  resume(crawlId: number, overrides: Partial<CrawlSettings>): unknown;
  /** Stores a stopped crawl's settings (applied when it is resumed). */
  updateSettings(crawlId: number, settings: CrawlSettings): void;
}

/** The crawl service's side of the inspector's actions. */
export function crawlControlOf(crawls: CrawlService): CrawlControl {
  return {
    isRunning: (crawlId) => crawls.isRunning(crawlId),
    refetch: (crawlId, urlId) => crawls.refetch(crawlId, urlId),
    stop: (crawlId) => crawls.stop(crawlId),
    whenStopped: (crawlId) => crawls.whenStopped(crawlId),
    resume: (crawlId, overrides) => crawls.resume(crawlId, overrides),
    updateSettings: (crawlId, settings) => crawls.repositoryForQueries.updateSettings(crawlId, settings),
  };
}

/**
 * "Re-fetch now": puts the URL first in its host's queue in the running crawl.
 * @throws CodedError CRAWL_NOT_RUNNING (with what to do), URL_NOT_FOUND
 */
export async function refetchUrl(control: CrawlControl, crawlId: number, urlId: number, url: string): Promise<RefetchAnswer> {
  if (!control.isRunning(crawlId)) throw new CodedError('CRAWL_NOT_RUNNING', `Crawl ${crawlId} is not running: resume it, then re-fetch this URL.`);
  const outcome = await control.refetch(crawlId, urlId);
  switch (outcome) {
    case 'queued':
      return { outcome, message: `Queued ${url} first for its host: it is fetched again once its host's politeness delay allows.` };
    case 'already-queued':
      return { outcome, message: `${url} is already queued: it is fetched when its host's turn comes.` };
    case 'in-flight':
      return { outcome, message: `${url} is being fetched right now.` };
    case 'held':
      return { outcome, message: `${url} is held by a suspected crawler trap: release the trap (Frontier view, or crawlbench traps --release) to fetch it.` };
    case 'not-found':
      throw new CodedError('URL_NOT_FOUND', `Crawl ${crawlId} has no URL ${urlId}`);
    default: {
      const never: never = outcome;
      throw new Error(`unknown refetch outcome ${String(never)}`);
    }
  }
}

/**
 * "Exclude URLs like this": adds the URL's extension to the crawl's ignored extensions, or its
 * registrable domain to the crawl's excluded domains (the link rules `ignored-extension` and
 * `exclude-domains`). A running crawl is restarted with the new setting (as "Apply now" does);
 * a stopped one keeps it for its next resume. Links found from then on are refused; URLs already
 * queued stay queued.
 * @throws CodedError EXCLUSION_NOT_APPLICABLE (the rule does not fit this URL, or is already set), URL_NOT_FOUND, INVALID_SETTINGS
 */
export async function excludeLikeUrl(sources: InspectorSources, control: CrawlControl, crawlId: number, urlId: number, rule: ExclusionRule): Promise<ExcludeAnswer> {
  const settings = sources.crawls.getCrawl(crawlId).settings;
  const record = sources.queries.url(crawlId, urlId);
  if (!record) throw new CodedError('URL_NOT_FOUND', `Crawl ${crawlId} has no URL ${urlId}`);
  const option = exclusionsOf(sources.queries, crawlId, record, settings).find((candidate) => candidate.rule === rule);
  if (!option) {
    const what = rule === 'ignored-extension' ? 'an extension to ignore' : 'a domain to exclude (it is a seed’s domain, or excluded already)';
    throw new CodedError('EXCLUSION_NOT_APPLICABLE', `${record.url} has no ${what}`);
  }
  let patch: Partial<CrawlSettings>;
  let what: string;
  if (rule === 'ignored-extension') {
    const valid = validateSetting('ignoredExtensions', [...settings.ignoredExtensions.split('|').filter(Boolean), option.value].join('|'));
    if (!valid.ok) throw new CodedError(valid.error.code, valid.error.message);
    patch = { ignoredExtensions: valid.value };
    what = `Added “${option.value}” to this crawl's ignored extensions: links to .${option.value} files found from now on are refused`;
  } else {
    const valid = validateSetting('excludeDomains', [...settings.excludeDomains, option.value]);
    if (!valid.ok) throw new CodedError(valid.error.code, valid.error.message);
    patch = { excludeDomains: valid.value };
    what = `Added “${option.value}” to this crawl's excluded domains: links to it found from now on are refused`;
  }
  const running = control.isRunning(crawlId);
  if (running) {
    control.stop(crawlId);
    await control.whenStopped(crawlId);
    control.resume(crawlId, patch);
  } else {
    control.updateSettings(crawlId, { ...settings, ...patch });
  }
  return {
    rule,
    value: option.value,
    restarted: running,
    message: `${what} (URLs already queued stay queued). ${running ? 'The crawl was restarted to apply it.' : 'It applies when the crawl is resumed.'}`,
  };
}
