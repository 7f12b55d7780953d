// The PostgreSQL commit-batch writer's own rules (issue 13), past the shared contract: the URL-seen
// test under concurrent commits of two processes, source bits, stored link text, alias merging.
import { afterEach, describe, expect, it } from 'vitest';
import { URL_SOURCE_BITS } from '../../../shared/types/url-sources';
import { postgresUnavailableReason } from '../../../testweb/postgres';
import type { FrontierCandidate } from '../ports';
import { LINK_RULE_CODES } from '../sqlite/link-codes';
import { PostgresCrawlRepository } from './crawl-repository';
import { createPostgresCrawlStores, type PostgresCrawlStores } from './crawl-stores';
import { openPostgresStore, type PostgresStore } from './pool';
import { testSettings, useTestDatabases } from '../../../tests/support/postgres-stores';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL writer tests skipped: ${unavailable}`);

const POLICY = { maxInFlightPerHost: 10, minDelayMs: 0, maxDelayMs: 1_000, delayFactor: 0 };

function candidate(host: string, path: string, fields: Partial<FrontierCandidate> = {}): FrontierCandidate {
  const url = `http://${host}/${path}`;
  return { url, normalized: url, normalizedKey: url, host, registrableDomain: host, depth: 1, discoveredFrom: null, ...fields };
}

describe.skipIf(unavailable !== null)('PostgreSQL crawl writer', () => {
  const postgres = useTestDatabases();
  const pools: PostgresStore[] = [];
  const opened: PostgresCrawlStores[] = [];
  afterEach(async () => {
    for (const stores of opened.splice(0)) stores.detach();
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  });

  async function processes(n: number): Promise<PostgresCrawlStores[]> {
    const url = await postgres.databases.create();
    let crawlId = 0;
    const procs: PostgresCrawlStores[] = [];
    for (let i = 0; i < n; i += 1) {
      const pool = await openPostgresStore(url);
      pools.push(pool);
      if (i === 0) crawlId = await new PostgresCrawlRepository(pool).createCrawl(['http://a.test/'], testSettings(POLICY), 0);
      const stores = await createPostgresCrawlStores(pool, crawlId, testSettings(POLICY));
      opened.push(stores);
      procs.push(stores);
    }
    return procs;
  }

  it('two processes committing the same new URLs at once store each once; each learns its id, and the sources of both', async () => {
    const [a, b] = (await processes(2)) as [PostgresCrawlStores, PostgresCrawlStores];
    // Overlapping key sets in opposite orders: the inserts lock keys in key order, so they cannot deadlock.
    const keys = Array.from({ length: 300 }, (_, i) => candidate(`h${i % 7}.test`, String(i)));
    const fromA = keys.slice(0, 200).map((c) => ({ ...c, source: 'link' as const }));
    const fromB = keys.slice(100).reverse().map((c) => ({ ...c, source: 'sitemap' as const }));
    const [resultA, resultB] = await Promise.all([a.writer.commit({ nowMs: 1, candidates: fromA }), b.writer.commit({ nowMs: 1, candidates: fromB })]);
    expect(resultA.added + resultB.added).toBe(300);
    const { rows } = await pools[0]!.pool.query<{ normalized_key: string; sources: number }>(`SELECT normalized_key, sources FROM urls ORDER BY id`);
    expect(rows).toHaveLength(300);
    const sourcesOf = new Map(rows.map((row) => [row.normalized_key, row.sources]));
    expect(sourcesOf.get(keys[150]!.normalizedKey)).toBe(URL_SOURCE_BITS.link | URL_SOURCE_BITS.sitemap);
    expect(sourcesOf.get(keys[0]!.normalizedKey)).toBe(URL_SOURCE_BITS.link);
    expect(sourcesOf.get(keys[299]!.normalizedKey)).toBe(URL_SOURCE_BITS.sitemap);
    await a.frontier.refresh();
    expect(a.frontier.counts().pending).toBe(300);
  });

  it('a key met twice in a batch is one URL with both source bits; ids follow the batch order (discovery order is claim order)', async () => {
    const [stores] = (await processes(1)) as [PostgresCrawlStores];
    const result = await stores.writer.commit({
      nowMs: 1,
      candidates: [candidate('a.test', 'z'), candidate('a.test', 'b'), { ...candidate('a.test', 'z'), source: 'redirect' }, candidate('a.test', 'a')],
    });
    expect(result).toMatchObject({ added: 3, addedHosts: ['a.test', 'a.test', 'a.test'] });
    const { rows } = await pools[0]!.pool.query<{ url: string; sources: number }>(`SELECT url, sources FROM urls ORDER BY id`);
    expect(rows).toEqual([
      // No discoveredFrom: a seed, unless the candidate names its source.
      { url: 'http://a.test/z', sources: URL_SOURCE_BITS.seed | URL_SOURCE_BITS.redirect },
      { url: 'http://a.test/b', sources: URL_SOURCE_BITS.seed },
      { url: 'http://a.test/a', sources: URL_SOURCE_BITS.seed },
    ]);
    expect((await stores.frontier.claimBatch(10, 1)).map((url) => url.url)).toEqual(['http://a.test/z', 'http://a.test/b', 'http://a.test/a']);
  });

  it("stores a link's text only where it differs from its target's URL, refusals by rule code, and merges repeated aliases", async () => {
    const [stores] = (await processes(1)) as [PostgresCrawlStores];
    await stores.writer.commit({ nowMs: 0, candidates: [candidate('a.test', 'seed', { depth: 0 })] });
    const [seed] = await stores.frontier.claimBatch(1, 0);
    await stores.writer.commit({
      nowMs: 1,
      candidates: [candidate('a.test', 'x', { discoveredFrom: seed!.id })],
      outcomes: [{ kind: 'done', url: seed!, disposition: { fetchMs: 1, nowMs: 1, httpStatus: 200 } }],
      links: [
        { fromUrlId: seed!.id, rawUrl: 'http://a.test/x', toKey: 'http://a.test/x', kind: 'a', refusedBy: null, anchorText: 'X', rel: null },
        { fromUrlId: seed!.id, rawUrl: 'x', toKey: 'http://a.test/x', kind: 'a', refusedBy: null },
        { fromUrlId: seed!.id, rawUrl: 'http://a.test/x#top', toKey: 'http://a.test/x', kind: 'a', refusedBy: null },
        { fromUrlId: seed!.id, rawUrl: 'mailto:me@a.test', toKey: null, kind: 'a', refusedBy: 'protocol', rel: 'nofollow' },
      ],
      aliases: [
        { toKey: 'http://a.test/x', rawUrl: 'x', fromUrlId: seed!.id, fragmentSpellings: 1 },
        { toKey: 'http://a.test/x', rawUrl: 'x', fromUrlId: null, fragmentSpellings: 2 },
      ],
    });
    await stores.writer.commit({ nowMs: 2, aliases: [{ toKey: 'http://a.test/x', rawUrl: 'x', fromUrlId: null, fragmentSpellings: 4 }, { toKey: 'http://a.test/seed', rawUrl: '/seed', fromUrlId: null }] });
    const { rows: links } = await pools[0]!.pool.query(`SELECT raw_url, refused_by, anchor_text, rel FROM links ORDER BY id`);
    expect(links).toEqual([
      { raw_url: null, refused_by: null, anchor_text: 'X', rel: null },
      { raw_url: 'x', refused_by: null, anchor_text: null, rel: null },
      { raw_url: 'http://a.test/x#top', refused_by: null, anchor_text: null, rel: null },
      { raw_url: 'mailto:me@a.test', refused_by: LINK_RULE_CODES.protocol, anchor_text: null, rel: 'nofollow' },
    ]);
    const { rows: aliases } = await pools[0]!.pool.query(`SELECT raw_url, first_seen_from, fragment_spellings FROM url_aliases ORDER BY url_id, raw_url`);
    expect(aliases).toEqual([
      { raw_url: '/seed', first_seen_from: null, fragment_spellings: 0 },
      { raw_url: 'x', first_seen_from: seed!.id, fragment_spellings: 7 },
    ]);
  });
});
