import { describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, IPC_EVENTS } from '../../../shared/ipc/channels';
import type { IpcHandlers } from '../../../shared/ipc/contract';
import { requestSchemas } from '../../../shared/ipc/schemas';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSummary } from '../../../shared/types/crawl';
import { CodedError, type Result } from '../../../shared/types/result';
import { createDispatcher } from './dispatch';

const SUMMARY: CrawlSummary = {
  id: 7,
  seeds: ['http://site.test/'],
  status: 'running',
  createdAtMs: 1,
  finishedAtMs: null,
  fetched: 0,
  queued: 1,
  errors: 0,
  settings: { ...DEFAULT_CRAWL_SETTINGS },
};

function fakeHandlers(): { [C in keyof IpcHandlers]: ReturnType<typeof vi.fn<IpcHandlers[C]>> } {
  return {
    'app.getInfo': vi.fn<IpcHandlers['app.getInfo']>(async () => ({
      mode: 'browser',
      version: '0.0.0-test',
      hostOverrides: [],
      closedResolver: false,
      defaultSettings: { ...DEFAULT_CRAWL_SETTINGS },
    })),
    'crawl.start': vi.fn<IpcHandlers['crawl.start']>(async () => ({ crawlId: 7 })),
    'crawl.stop': vi.fn<IpcHandlers['crawl.stop']>(async () => ({ stopped: true })),
    'crawl.list': vi.fn<IpcHandlers['crawl.list']>(async () => [SUMMARY]),
    'crawl.getProgress': vi.fn<IpcHandlers['crawl.getProgress']>(async ({ crawlId }) => ({
      crawlId,
      status: 'running',
      fetched: 3,
      queued: 4,
      inFlight: 1,
      errors: 0,
      pagesPerSecond: 2.5,
      elapsedMs: 1_200,
      refusedByRule: { scope: 2 },
      duplicates: 0,
    })),
    'frontier.queryUrls': vi.fn<IpcHandlers['frontier.queryUrls']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
  };
}

function expectError(result: Result<unknown>, code: string): string {
  if (result.ok) throw new Error(`expected ${code}, got ok: ${JSON.stringify(result.value)}`);
  expect(result.error.code).toBe(code);
  return result.error.message;
}

describe('createDispatcher', () => {
  describe('unknown channels', () => {
    it.each([['crawl.delete'], ['app.getinfo'], [''], [' app.getInfo'], ['toString'], ['__proto__'], ['constructor'], [42], [null], [undefined], [{}], [['app.getInfo']]])(
      '%j → UNKNOWN_CHANNEL',
      async (channel) => {
        const handlers = fakeHandlers();
        const result = await createDispatcher(handlers)(channel, {});
        expectError(result, 'UNKNOWN_CHANNEL');
        for (const handler of Object.values(handlers)) expect(handler).not.toHaveBeenCalled();
      },
    );

    it('quotes and truncates a long unknown channel name in the message', async () => {
      const message = expectError(await createDispatcher(fakeHandlers())('x'.repeat(500), {}), 'UNKNOWN_CHANNEL');
      expect(message).toContain('"xxx');
      expect(message.length).toBeLessThan(150);
    });
  });

  describe('invalid payloads', () => {
    const cases: [string, string, unknown][] = [
      ['crawl.stop', 'wrong type', { crawlId: '7' }],
      ['crawl.stop', 'not an integer', { crawlId: 1.5 }],
      ['crawl.stop', 'not positive', { crawlId: 0 }],
      ['crawl.stop', 'extra key', { crawlId: 7, force: true }],
      ['crawl.stop', 'missing field', {}],
      ['crawl.stop', 'null', null],
      ['crawl.stop', 'a string', 'crawlId=7'],
      ['crawl.stop', 'an array', [7]],
      ['crawl.stop', 'a number', 7],
      ['crawl.getProgress', 'missing field', { id: 7 }],
      ['app.getInfo', 'extra key', { verbose: true }],
      ['app.getInfo', 'a string', 'please'],
      ['crawl.list', 'extra key', { all: true }],
      ['crawl.start', 'missing seeds', { settings: {} }],
      ['crawl.start', 'empty seeds', { seeds: [] }],
      ['crawl.start', 'seed of wrong type', { seeds: [42] }],
      ['crawl.start', 'empty seed', { seeds: [''] }],
      ['crawl.start', 'unknown setting', { seeds: ['http://a.test/'], settings: { turbo: true } }],
      ['crawl.start', 'setting out of range', { seeds: ['http://a.test/'], settings: { threads: 0 } }],
      ['crawl.start', 'setting of wrong type', { seeds: ['http://a.test/'], settings: { obeyRobots: 'yes' } }],
      ['crawl.start', 'unknown scope', { seeds: ['http://a.test/'], settings: { scope: 'everything' } }],
      ['crawl.start', 'bad host override port', { seeds: ['http://a.test/'], settings: { hostOverrides: [{ host: 'a.test', address: '127.0.0.1', port: 70_000 }] } }],
      ['frontier.queryUrls', 'missing offset and limit', { crawlId: 1 }],
      ['frontier.queryUrls', 'limit too large', { crawlId: 1, offset: 0, limit: 1_001 }],
      ['frontier.queryUrls', 'negative offset', { crawlId: 1, offset: -1, limit: 10 }],
      ['frontier.queryUrls', 'unknown state', { crawlId: 1, offset: 0, limit: 10, state: 'crawling' }],
      ['frontier.queryUrls', 'extra key', { crawlId: 1, offset: 0, limit: 10, orderBy: 'url' }],
    ];

    it.each(cases)('%s with %s → INVALID_PAYLOAD naming the channel; handler not called', async (channel, _label, payload) => {
      const handlers = fakeHandlers();
      const message = expectError(await createDispatcher(handlers)(channel, payload), 'INVALID_PAYLOAD');
      expect(message).toContain(`Invalid payload for ${channel}`);
      for (const handler of Object.values(handlers)) expect(handler).not.toHaveBeenCalled();
    });

    it('names the path of the first problem', async () => {
      const dispatch = createDispatcher(fakeHandlers());
      expect(expectError(await dispatch('crawl.stop', { crawlId: 'x' }), 'INVALID_PAYLOAD')).toMatch(/^Invalid payload for crawl\.stop at crawlId: /);
      expect(expectError(await dispatch('crawl.start', { seeds: ['http://a.test/', 5] }), 'INVALID_PAYLOAD')).toContain(' at seeds.1: ');
      expect(
        expectError(await dispatch('crawl.start', { seeds: ['http://a.test/'], settings: { hostOverrides: [{ host: '', address: '1.2.3.4' }] } }), 'INVALID_PAYLOAD'),
      ).toContain(' at settings.hostOverrides.0.host: ');
    });
  });

  describe('valid payloads', () => {
    it('passes the validated payload to the handler and wraps its answer', async () => {
      const handlers = fakeHandlers();
      const dispatch = createDispatcher(handlers);
      const payload = { seeds: ['http://site.test/'], settings: { threads: 2, scope: 'domain', hostOverrides: [{ host: 'site.test', address: '127.0.0.1', port: 8080 }] } };
      expect(await dispatch('crawl.start', payload)).toEqual({ ok: true, value: { crawlId: 7 } });
      expect(handlers['crawl.start']).toHaveBeenCalledTimes(1);
      expect(handlers['crawl.start']).toHaveBeenCalledWith(payload);
    });

    it('routes each channel to its own handler', async () => {
      const handlers = fakeHandlers();
      const dispatch = createDispatcher(handlers);
      expect(await dispatch('crawl.stop', { crawlId: 3 })).toEqual({ ok: true, value: { stopped: true } });
      expect(await dispatch('crawl.list', {})).toEqual({ ok: true, value: [SUMMARY] });
      expect(await dispatch('crawl.getProgress', { crawlId: 9 })).toMatchObject({ ok: true, value: { crawlId: 9, fetched: 3 } });
      expect(await dispatch('frontier.queryUrls', { crawlId: 1, offset: 40, limit: 20, state: 'done', host: 'site.test', text: 'x' })).toEqual({
        ok: true,
        value: { rows: [], total: 0, offset: 40 },
      });
      expect(handlers['crawl.stop']).toHaveBeenCalledWith({ crawlId: 3 });
      expect(handlers['frontier.queryUrls']).toHaveBeenCalledWith({ crawlId: 1, offset: 40, limit: 20, state: 'done', host: 'site.test', text: 'x' });
      expect(handlers['crawl.getProgress']).toHaveBeenCalledWith({ crawlId: 9 });
      expect(handlers['app.getInfo']).not.toHaveBeenCalled();
      expect(handlers['crawl.start']).not.toHaveBeenCalled();
    });

    it('treats a missing payload of a channel without fields as {}', async () => {
      const handlers = fakeHandlers();
      const result = await createDispatcher(handlers)('app.getInfo', undefined);
      expect(result).toMatchObject({ ok: true, value: { mode: 'browser', version: '0.0.0-test' } });
      expect(handlers['app.getInfo']).toHaveBeenCalledWith({});
    });
  });

  describe('handler failures', () => {
    it('a CodedError keeps its code and message', async () => {
      const handlers = fakeHandlers();
      handlers['crawl.getProgress'].mockRejectedValueOnce(new CodedError('CRAWL_NOT_FOUND', 'No crawl with id 99'));
      expect(await createDispatcher(handlers)('crawl.getProgress', { crawlId: 99 })).toEqual({
        ok: false,
        error: { code: 'CRAWL_NOT_FOUND', message: 'No crawl with id 99' },
      });
    });

    it('a CodedError thrown synchronously inside an async handler is caught', async () => {
      const handlers = fakeHandlers();
      handlers['crawl.stop'].mockImplementationOnce(async () => {
        throw new CodedError('CRAWL_NOT_RUNNING', 'already stopped');
      });
      expectError(await createDispatcher(handlers)('crawl.stop', { crawlId: 1 }), 'CRAWL_NOT_RUNNING');
    });

    it('a plain Error becomes INTERNAL with its message', async () => {
      const handlers = fakeHandlers();
      handlers['crawl.list'].mockRejectedValueOnce(new TypeError('cannot read properties of undefined'));
      expect(await createDispatcher(handlers)('crawl.list', {})).toEqual({
        ok: false,
        error: { code: 'INTERNAL', message: 'cannot read properties of undefined' },
      });
    });

    it('an Error carrying a code property that is not a CodedError is still INTERNAL', async () => {
      const handlers = fakeHandlers();
      handlers['crawl.list'].mockRejectedValueOnce(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }));
      expectError(await createDispatcher(handlers)('crawl.list', {}), 'INTERNAL');
    });

    it('a thrown non-Error becomes INTERNAL', async () => {
      const handlers = fakeHandlers();
      handlers['crawl.list'].mockRejectedValueOnce('just a string');
      expect(await createDispatcher(handlers)('crawl.list', {})).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'just a string' } });
    });

    it('a handler that throws synchronously (not async) is still turned into a result', async () => {
      const handlers = fakeHandlers();
      handlers['crawl.list'].mockImplementationOnce(() => {
        throw new CodedError('BUSY', 'sync throw');
      });
      await expect(createDispatcher(handlers)('crawl.list', {})).resolves.toEqual({ ok: false, error: { code: 'BUSY', message: 'sync throw' } });
    });
  });
});

describe('IPC surface snapshot', () => {
  it('request channels are exactly these', () => {
    expect([...IPC_CHANNELS]).toEqual(['app.getInfo', 'crawl.start', 'crawl.stop', 'crawl.list', 'crawl.getProgress', 'frontier.queryUrls']);
  });

  it('push events are exactly these', () => {
    expect([...IPC_EVENTS]).toEqual(['crawl.onDidProgress', 'crawl.onDidFinish']);
  });

  it('every channel has a request schema and there are no extra schemas', () => {
    expect(Object.keys(requestSchemas).sort()).toEqual([...IPC_CHANNELS].sort());
  });
});
