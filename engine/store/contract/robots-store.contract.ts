/**
 * The contract every robots store passes (store/ports.ts RobotsStore): what one crawl stores is
 * what a new process reads back, until its expiry, and never another crawl's. A backend registers
 * it beside the frontier contract with the same harness (SQLite: store/sqlite/crawl-stores.contract.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { CrawlStores, PolitenessPolicy, RobotsStore, StoredRobots } from '../ports';
import type { StoreHarness } from './frontier-store.contract';

const POLICY: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 30_000, delayFactor: 0 };

function robotsOf(stores: CrawlStores): RobotsStore {
  if (!stores.robots) throw new Error('This backend opens no robots store (CrawlStores.robots)');
  return stores.robots;
}

const rules = (origin: string, fields: Partial<StoredRobots> = {}): StoredRobots => ({
  origin,
  status: 200,
  errorCode: null,
  body: 'User-agent: *\nDisallow: /private/\n',
  fetchedAtMs: 1_000,
  expiresAtMs: 1_000 + 86_400_000,
  ...fields,
});

/** Registers the robots store contract under `name` for the backend `harness` opens. */
export function robotsStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`robots store contract: ${name}`, () => {
    it('a new process reads back every stored robots.txt of its crawl, field for field, until its expiry', async () => {
      const harness = makeHarness();
      try {
        const stores = await harness.open(POLICY);
        const entries = [rules('http://a.test'), rules('https://b.test:8443', { status: 404, body: '' }), rules('http://c.test', { status: null, errorCode: 'REDIRECT_LOOP', body: '' })];
        for (const entry of entries) await robotsOf(stores).save(entry);
        const reopened = robotsOf(await harness.reopen(stores, POLICY));
        const origins = ['http://a.test', 'https://b.test:8443', 'http://c.test', 'http://never.test'];
        const byOrigin = (list: StoredRobots[]) => [...list].sort((x, y) => x.origin.localeCompare(y.origin));
        expect(byOrigin(await reopened.load(origins, 2_000))).toEqual(byOrigin(entries));
        // Expired at expiresAtMs: gone from the answer (asked for again).
        expect(await reopened.load(origins, 1_000 + 86_400_000)).toEqual([]);
      } finally {
        await harness.close();
      }
    });

    it('a save replaces the origin\'s entry; a body of 500 KiB is kept whole', async () => {
      const harness = makeHarness();
      try {
        const robots = robotsOf(await harness.open(POLICY));
        await robots.save(rules('http://a.test'));
        const big = `User-agent: *\n${'Disallow: /x\n'.repeat(40_000)}`.slice(0, 500 * 1024);
        await robots.save(rules('http://a.test', { body: big, fetchedAtMs: 5_000, expiresAtMs: 6_000 }));
        expect(await robots.load(['http://a.test'], 5_500)).toEqual([rules('http://a.test', { body: big, fetchedAtMs: 5_000, expiresAtMs: 6_000 })]);
      } finally {
        await harness.close();
      }
    });

    it('crawls do not share robots.txt entries', async () => {
      const harness = makeHarness();
      try {
        const one = robotsOf(await harness.open(POLICY));
        const two = robotsOf(await harness.open(POLICY));
        await one.save(rules('http://a.test'));
        expect(await two.load(['http://a.test'], 2_000)).toEqual([]);
        expect(await one.load([], 2_000)).toEqual([]);
      } finally {
        await harness.close();
      }
    });
  });
}
