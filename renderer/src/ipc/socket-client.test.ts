import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSocketApi, createSocketClient, type ConnectionState } from './socket-client';

/** A stand-in for the browser's WebSocket: records its URL and what was sent. */
class FakeSocket extends EventTarget {
  static readonly OPEN = 1;
  static last: FakeSocket;
  readyState = 0;
  readonly sent: string[] = [];
  /** Whether the next socket opens (the server is up) or closes unopened (down, or refusing the token). */
  static serverUp = true;
  static made = 0;
  constructor(readonly url: string) {
    super();
    FakeSocket.last = this;
    FakeSocket.made += 1;
    const up = FakeSocket.serverUp;
    queueMicrotask(() => {
      if (!up) return this.serverClose(1006);
      this.readyState = FakeSocket.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }
  close(): void {
    this.readyState = 3;
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
  FakeSocket.serverUp = true;
  FakeSocket.made = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
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
    // Not a lost server: a new socket, without saying the connection was lost.
    const client = createSocketClient({ href: 'http://127.0.0.1:4000/t/abc_DEF-123456789/' });
    await vi.waitFor(() => expect(client.connection().status).toBe('connected'));
    FakeSocket.last.serverClose(1009);
    expect(client.connection().status).toBe('connected');
    await vi.advanceTimersByTimeAsync(250);
    expect(client.connection().status).toBe('connected');
  });
});

describe('browser-mode connection watch', () => {
  const PAGE = { href: 'http://127.0.0.1:4000/t/abc_DEF-123456789/' };
  const watchStates = (probeStatus: () => number | null) => {
    const client = createSocketClient(PAGE, { probePage: async () => probeStatus() });
    const states: ConnectionState[] = [];
    client.onDidChangeConnection((state) => states.push(state));
    return { client, states };
  };

  it('says "lost" as soon as the server closes the socket, then reconnects by itself when it is back and flags the reconnect', async () => {
    const { client, states } = watchStates(() => null);
    await vi.waitFor(() => expect(client.connection().status).toBe('connected'));
    FakeSocket.serverUp = false;
    FakeSocket.last.serverClose(1006);
    expect(client.connection().status).toBe('lost');
    // Down: each attempt fails and the next one waits longer.
    await vi.advanceTimersByTimeAsync(250);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.made).toBe(3);
    expect(client.connection()).toMatchObject({ status: 'lost', attempts: 3 });
    FakeSocket.serverUp = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.connection()).toEqual({ status: 'connected', attempts: 0, reconnected: true });
    expect(states.map((state) => state.status)).toEqual(['connected', 'lost', 'lost', 'lost', 'connected']);
  });

  it('counts a server that stops answering (the socket never closes) as lost within 2 s', async () => {
    const { client } = watchStates(() => null);
    await vi.waitFor(() => expect(client.connection().status).toBe('connected'));
    FakeSocket.serverUp = false;
    await vi.advanceTimersByTimeAsync(1000);
    // The watch pinged the silent server…
    expect(FakeSocket.last.sent.map((text) => JSON.parse(text).channel)).toEqual(['app.getInfo']);
    expect(client.connection().status).toBe('connected');
    await vi.advanceTimersByTimeAsync(1000);
    // …and gave up on it one second later.
    expect(client.connection().status).toBe('lost');
  });

  it('keeps a connection whose server answers the ping', async () => {
    const { client } = watchStates(() => null);
    await vi.waitFor(() => expect(client.connection().status).toBe('connected'));
    for (let second = 0; second < 5; second += 1) {
      await vi.advanceTimersByTimeAsync(1000);
      const socket = FakeSocket.last;
      const ping = socket.sent.at(-1);
      if (ping) socket.dispatchEvent(Object.assign(new Event('message'), { data: JSON.stringify({ kind: 'response', seq: JSON.parse(ping).seq, result: { ok: true, value: {} } }) }));
    }
    expect(client.connection().status).toBe('connected');
    expect(FakeSocket.made).toBe(1);
  });

  it('says "unauthorized" when the server is back but its page answers 401 (restarted with another token)', async () => {
    let probe: number | null = null;
    const { client } = watchStates(() => probe);
    await vi.waitFor(() => expect(client.connection().status).toBe('connected'));
    FakeSocket.serverUp = false;
    FakeSocket.last.serverClose(1006);
    await vi.advanceTimersByTimeAsync(250);
    expect(client.connection().status).toBe('lost');
    probe = 401;
    await vi.advanceTimersByTimeAsync(500);
    expect(client.connection().status).toBe('unauthorized');
  });
});
