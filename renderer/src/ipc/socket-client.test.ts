import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSocketApi } from './socket-client';

/** A stand-in for the browser's WebSocket: records its URL and what was sent. */
class FakeSocket extends EventTarget {
  static readonly OPEN = 1;
  static last: FakeSocket;
  readyState = 0;
  readonly sent: string[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.last = this;
    queueMicrotask(() => {
      this.readyState = FakeSocket.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }
  send(text: string): void {
    this.sent.push(text);
  }
  /** The server's side: closes with `code`. */
  serverClose(code: number): void {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event('close'), { code }));
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('browser-mode socket client', () => {
  it('opens the socket at ipc relative to the page, so the token in the path travels with it', () => {
    createSocketApi({ href: 'http://127.0.0.1:4000/t/abc_DEF-123456789/?x=1#y' });
    expect(FakeSocket.last.url).toBe('ws://127.0.0.1:4000/t/abc_DEF-123456789/ipc');
  });

  it('answers a request over the frame limit with INVALID_PAYLOAD without sending it', async () => {
    const api = createSocketApi({ href: 'http://127.0.0.1:4000/t/abc_DEF-123456789/' }, 1000);
    const result = await api['crawl.start']({ seeds: Array.from({ length: 100 }, (_, i) => `http://a.test/${i}`) });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('at most 1000') } });
    expect(FakeSocket.last.sent).toEqual([]);
  });

  it('resolves a pending request with INVALID_PAYLOAD when the server closes with 1009 (message too big)', async () => {
    const api = createSocketApi({ href: 'http://127.0.0.1:4000/t/abc_DEF-123456789/' });
    const pending = api['crawl.list']({});
    await vi.waitFor(() => expect(FakeSocket.last.sent).toHaveLength(1));
    FakeSocket.last.serverClose(1009);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
  });
});
