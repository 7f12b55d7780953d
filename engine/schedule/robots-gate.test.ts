import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import type { ClaimedUrl, RobotsStore, StoredRobots } from '../store/ports';
import { RobotsGate } from './robots-gate';

const claimed = (id: number, url: string): ClaimedUrl => ({ id, url, host: new URL(url).host, depth: 0, attempts: 0, redirectHops: 0 });

/** A gate over an in-memory robots store that records every call. */
function gateWith(stored: StoredRobots[], options: { failSave?: boolean } = {}) {
  const loads: string[][] = [];
  const saved: StoredRobots[] = [];
  const dispatched: string[] = [];
  const storeErrors: Error[] = [];
  const store: RobotsStore = {
    async load(origins, nowMs) {
      loads.push([...origins]);
      return stored.filter((entry) => origins.includes(entry.origin) && entry.expiresAtMs > nowMs);
    },
    async save(entry) {
      if (options.failSave) throw Object.assign(new Error('database or disk is full'), { code: 'DISK_FULL' });
      saved.push(entry);
    },
  };
  const gate = new RobotsGate({
    settings: DEFAULT_CRAWL_SETTINGS,
    frontier: { politenessDelayMs: () => 0 },
    record: () => undefined,
    countRefusal: () => undefined,
    dispatchRobots: (_urlId, robotsUrl) => dispatched.push(robotsUrl),
    store,
    onStoreError: (error) => storeErrors.push(error),
  });
  return { gate, loads, saved, dispatched, storeErrors };
}

const kept = (origin: string, body: string): StoredRobots => ({ origin, status: 200, errorCode: null, body, fetchedAtMs: 0, expiresAtMs: 10_000 });

describe('RobotsGate over a robots store', () => {
  it('asks the store once per claim for the origins memory misses, and fetches only what it does not have', async () => {
    const { gate, loads, dispatched } = gateWith([kept('http://a.test', 'User-agent: *\nDisallow: /private/')]);
    const urls = [claimed(1, 'http://a.test/x'), claimed(2, 'http://a.test/private/y'), claimed(3, 'http://b.test/z')];
    await gate.prepare(urls, 100);
    expect(loads).toEqual([['http://a.test', 'http://b.test']]);
    expect(urls.map((url) => gate.admit(url, 100))).toEqual([true, false, true]);
    expect(gate.clears(urls[0]!)).toBe(true);
    expect(gate.clears(urls[2]!)).toBe(false);
    gate.hold(urls[2]!);
    expect(dispatched).toEqual(['http://b.test/robots.txt']);
    // Both origins known now (one ready, one being fetched): the next claim asks the store nothing.
    await gate.prepare([claimed(4, 'http://a.test/q'), claimed(5, 'http://b.test/q')], 200);
    expect(loads).toHaveLength(1);
  });

  it('stores each robots.txt that decides rules, and reports a failed store write', async () => {
    const ok = gateWith([]);
    const url = claimed(1, 'http://c.test/x');
    await ok.gate.prepare([url], 0);
    ok.gate.admit(url, 0);
    ok.gate.hold(url);
    expect(ok.gate.onRobots(1, { url: 'http://c.test/robots.txt', status: 404, text: '', error: null, fetchMs: 1 }, 50)).toHaveLength(1);
    await Promise.resolve();
    expect(ok.saved).toEqual([{ origin: 'http://c.test', status: 404, errorCode: null, body: '', fetchedAtMs: 50, expiresAtMs: 50 + DEFAULT_CRAWL_SETTINGS.robotsCacheTtlMs }]);

    const failing = gateWith([], { failSave: true });
    await failing.gate.prepare([url], 0);
    failing.gate.admit(url, 0);
    failing.gate.hold(url);
    failing.gate.onRobots(1, { url: 'http://c.test/robots.txt', status: 200, text: 'User-agent: *\nAllow: /', error: null, fetchMs: 1 }, 50);
    await new Promise((resolve) => setImmediate(resolve));
    expect(failing.storeErrors.map((error) => (error as Error & { code?: string }).code)).toEqual(['DISK_FULL']);
  });

  it('a 5xx robots.txt is not stored (asked again later, RFC 9309 §2.4)', async () => {
    const { gate, saved } = gateWith([]);
    const url = claimed(1, 'http://d.test/x');
    await gate.prepare([url], 0);
    gate.admit(url, 0);
    gate.hold(url);
    gate.onRobots(1, { url: 'http://d.test/robots.txt', status: 503, text: '', error: null, fetchMs: 1 }, 50);
    await new Promise((resolve) => setImmediate(resolve));
    expect(saved).toEqual([]);
  });
});
