import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OpenedCrawl, RecoveryOffer } from '../../../shared/ipc/views';
import type { CrawlProgress, CrawlSummary } from '../../../shared/types/crawl';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import type { ConnectionState } from '../ipc/socket-client';

/** Main's answers, per channel; a test replaces the ones it needs. */
const handlers: Record<string, (payload: never) => Promise<unknown>> = {};
const calls: string[] = [];
let connectionListener: ((state: ConnectionState) => void) | null = null;
const eventListeners = new Map<string, (payload: unknown) => void>();

vi.mock('../ipc/client', () => ({
  api: new Proxy(
    {},
    {
      get: (_target, channel: string) =>
        channel === 'on'
          ? (event: string, listener: (payload: unknown) => void) => {
              eventListeners.set(event, listener);
              return () => eventListeners.delete(event);
            }
          : async (payload: never) => {
              calls.push(channel);
              const handler = handlers[channel];
              return handler ? { ok: true, value: await handler(payload) } : { ok: false, error: { code: 'UNHANDLED', message: channel } };
            },
    },
  ),
  onDidChangeConnection: (listener: (state: ConnectionState) => void) => {
    connectionListener = listener;
    return () => undefined;
  },
}));

const { useStore, bootstrap, connectStoreToEvents } = await import('./index');
const initial = useStore.getState();

const summary = (id: number, status: CrawlSummary['status']): CrawlSummary => ({ id, seeds: [`http://site${id}.test/`], status, createdAtMs: 0, finishedAtMs: null, fetched: 3, queued: 5, errors: 0, settings: DEFAULT_CRAWL_SETTINGS });
const progress = (crawlId: number, status: CrawlProgress['status'], fetched = 3): CrawlProgress => ({
  crawlId,
  status,
  fetched,
  queued: 5,
  inFlight: 0,
  errors: 0,
  pagesPerSecond: 2,
  elapsedMs: 90_000,
  refusedByRule: { scope: 4 },
  duplicates: 0,
});
const opened = (id: number, status: CrawlSummary['status']): OpenedCrawl => ({ summary: summary(id, status), running: status === 'running', refusedByRule: {}, rateHistory: [1, 2, 3], seedFailures: [] });

/** A promise and its resolver, to hold an answer of main back. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

beforeEach(() => {
  useStore.setState(initial, true);
  for (const key of Object.keys(handlers)) delete handlers[key];
  calls.length = 0;
  handlers['app.getInfo'] = async () => ({ mode: 'browser', version: '0', hostOverrides: [], closedResolver: false, defaultSettings: DEFAULT_CRAWL_SETTINGS, lastOpenCrawlId: null, exportFolder: '/tmp' });
  handlers['settings.get'] = async () => ({});
  handlers['crawl.list'] = async () => [];
  handlers['crawl.getRecovery'] = async () => null;
  handlers['crawl.open'] = async ({ crawlId }: { crawlId: number }) => opened(crawlId, 'interrupted');
  handlers['crawl.getProgress'] = async ({ crawlId }: { crawlId: number }) => progress(crawlId, 'interrupted');
});

describe('startup decides before the first paint', () => {
  it('stays not ready until the "Resume crawl?" offer and its crawl are loaded, so no idle form shows first', async () => {
    const offer = deferred<RecoveryOffer | null>();
    handlers['crawl.getRecovery'] = () => offer.promise;
    const started = bootstrap();
    await vi.waitFor(() => expect(calls).toContain('crawl.getRecovery'));
    expect(useStore.getState().ready).toBe(false);
    offer.resolve({ crawlId: 7, seeds: ['http://site7.test/'], pagesDone: 3, queued: 5, errors: 0, createdAtMs: 0 });
    await started;
    expect(useStore.getState()).toMatchObject({ ready: true, crawlId: 7, recovery: { crawlId: 7 } });
    expect(useStore.getState().opened?.summary.id).toBe(7);
  });

  it('is ready even when main cannot be reached (the banner and the error say why)', async () => {
    for (const channel of ['app.getInfo', 'crawl.getRecovery', 'settings.get', 'crawl.list']) delete handlers[channel];
    await bootstrap();
    expect(useStore.getState().ready).toBe(true);
  });
});

describe('the running crawl, wherever you are', () => {
  it('keeps the progress of a running crawl that is not the open one, and drops it when it ends', async () => {
    await useStore.getState().openCrawl(2);
    useStore.getState().applyProgress(progress(1, 'running', 10));
    expect(useStore.getState().liveCrawls[1]?.fetched).toBe(10);
    expect(useStore.getState().progress?.crawlId).toBe(2);
    useStore.getState().applyFinish(summary(1, 'finished'));
    expect(useStore.getState().liveCrawls[1]).toBeUndefined();
  });

  it('loads the crawls running in the app at startup', async () => {
    handlers['crawl.list'] = async () => [summary(1, 'running'), summary(2, 'finished')];
    handlers['crawl.getProgress'] = async ({ crawlId }: { crawlId: number }) => progress(crawlId, crawlId === 1 ? 'running' : 'finished');
    await bootstrap();
    expect(Object.keys(useStore.getState().liveCrawls)).toEqual(['1']);
  });

  it('asks before starting a second crawl while one runs, and starts nothing when the answer is no', async () => {
    handlers['crawl.start'] = async () => ({ crawlId: 9 });
    useStore.getState().applyProgress(progress(1, 'running'));
    const declined = useStore.getState().startCrawl(['http://b.test/'], {});
    await vi.waitFor(() => expect(useStore.getState().pendingStart?.runningCrawlIds).toEqual([1]));
    useStore.getState().pendingStart!.answer(false);
    expect(await declined).toBe(false);
    expect(calls).not.toContain('crawl.start');
    expect(useStore.getState().pendingStart).toBeNull();

    const accepted = useStore.getState().startCrawl(['http://b.test/'], {});
    await vi.waitFor(() => expect(useStore.getState().pendingStart).not.toBeNull());
    useStore.getState().pendingStart!.answer(true);
    expect(await accepted).toBe(true);
    expect(useStore.getState().crawlId).toBe(9);
  });

  it('starts at once when no other crawl runs', async () => {
    handlers['crawl.start'] = async () => ({ crawlId: 9 });
    useStore.getState().applyProgress(progress(1, 'paused'));
    expect(await useStore.getState().startCrawl(['http://b.test/'], {})).toBe(true);
    expect(useStore.getState().pendingStart).toBeNull();
  });
});

describe('a resumed crawl keeps its history', () => {
  it('resuming shows the stored pages/s history and whole-crawl counters instead of starting from empty', async () => {
    handlers['crawl.resume'] = async ({ crawlId }: { crawlId: number }) => ({ crawlId });
    await useStore.getState().openCrawl(4);
    handlers['crawl.open'] = async ({ crawlId }: { crawlId: number }) => opened(crawlId, 'running');
    handlers['crawl.getProgress'] = async ({ crawlId }: { crawlId: number }) => progress(crawlId, 'running');
    expect(await useStore.getState().resumeCrawl()).toBe(true);
    expect(useStore.getState().rateHistory).toEqual([1, 2, 3]);
    useStore.getState().applyProgress(progress(4, 'running'));
    expect(useStore.getState().rateHistory).toEqual([1, 2, 3, 2]);
    expect(useStore.getState().progress).toMatchObject({ elapsedMs: 90_000, refusedByRule: { scope: 4 } });
  });
});

describe('the connection to main', () => {
  it('shows the state of the connection and reads everything again after a reconnect', async () => {
    const disconnect = connectStoreToEvents();
    await useStore.getState().openCrawl(3);
    connectionListener!({ status: 'lost', attempts: 1, reconnected: false });
    expect(useStore.getState().connection).toBe('lost');
    // Meanwhile the server was restarted: its crawl is now interrupted and offered for recovery.
    handlers['crawl.getRecovery'] = async () => ({ crawlId: 3, seeds: [], pagesDone: 3, queued: 5, errors: 0, createdAtMs: 0 });
    calls.length = 0;
    connectionListener!({ status: 'connected', attempts: 0, reconnected: true });
    expect(useStore.getState().connection).toBe('connected');
    await vi.waitFor(() => expect(useStore.getState().recovery?.crawlId).toBe(3));
    expect(calls).toEqual(expect.arrayContaining(['app.getInfo', 'crawl.getRecovery', 'crawl.list', 'crawl.open', 'crawl.getProgress']));
    disconnect();
  });
});
