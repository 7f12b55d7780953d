/**
 * Test support for the PostgreSQL stores (issue 13): a database per test cut from a migrated
 * template (CREATE DATABASE … TEMPLATE, a few ms), and the contract harness (store/contract/) over
 * it, where a "process" is one CrawlStores with its own process id and a crash is a process that
 * stops without writing and whose lease has run out.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresCluster } from '../../testweb/postgres';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import type { StoreHarness } from '../../engine/store/contract/frontier-store.contract';
import type { CrawlStores, PolitenessPolicy } from '../../engine/store/ports';
import { PostgresCrawlRepository } from '../../engine/store/postgres/crawl-repository';
import { createPostgresCrawlStores, type PostgresCrawlStores, type PostgresStoreOptions } from '../../engine/store/postgres/crawl-stores';
import { openPostgresStore, type PostgresStore } from '../../engine/store/postgres/pool';

const TEMPLATE = 'crawlbench_template';

/** Databases cut from one migrated template on the cluster at `clusterUrl` (its `crawlbench` database). */
export class TestDatabases {
  private made = 0;
  private ready: Promise<void> | null = null;

  constructor(private readonly clusterUrl: string) {}

  /** A new, migrated, empty database. @returns its URL */
  async create(): Promise<string> {
    this.ready ??= (async () => {
      await this.admin(`CREATE DATABASE ${TEMPLATE}`);
      const template = await openPostgresStore(this.urlOf(TEMPLATE));
      await template.close();
    })();
    await this.ready;
    this.made += 1;
    const name = `crawl_test_${process.pid}_${this.made}`;
    await this.admin(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
    return this.urlOf(name);
  }

  private urlOf(database: string): string {
    const url = new URL(this.clusterUrl);
    url.pathname = `/${database}`;
    return url.toString();
  }

  private async admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.clusterUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}

/** Crawl settings for a test crawl under `policy`. */
export const testSettings = (policy: PolitenessPolicy) => ({ ...DEFAULT_CRAWL_SETTINGS, ...policy });

/**
 * The storage contract's harness on PostgreSQL: a fresh database per harness, one pool, stores
 * per "process". `reopen` simulates a crash: the old process's timers stop without writing, its
 * last beat is set to 0 (lease run out), and a new process's stores sweep it on open.
 */
export function postgresHarness(databases: () => TestDatabases, options: PostgresStoreOptions = {}): StoreHarness {
  let store: PostgresStore | null = null;
  const opened: PostgresCrawlStores[] = [];
  const storeOf = async (): Promise<PostgresStore> => (store ??= await openPostgresStore(await databases().create(), 8));
  const open = async (crawlId: number, policy: PolitenessPolicy): Promise<PostgresCrawlStores> => {
    const stores = await createPostgresCrawlStores(await storeOf(), crawlId, testSettings(policy), options);
    opened.push(stores);
    return stores;
  };
  const count = async (table: string, crawlId: number) => {
    const { rows } = await (await storeOf()).pool.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${table} WHERE crawl_id = $1`, [crawlId]);
    return rows[0]!.n;
  };
  return {
    async open(policy) {
      const crawlId = await new PostgresCrawlRepository(await storeOf()).createCrawl(['http://a.test/'], testSettings(policy), 0);
      return open(crawlId, policy);
    },
    async reopen(stores: CrawlStores, policy) {
      const old = stores as PostgresCrawlStores;
      old.detach();
      await (await storeOf()).pool.query(`UPDATE processes SET last_beat_ms = 0 WHERE id = $1`, [old.processId]);
      return open(stores.crawlId, policy);
    },
    storedRows: async (stores) => ({ urls: await count('urls', stores.crawlId), pages: await count('pages', stores.crawlId), links: await count('links', stores.crawlId) }),
    storedTexts: async (stores) => {
      const { rows } = await (await storeOf()).pool.query<{ urlId: string }>(`SELECT url_id AS "urlId" FROM page_texts WHERE crawl_id = $1 ORDER BY url_id`, [stores.crawlId]);
      return rows.map((row) => Number(row.urlId));
    },
    storedBodies: async (stores) => {
      const { rows } = await (await storeOf()).pool.query<{ urlId: string; encoding: string; rawBytes: string; truncated: number; payloadDigest: string; bytes: Buffer }>(
        `SELECT url_id AS "urlId", encoding, raw_bytes AS "rawBytes", truncated, payload_digest AS "payloadDigest", body AS bytes FROM page_bodies WHERE crawl_id = $1 ORDER BY url_id`,
        [stores.crawlId],
      );
      return rows.map((row) => ({ urlId: Number(row.urlId), encoding: row.encoding, rawBytes: Number(row.rawBytes), truncated: row.truncated === 1, payloadDigest: row.payloadDigest, bytes: row.bytes }));
    },
    async close() {
      for (const stores of opened) stores.detach();
      await store?.close();
    },
  };
}

/**
 * A throwaway PostgreSQL cluster for one test file (started in beforeAll, stopped and removed in
 * afterAll), with {@link TestDatabases} on it. Read `databases` inside tests.
 */
export function useTestDatabases(): { readonly databases: TestDatabases } {
  let cluster: PostgresCluster | null = null;
  let databases: TestDatabases | null = null;
  beforeAll(async () => {
    cluster = await startPostgres();
    databases = new TestDatabases(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return {
    get databases() {
      if (!databases) throw new Error('useTestDatabases: read databases inside a test (the cluster starts in beforeAll)');
      return databases;
    },
  };
}
