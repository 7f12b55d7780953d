/**
 * URL benchmark (issue 3): normalization and registrable-domain lookups on a corpus of real links
 * extracted from the Python documentation (Debian's python3.11-doc, served as if at
 * http://docs.python.test/), plus a share of realistic external links, compared in the same run
 * with normalize-url and tldts (getDomain). Targets: `standard` normalization ≥ 10× normalize-url;
 * domain lookups ≥ tldts. Run: `node --import tsx bench/url.ts` (or through `npm run bench`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser } from 'htmlparser2';
import normalizeUrlPackage from 'normalize-url';
import { getDomain } from 'tldts';
import { v5 as uuidV5Package } from 'uuid';
import {
  createDomainResolver,
  createNormalizer,
  createStringNormalizer,
  DEFAULT_TLD_CONFIG,
  NORMALIZED_KEY_NAMESPACE,
  normalizedKey,
  parsePublicSuffixList,
  PROFILES,
  rawUrlOfLink,
} from '../shared/url';
import { seededRandom } from '../tests/support/seeded-random';

/** Where Debian installs the Python docs (`apt-get install -y python3.11-doc`). */
export const PYTHON_DOCS_DIR = '/usr/share/doc/python3.11/html';
const DOCS_ORIGIN = 'http://docs.python.test/';
const MIN_CORPUS = 100_000;
/** Share of synthetic external links mixed into the corpus. */
const EXTERNAL_SHARE = 0.15;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');


function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...htmlFiles(full));
    else if (entry.name.endsWith('.html')) out.push(full);
  }
  return out.sort();
}

/** Every href/src of every page, resolved (seed 001 raw URLs) against the page's docs.python.test URL. */
export function extractDocsLinks(dir = PYTHON_DOCS_DIR): string[] {
  const links: string[] = [];
  for (const file of htmlFiles(dir)) {
    const pageUrl = DOCS_ORIGIN + path.relative(dir, file).split(path.sep).join('/');
    const hrefs: string[] = [];
    let baseHref: string | null = null;
    const parser = new Parser({
      onopentag(name, attributes) {
        if (name === 'base' && baseHref === null && attributes['href'] !== undefined) baseHref = attributes['href'];
        for (const attribute of ['href', 'src'] as const) {
          const value = attributes[attribute];
          if (value !== undefined) hrefs.push(value);
        }
      },
    });
    parser.write(fs.readFileSync(file, 'utf8'));
    parser.end();
    for (const href of hrefs) {
      const raw = rawUrlOfLink(href, pageUrl, baseHref);
      if (raw.ok) links.push(raw.value);
    }
  }
  return links;
}

/** Realistic external links: mixed case, www, default ports, index files, trackers, fragments, many suffixes. */
function externalLinks(count: number, next: () => number): string[] {
  const hosts = [
    'www.example.com', 'Example.COM', 'blog.example.co.uk', 'shop.example.com.au', 'news.bbc.co.uk', 'en.wikipedia.org',
    'stackoverflow.com', 'github.com', 'user.github.io', 'myblog.blogspot.com', 'www.python.org', 'docs.djangoproject.com',
    'pypi.org', 'www.amazon.co.jp', 'city.kobe.jp', 'a.b.c.kobe.jp', 'www.gov.uk', 'example.com.br', 'portal.example.de',
    'xn--85x722f.xn--fiqs8s', 'cdn.jsdelivr.net', 'storage.googleapis.com', 'www.nic.ck', 'example.s3.amazonaws.com',
  ];
  const paths = ['/', '', '/index.html', '/a/b/../c/./d.html', '/questions/1732348/regex-match', '/wiki/URL_normalization', '/w/index.php', '/docs/3.11/library/os.html', '/blog/2024/05/post/', '/%7Euser/page.php', '/Search'];
  const queries = ['', '?utm_source=newsletter&utm_medium=email&id=42', '?b=2&a=1', '?title=URL_normalization', '?fbclid=IwAR0abc&page=2', '?q=python+url&sort=asc', '?PHPSESSID=abc123&x=1', '?'];
  const fragments = ['', '', '#top', '#section-2'];
  const schemes = ['https://', 'http://', 'HTTPS://'];
  const ports = ['', '', '', ':443', ':80', ':8080'];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, () => pick(schemes) + pick(hosts) + pick(ports) + pick(paths) + pick(queries) + pick(fragments));
}

/** The benchmark corpus: docs links (repeated and shuffled up to ≥100k) plus external links, shuffled. */
export function buildCorpus(dir = PYTHON_DOCS_DIR): { urls: string[]; docsLinks: number; external: number } {
  const next = seededRandom(20261121);
  const docs = extractDocsLinks(dir);
  if (docs.length === 0) throw new Error(`No links found under ${dir} (install python3.11-doc)`);
  const docsTarget = Math.max(docs.length, Math.ceil((MIN_CORPUS * (1 - EXTERNAL_SHARE)) / docs.length) * docs.length);
  let urls: string[] = [];
  while (urls.length < docsTarget) urls = urls.concat(docs);
  const external = Math.ceil((urls.length * EXTERNAL_SHARE) / (1 - EXTERNAL_SHARE));
  urls = urls.concat(externalLinks(external, next));
  for (let i = urls.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [urls[i], urls[j]] = [urls[j]!, urls[i]!];
  }
  return { urls, docsLinks: docs.length, external };
}

/**
 * URLs per second of each contender over the corpus. Contenders take turns, one pass each per
 * round, and each one's median round counts: a busy machine then slows every contender alike
 * instead of whichever happened to run during the busy spell.
 */
function measure(urls: readonly string[], contenders: Record<string, (url: string) => unknown>, rounds = 5): Record<string, number> {
  let sink = 0;
  const names = Object.keys(contenders);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) for (let i = 0; i < Math.min(urls.length, 20_000); i++) if (contenders[name]!(urls[i]!) !== undefined) sink++;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const fn = contenders[name]!;
      const start = performance.now();
      for (const url of urls) if (fn(url) !== undefined) sink++;
      samples[name]!.push((urls.length / (performance.now() - start)) * 1000);
    }
  }
  if (sink < 0) console.log(sink);
  return Object.fromEntries(names.map((name) => [name, samples[name]!.sort((a, b) => a - b)[Math.floor(rounds / 2)]!]));
}

function rate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US').padStart(12)} URLs/s`;
}

/** Runs the URL benchmark and prints one line per measurement, with the ratios to the targets. */
export async function runUrlBench(log: (line: string) => void = console.log): Promise<void> {
  if (!fs.existsSync(PYTHON_DOCS_DIR)) {
    log(`url bench: ${PYTHON_DOCS_DIR} is missing (apt-get install -y python3.11-doc); skipped`);
    return;
  }
  const built = performance.now();
  const { urls, docsLinks, external } = buildCorpus();
  const distinct = new Set(urls).size;
  log(`url bench corpus: ${urls.length.toLocaleString('en-US')} URLs (${docsLinks.toLocaleString('en-US')} links from ${PYTHON_DOCS_DIR}, ${external.toLocaleString('en-US')} external), ${distinct.toLocaleString('en-US')} distinct, built in ${Math.round(performance.now() - built)} ms`);

  const normalizeString = createStringNormalizer(PROFILES.standard);
  const normalizeWithKey = createNormalizer(PROFILES.standard);
  const normalizeWithUncachedKey = createNormalizer(PROFILES.standard, { keyCacheSize: 0 });
  const normalizeUrlPackageSafe = (url: string): string | null => {
    try {
      return normalizeUrlPackage(url);
    } catch {
      return null;
    }
  };
  const normalization = measure(urls, {
    theirs: normalizeUrlPackageSafe,
    string: normalizeString,
    keyed: normalizeWithKey,
    uncachedKey: normalizeWithUncachedKey,
  });
  const theirs = normalization['theirs']!;
  const versus = (ours: number): string => `${(ours / theirs).toFixed(1)}x normalize-url`;
  log(`normalize-url (defaults)                ${rate(theirs)}`);
  log(`crawlbench standard: normalized string  ${rate(normalization['string']!)}  ${versus(normalization['string']!)} (target ≥10x)`);
  log(`crawlbench standard: string + UUIDv5    ${rate(normalization['keyed']!)}  ${versus(normalization['keyed']!)} (key cache 2×8192)`);
  log(`crawlbench standard: string + UUIDv5    ${rate(normalization['uncachedKey']!)}  ${versus(normalization['uncachedKey']!)} (no key cache: one SHA-1 per URL)`);

  const normalized = urls.map((url) => normalizeString(url)).map((result) => (result.ok ? result.value : ''));
  const namespaceBytes = Uint8Array.from(NORMALIZED_KEY_NAMESPACE.replaceAll('-', '').match(/../g)!.map((hex) => parseInt(hex, 16)));
  const keys = measure(normalized, { ours: normalizedKey, uuid: (text) => uuidV5Package(text, namespaceBytes) }, 3);
  log(`UUIDv5 alone: crawlbench sha1.ts        ${rate(keys['ours']!)}; uuid package ${rate(keys['uuid']!).trim()} (${(keys['ours']! / keys['uuid']!).toFixed(1)}x)`);
  log(`distinct normalized strings: ${new Set(normalized).size.toLocaleString('en-US')} of ${normalized.length.toLocaleString('en-US')}`);

  const psl = parsePublicSuffixList(fs.readFileSync(path.join(REPO_ROOT, 'resources/tld/public_suffix_list.dat'), 'utf8'));
  const resolver = createDomainResolver(DEFAULT_TLD_CONFIG, psl);
  const uncached = createDomainResolver(DEFAULT_TLD_CONFIG, psl, { cacheSize: 0 });
  const tldtsOptions = { allowPrivateDomains: true };
  const domains = measure(urls, {
    tldts: (url) => getDomain(url, tldtsOptions),
    cached: (url) => resolver(url).registrableDomain,
    uncached: (url) => uncached(url).registrableDomain,
  });
  const tldts = domains['tldts']!;
  log(`tldts getDomain (PRIVATE rules on)      ${rate(tldts)}`);
  log(`crawlbench domain, PSL mode, host cache ${rate(domains['cached']!)}  ${(domains['cached']! / tldts).toFixed(2)}x tldts (target ≥1x)`);
  log(`crawlbench domain, PSL mode, no cache   ${rate(domains['uncached']!)}  ${(domains['uncached']! / tldts).toFixed(2)}x tldts`);
  const differing = urls.filter((url) => (resolver(url).registrableDomain ?? null) !== (getDomain(url, tldtsOptions) ?? null));
  log(`registrable domains differing from tldts: ${differing.length.toLocaleString('en-US')} of ${urls.length.toLocaleString('en-US')} (e.g. ${[...new Set(differing)].slice(0, 3).join(' ')})`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runUrlBench();
}
