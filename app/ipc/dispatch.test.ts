import { describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, IPC_EVENTS } from '../../shared/ipc/channels';
import type { IpcHandlers } from '../../shared/ipc/contract';
import type { SavedSettings } from '../../shared/ipc/views';
import { requestSchemas } from '../../shared/ipc/schemas';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSummary } from '../../shared/types/crawl';
import { CodedError, type Result } from '../../shared/types/result';
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
  blocked: 0, held: 0,
  settings: { ...DEFAULT_CRAWL_SETTINGS },
};

const SAVED: SavedSettings = { tld: { ...DEFAULT_CRAWL_SETTINGS.tld }, ignoredExtensions: 'zip', normalizationProfile: DEFAULT_CRAWL_SETTINGS.normalizationProfile };

function fakeHandlers(): { [C in keyof IpcHandlers]: ReturnType<typeof vi.fn<IpcHandlers[C]>> } {
  return {
    'app.getInfo': vi.fn<IpcHandlers['app.getInfo']>(async () => ({
      mode: 'browser',
      version: '0.0.0-test',
      hostOverrides: [],
      closedResolver: false,
      defaultSettings: { ...DEFAULT_CRAWL_SETTINGS },
      lastOpenCrawlId: null,
      exportFolder: '/tmp',
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
      blocked: 0, held: 0,
      pagesPerSecond: 2.5,
      elapsedMs: 1_200,
      refusedByRule: { scope: 2 },
      duplicates: 0,
    })),
    'frontier.queryUrls': vi.fn<IpcHandlers['frontier.queryUrls']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
    'crawl.pause': vi.fn<IpcHandlers['crawl.pause']>(async () => ({ paused: true })),
    'crawl.resume': vi.fn<IpcHandlers['crawl.resume']>(async ({ crawlId }) => ({ crawlId })),
    'crawl.open': vi.fn<IpcHandlers['crawl.open']>(async () => ({ summary: SUMMARY, running: false, refusedByRule: {}, rateHistory: [], seedFailures: [] })),
    'crawl.applySettings': vi.fn<IpcHandlers['crawl.applySettings']>(async ({ crawlId }) => ({ crawlId })),
    'crawl.getRecovery': vi.fn<IpcHandlers['crawl.getRecovery']>(async () => null),
    'crawl.discardRecovery': vi.fn<IpcHandlers['crawl.discardRecovery']>(async () => ({ discarded: true })),
    'frontier.queryHosts': vi.fn<IpcHandlers['frontier.queryHosts']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
    'pages.query': vi.fn<IpcHandlers['pages.query']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
    'dust.mine': vi.fn<IpcHandlers['dust.mine']>(async ({ crawlId }) => ({
      crawlId,
      proposals: [],
      stats: { pages: 0, buckets: 0, bucketsSkipped: 0, pairs: 0, pairsCapped: false, candidates: 0, candidatesCapped: false },
      pagesTruncated: false,
      rules: [],
    })),
    'dust.accept': vi.fn<IpcHandlers['dust.accept']>(async () => ({ ruleId: 1, rekeyed: 0, merged: 0, fetchesSaved: 0, fetchedDuplicates: 0, examples: [] })),
    'dust.undo': vi.fn<IpcHandlers['dust.undo']>(async () => ({ restored: 0, rekeyed: 0 })),
    'dust.groupRules': vi.fn<IpcHandlers['dust.groupRules']>(async () => []),
    'duplicates.queryUrlGroups': vi.fn<IpcHandlers['duplicates.queryUrlGroups']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
    'duplicates.getUrlGroup': vi.fn<IpcHandlers['duplicates.getUrlGroup']>(async () => {
      throw new CodedError('GROUP_NOT_FOUND', 'none');
    }),
    'duplicates.queryContentGroups': vi.fn<IpcHandlers['duplicates.queryContentGroups']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
    'duplicates.getContentGroup': vi.fn<IpcHandlers['duplicates.getContentGroup']>(async () => {
      throw new CodedError('GROUP_NOT_FOUND', 'none');
    }),
    'duplicates.queryVersionTemplates': vi.fn<IpcHandlers['duplicates.queryVersionTemplates']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
    'duplicates.getVersionTemplate': vi.fn<IpcHandlers['duplicates.getVersionTemplate']>(async () => {
      throw new CodedError('VERSION_TEMPLATE_NOT_FOUND', 'none');
    }),
    'settings.get': vi.fn<IpcHandlers['settings.get']>(async () => SAVED),
    'settings.update': vi.fn<IpcHandlers['settings.update']>(async () => SAVED),
    'settings.testDomain': vi.fn<IpcHandlers['settings.testDomain']>(async () => ({ host: 'a.test', registrableDomain: 'a.test', publicSuffix: 'test', fellBack: true, warning: 'w', error: null, trace: [] })),
    'settings.getPublicSuffixList': vi.fn<IpcHandlers['settings.getPublicSuffixList']>(async () => ({ rules: ['co.uk'], skipped: 0, snapshotDate: '2026-01-01' })),
    'settings.previewNormalization': vi.fn<IpcHandlers['settings.previewNormalization']>(async () => ({ examined: 0, sampled: false, changedKeys: 0, mergedGroups: 0, splitGroups: 0, changedExamples: [], mergedExamples: [], splitExamples: [] })),
    'checkpoints.list': vi.fn<IpcHandlers['checkpoints.list']>(async () => []),
    'checkpoints.create': vi.fn<IpcHandlers['checkpoints.create']>(async ({ crawlId, name }) => ({ crawlId, name, createdAtMs: 1, pagesDone: 0, frontierSize: 0, settingsHash: 'x' })),
    'checkpoints.resume': vi.fn<IpcHandlers['checkpoints.resume']>(async ({ crawlId }) => ({ crawlId })),
    'export.showInFolder': vi.fn<IpcHandlers['export.showInFolder']>(async () => ({ shown: true })),
    'export.start': vi.fn<IpcHandlers['export.start']>(async (request) => ({ ...request, exportId: 1, rowsWritten: 0, totalRows: 0, state: 'running', error: null })),
    'overview.get': vi.fn<IpcHandlers['overview.get']>(async () => {
      throw new CodedError('CRAWL_NOT_FOUND', 'none');
    }),
    'siteTree.children': vi.fn<IpcHandlers['siteTree.children']>(async ({ offset }) => ({ nodes: [], total: 0, offset })),
    'urls.ancestry': vi.fn<IpcHandlers['urls.ancestry']>(async () => ({ hops: [], truncated: false })),
    'urls.inspect': vi.fn<IpcHandlers['urls.inspect']>(async () => {
      throw new CodedError('URL_NOT_FOUND', 'none');
    }),
    'urls.source': vi.fn<IpcHandlers['urls.source']>(async () => ({ stored: false, reason: 'none' })),
    'urls.queryLinks': vi.fn<IpcHandlers['urls.queryLinks']>(async ({ offset }) => ({ rows: [], total: 0, offset, refused: 0 })),
    'urls.refetch': vi.fn<IpcHandlers['urls.refetch']>(async () => ({ outcome: 'queued', message: 'queued' })),
    'urls.exclude': vi.fn<IpcHandlers['urls.exclude']>(async ({ rule }) => ({ rule, value: 'pdf', message: 'added', restarted: false })),
    'urls.openExternal': vi.fn<IpcHandlers['urls.openExternal']>(async () => ({ opened: true })),
    'frontier.queryTraps': vi.fn<IpcHandlers['frontier.queryTraps']>(async () => []),
    'frontier.setTrapState': vi.fn<IpcHandlers['frontier.setTrapState']>(async ({ trapId, state }) => ({ trapId, state, released: 0, message: 'done' })),
    'compare.run': vi.fn<IpcHandlers['compare.run']>(async () => {
      throw new CodedError('NOTHING_TO_COMPARE', 'none');
    }),
    'compare.changes': vi.fn<IpcHandlers['compare.changes']>(async ({ offset }) => ({ rows: [], total: 0, offset })),
    'extract.rerun': vi.fn<IpcHandlers['extract.rerun']>(async ({ crawlId }) => ({ rerunId: 1, crawlId, extractors: [], done: 0, total: 1, pages: 0, skipped: 0, state: 'running', ms: 0, error: null })),
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
      ['frontier.queryUrls', 'withTotal of wrong type', { crawlId: 1, offset: 0, limit: 10, withTotal: 'no' }],
      ['crawl.pause', 'missing crawlId', {}],
      ['crawl.resume', 'negative crawlId', { crawlId: -1 }],
      ['crawl.open', 'extra key', { crawlId: 1, readonly: true }],
      ['crawl.applySettings', 'normalization profile (a crawl keeps its keys)', { crawlId: 1, settings: { normalizationProfile: DEFAULT_CRAWL_SETTINGS.normalizationProfile } }],
      ['crawl.applySettings', 'bad extension list', { crawlId: 1, settings: { ignoredExtensions: '.PDF' } }],
      ['crawl.getRecovery', 'extra key', { crawlId: 1 }],
      ['crawl.discardRecovery', 'crawlId as string', { crawlId: '1' }],
      ['frontier.queryHosts', 'limit 0', { crawlId: 1, offset: 0, limit: 0 }],
      ['duplicates.queryUrlGroups', 'missing limit', { crawlId: 1, offset: 0 }],
      ['duplicates.getUrlGroup', 'missing urlId', { crawlId: 1 }],
      ['duplicates.queryContentGroups', 'unknown kind', { crawlId: 1, offset: 0, limit: 10, kind: 'similar' }],
      ['duplicates.getContentGroup', 'groupId 0', { crawlId: 1, groupId: 0 }],
      ['dust.accept', 'a rule of an unknown kind', { crawlId: 1, rule: { kind: 'regex', host: 'a.test' }, whileRunning: 'refuse' }],
      ['dust.accept', 'no choice for a running crawl', { crawlId: 1, rule: { kind: 'parameter', host: 'a.test', name: 'ref' } }],
      ['dust.mine', 'min support 0', { crawlId: 1, minSupport: 0 }],
      ['settings.get', 'extra key', { all: true }],
      ['settings.update', 'unknown setting', { threads: 4 }],
      ['settings.update', 'TLD entry with a leading dot', { tld: { mode: 'seed', generic: ['com'], additional: ['.co.uk'] } }],
      ['settings.update', 'uppercase extension', { ignoredExtensions: 'pdf|ZIP' }],
      ['settings.update', 'extension list with an empty entry', { ignoredExtensions: 'pdf||zip' }],
      ['settings.update', 'profile missing a rule', { normalizationProfile: { name: 'x', rules: {} } }],
      ['settings.testDomain', 'empty url', { url: '', tld: DEFAULT_CRAWL_SETTINGS.tld }],
      ['settings.testDomain', 'bad tld mode', { url: 'http://a.test/', tld: { mode: 'dns', generic: [], additional: [] } }],
      ['settings.getPublicSuffixList', 'a number', 3],
      ['settings.previewNormalization', 'missing profile', { crawlId: 1 }],
      ['checkpoints.list', 'missing crawlId', {}],
      ['checkpoints.create', 'name with a slash', { crawlId: 1, name: '../evil' }],
      ['checkpoints.create', 'name too long', { crawlId: 1, name: 'x'.repeat(65) }],
      ['checkpoints.resume', 'missing name', { crawlId: 1 }],
      ['export.showInFolder', 'a path instead of an export id', { file: '/etc/passwd' }],
      ['export.showInFolder', 'export id 0', { exportId: 0 }],
      ['export.start', 'unknown kind', { crawlId: 1, kind: 'links', format: 'csv', file: '/tmp/x.csv' }],
      ['export.start', 'unknown format', { crawlId: 1, kind: 'pages', format: 'xlsx', file: '/tmp/x.xlsx' }],
      ['export.start', 'missing file', { crawlId: 1, kind: 'pages', format: 'csv' }],
      ['urls.inspect', 'missing urlId', { crawlId: 1 }],
      ['urls.inspect', 'urlId 0', { crawlId: 1, urlId: 0 }],
      ['urls.queryLinks', 'unknown direction', { crawlId: 1, urlId: 2, direction: 'both', offset: 0, limit: 10 }],
      ['urls.queryLinks', 'limit too large', { crawlId: 1, urlId: 2, direction: 'in', offset: 0, limit: 1_001 }],
      ['urls.refetch', 'urlId as string', { crawlId: 1, urlId: '2' }],
      ['urls.exclude', 'a rule it cannot add', { crawlId: 1, urlId: 2, rule: 'scope' }],
      ['urls.openExternal', 'a javascript: URL', { url: 'javascript:alert(1)' }],
      ['urls.openExternal', 'a file: URL', { url: 'file:///etc/passwd' }],
      ['urls.openExternal', 'a URL with a space', { url: 'http://a.test/x y' }],
      ['compare.run', 'no after crawl and no file', { beforeCrawlId: 1 }],
      ['compare.run', 'crawl ids as strings', { beforeCrawlId: '1', afterCrawlId: '2' }],
      ['compare.run', 'an empty file', { beforeCrawlId: 1, afterFile: '' }],
      ['compare.run', 'a file path too long', { beforeCrawlId: 1, afterFile: `/${'x'.repeat(4096)}` }],
      ['compare.run', 'extra key', { beforeCrawlId: 1, afterCrawlId: 2, threshold: 0.5 }],
      ['compare.changes', 'an unknown kind', { comparisonId: 1, kind: 'moved', offset: 0, limit: 10 }],
      ['compare.changes', 'limit too large', { comparisonId: 1, offset: 0, limit: 1_001 }],
      ['compare.changes', 'missing comparisonId', { offset: 0, limit: 10 }],
      ['compare.changes', 'filter too long', { comparisonId: 1, offset: 0, limit: 10, urlContains: 'x'.repeat(2049) }],
      ['extract.rerun', 'lines as one string', { crawlId: 1, lines: 'price=css:.price' }],
      ['extract.rerun', 'a line of wrong type', { crawlId: 1, lines: [42] }],
      ['extract.rerun', 'too many lines', { crawlId: 1, lines: Array.from({ length: 65 }, (_, i) => `x${i}=css:p`) }],
      ['extract.rerun', 'a line too long', { crawlId: 1, lines: [`price=css:${'p'.repeat(1300)}`] }],
      ['extract.rerun', 'missing crawlId', { lines: [] }],
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

    it('routes the view channels with their validated payloads', async () => {
      const handlers = fakeHandlers();
      const dispatch = createDispatcher(handlers);
      const patch = { tld: { mode: 'seed', generic: ['com'], additional: ['co.uk'] }, ignoredExtensions: 'pdf|zip' };
      expect(await dispatch('settings.update', patch)).toMatchObject({ ok: true });
      expect(handlers['settings.update']).toHaveBeenCalledWith(patch);
      expect(await dispatch('export.start', { crawlId: 2, kind: 'urlGroups', format: 'jsonl', file: '/tmp/g.jsonl' })).toMatchObject({ ok: true, value: { kind: 'urlGroups', state: 'running' } });
      expect(await dispatch('frontier.queryUrls', { crawlId: 1, offset: 0, limit: 10, withTotal: false })).toMatchObject({ ok: true });
      expect(handlers['frontier.queryUrls']).toHaveBeenCalledWith({ crawlId: 1, offset: 0, limit: 10, withTotal: false });
      expect(await dispatch('checkpoints.create', { crawlId: 3, name: 'before-upgrade_1.0' })).toMatchObject({ ok: true, value: { name: 'before-upgrade_1.0' } });
    });

    it('routes the Compare view and extractor re-run channels with their validated payloads', async () => {
      const handlers = fakeHandlers();
      const dispatch = createDispatcher(handlers);
      expectError(await dispatch('compare.run', { beforeCrawlId: 1, afterFile: '/data/other.db' }), 'NOTHING_TO_COMPARE');
      expect(handlers['compare.run']).toHaveBeenCalledWith({ beforeCrawlId: 1, afterFile: '/data/other.db' });
      expect(await dispatch('compare.changes', { comparisonId: 2, kind: 'near-changed', urlContains: 'docs', offset: 100, limit: 100 })).toEqual({ ok: true, value: { rows: [], total: 0, offset: 100 } });
      expect(await dispatch('extract.rerun', { crawlId: 4, lines: ['price=css:.price', ''] })).toMatchObject({ ok: true, value: { crawlId: 4, state: 'running' } });
      expect(handlers['extract.rerun']).toHaveBeenCalledWith({ crawlId: 4, lines: ['price=css:.price', ''] });
    });

    it('a bad TLD entry is refused with the validator’s own words', async () => {
      const message = expectError(await createDispatcher(fakeHandlers())('settings.update', { tld: { mode: 'seed', generic: ['com'], additional: ['.co.uk'] } }), 'INVALID_PAYLOAD');
      expect(message).toBe('Invalid payload for settings.update at tld: additional[0] ".co.uk" has a leading dot (write "co.uk")');
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
      handlers['crawl.list'].mockRejectedValueOnce(Object.assign(new Error('bad thing'), { code: 'ERR_SOMETHING' }));
      expectError(await createDispatcher(handlers)('crawl.list', {}), 'INTERNAL');
    });

    it('a refused write (SQLITE_IOERR, SQLITE_FULL) is its storage code in plain words, not INTERNAL', async () => {
      const handlers = fakeHandlers();
      handlers['crawl.list'].mockRejectedValueOnce(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }));
      expectError(await createDispatcher(handlers)('crawl.list', {}), 'DB_IO_ERROR');
      handlers['crawl.list'].mockRejectedValueOnce(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
      expect(await createDispatcher(handlers)('crawl.list', {})).toMatchObject({ ok: false, error: { code: 'DISK_FULL', message: expect.stringContaining('the disk is full (SQLITE_FULL)') } });
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
    expect([...IPC_CHANNELS]).toEqual([
      'app.getInfo',
      'crawl.start',
      'crawl.stop',
      'crawl.list',
      'crawl.getProgress',
      'frontier.queryUrls',
      'crawl.pause',
      'crawl.resume',
      'crawl.open',
      'crawl.applySettings',
      'crawl.getRecovery',
      'crawl.discardRecovery',
      'frontier.queryHosts',
      'duplicates.queryUrlGroups',
      'duplicates.getUrlGroup',
      'duplicates.queryContentGroups',
      'duplicates.getContentGroup',
      'duplicates.queryVersionTemplates',
      'duplicates.getVersionTemplate',
      'settings.get',
      'settings.update',
      'settings.testDomain',
      'settings.getPublicSuffixList',
      'settings.previewNormalization',
      'checkpoints.list',
      'checkpoints.create',
      'checkpoints.resume',
      'export.showInFolder',
      'export.start',
      'overview.get',
      'siteTree.children',
      'urls.ancestry',
      'urls.inspect',
      'urls.source',
      'urls.queryLinks',
      'urls.refetch',
      'urls.exclude',
      'urls.openExternal',
      'pages.query',
      'dust.mine',
      'dust.accept',
      'dust.undo',
      'dust.groupRules',
      'frontier.queryTraps',
      'frontier.setTrapState',
      'compare.run',
      'compare.changes',
      'extract.rerun',
    ]);
  });

  it('push events are exactly these', () => {
    expect([...IPC_EVENTS]).toEqual(['crawl.onDidProgress', 'crawl.onDidFinish', 'crawl.onDidFail', 'export.onDidProgress', 'extract.onDidProgress']);
  });

  it('every channel has a request schema and there are no extra schemas', () => {
    expect(Object.keys(requestSchemas).sort()).toEqual([...IPC_CHANNELS].sort());
  });
});
