/**
 * The crawler-trap part of the store contract (issue 12 part 4; store/ports.ts CommitBatch.traps,
 * FrontierCandidate.heldBy, FrontierStore.setTrapState): a trap in a batch holds the pending URLs
 * its pattern matches on its host and new candidates that name it, held URLs are counted apart and
 * never claimed (even from a host's read-ahead), a release puts them back to pending and wakes the
 * host, and a new process counts them held. Registered next to the frontier contract.
 */
import { describe, expect, it } from 'vitest';
import type { TrapSuspicion } from '../../traps/suspicion';
import { templatePattern } from '../../traps/url-shape';
import type { ClaimedUrl, CrawlStores, FrontierCandidate, PolitenessPolicy } from '../ports';
import type { StoreHarness } from './frontier-store.contract';

const OPEN: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 30_000, delayFactor: 0 };

function candidate(host: string, path: string, heldBy?: string): FrontierCandidate {
  const url = `http://${host}${path}`;
  return { url, normalized: url, normalizedKey: `key:${url}`, host, registrableDomain: host, depth: 1, discoveredFrom: null, ...(heldBy ? { heldBy } : {}) };
}

const CALENDAR: TrapSuspicion = {
  detector: 'near-identical',
  host: 'cal.test',
  pattern: templatePattern('cal.test', '/calendar/{n}/{n}'),
  template: '/calendar/{n}/{n}',
  evidence: { summary: '3 pages near-identical', observed: 3, threshold: 3 },
  example: 'http://cal.test/calendar/2031/1',
};

/** Claims everything claimable now, one URL at a time, recording each as done. */
async function drain(stores: CrawlStores, nowMs: number): Promise<string[]> {
  const urls: string[] = [];
  for (;;) {
    const [url] = (await stores.frontier.claimBatch(1, nowMs)) as (ClaimedUrl | undefined)[];
    if (!url) return urls;
    urls.push(url.url);
    await stores.writer.commit({ nowMs, outcomes: [{ kind: 'done', url, disposition: { fetchMs: 0, nowMs } }] });
  }
}

/** Registers the trap contract under `name` for the backend `harness` opens. */
export function trapStoreContract(name: string, harness: () => StoreHarness): void {
  describe(`crawl store contract, traps: ${name}`, () => {
    async function withStores(body: (stores: CrawlStores, h: StoreHarness) => Promise<void>): Promise<void> {
      const h = harness();
      try {
        await body(await h.open(OPEN), h);
      } finally {
        await h.close();
      }
    }

    it('a trap holds its pending matches on its host (also ones already read ahead) and new candidates naming it; held URLs are never claimed', () =>
      withStores(async (stores, h) => {
        await stores.writer.commit({
          nowMs: 0,
          candidates: [candidate('cal.test', '/'), ...[1, 2, 3, 4].map((m) => candidate('cal.test', `/calendar/2031/${m}`)), candidate('other.test', '/calendar/2031/1')],
        });
        // One claim reads the host's queue ahead (the calendar URLs sit in its buffer).
        const [home] = await stores.frontier.claimBatch(1, 0);
        expect(home!.url).toBe('http://cal.test/');
        const result = await stores.writer.commit({
          nowMs: 1,
          traps: [CALENDAR],
          candidates: [candidate('cal.test', '/calendar/2031/5', CALENDAR.pattern), candidate('cal.test', '/calendar/')],
          outcomes: [{ kind: 'done', url: home!, disposition: { fetchMs: 0, nowMs: 1 } }],
        });
        expect(result.added).toBe(1);
        expect(result.held).toBe(1);
        expect(result.heldFromPending?.map((url) => url.host)).toEqual(['cal.test', 'cal.test', 'cal.test', 'cal.test']);
        expect(stores.frontier.counts()).toMatchObject({ pending: 2, inFlight: 0, done: 1, held: 5 });
        // Only the non-matching URLs are handed out: another host's calendar is not this trap's.
        expect((await drain(stores, 2)).sort()).toEqual(['http://cal.test/calendar/', 'http://other.test/calendar/2031/1']);
        // A new process counts them held, and claims none.
        const reopened = await h.reopen(stores, OPEN);
        expect(reopened.frontier.counts()).toMatchObject({ pending: 0, held: 5 });
        expect(await reopened.frontier.claimBatch(10, 3)).toEqual([]);
      }));

    it('release puts the held URLs back to pending and wakes the host; exclude keeps them held; an unknown trap is null', () =>
      withStores(async (stores) => {
        await stores.writer.commit({ nowMs: 0, traps: [CALENDAR], candidates: [1, 2, 3].map((m) => candidate('cal.test', `/calendar/2031/${m}`, CALENDAR.pattern)) });
        expect(await stores.frontier.claimBatch(10, 0)).toEqual([]);
        expect(stores.frontier.nextEligibleAtMs()).toBeNull();
        const trapId = 1;
        expect(await stores.frontier.setTrapState(trapId + 99, 'released', 1)).toBeNull();
        expect(await stores.frontier.setTrapState(trapId, 'excluded', 1)).toEqual({ pattern: CALENDAR.pattern, host: 'cal.test', released: 0 });
        expect(stores.frontier.counts()).toMatchObject({ pending: 0, held: 3 });
        expect(await stores.frontier.setTrapState(trapId, 'released', 2)).toEqual({ pattern: CALENDAR.pattern, host: 'cal.test', released: 3 });
        expect(stores.frontier.counts()).toMatchObject({ pending: 3, held: 0 });
        expect(stores.frontier.nextEligibleAtMs()).toBe(2);
        expect(await drain(stores, 2)).toEqual([1, 2, 3].map((m) => `http://cal.test/calendar/2031/${m}`));
        // A candidate screened before the release (it still names the trap) is stored pending, not held.
        const late = await stores.writer.commit({ nowMs: 3, candidates: [candidate('cal.test', '/calendar/2031/4', CALENDAR.pattern)] });
        expect(late).toMatchObject({ added: 1 });
        expect(late.held ?? 0).toBe(0);
        expect(await drain(stores, 3)).toEqual(['http://cal.test/calendar/2031/4']);
      }));
  });
}
