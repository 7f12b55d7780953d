import { IPC_CHANNELS, type IpcChannel, type IpcEvent } from '../../../shared/ipc/channels';
import type { CrawlbenchApi, SocketFrame } from '../../../shared/ipc/contract';
import { MAX_REQUEST_FRAME_BYTES } from '../../../shared/ipc/limits';
import type { Result } from '../../../shared/types/result';

/** WebSocket close code for a message over the server's limit (RFC 6455 "Message Too Big"). */
const CLOSE_TOO_BIG = 1009;

/** Reconnect delays after a lost connection, ms: doubling from the first, capped at the last. */
export const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000] as const;
/** With no frame from the server for this long, the client sends a ping (a cheap `app.getInfo` request). */
export const PING_AFTER_SILENCE_MS = 1000;
/**
 * With no frame for this long after a ping, the connection counts as lost (a hung server or a
 * dead network path that never closes the socket); a killed server closes it at once.
 */
export const LOST_AFTER_SILENCE_MS = 2000;

/**
 * The state of browser mode's connection to the server.
 * - `connecting`: the first connection is being opened.
 * - `connected`: the socket is open and the server answers.
 * - `lost`: the socket closed or the server went silent; the client retries by itself.
 * - `unauthorized`: the server is back but refuses this page's token (it was restarted without
 *   `--token`): only opening the URL it printed helps; the client keeps retrying slowly in case
 *   it is restarted with the old token.
 */
export type ConnectionStatus = 'connecting' | 'connected' | 'lost' | 'unauthorized';

/** A connection state change, as the store receives it. */
export interface ConnectionState {
  status: ConnectionStatus;
  /** Reconnect attempts since the connection was lost (0 while connected). */
  attempts: number;
  /** True on the `connected` state that follows a `lost` or `unauthorized` one: the page should refresh what it shows. */
  reconnected: boolean;
}

/** The browser-mode client: the contract, plus the connection's state and its changes. */
export interface SocketClient {
  api: CrawlbenchApi;
  connection(): ConnectionState;
  /** Calls `listener` on every connection state change. @returns the function that removes it */
  onDidChangeConnection(listener: (state: ConnectionState) => void): () => void;
}

/** Options of {@link createSocketClient}; tests inject the limits and the HTTP probe. */
export interface SocketClientOptions {
  /** Largest request frame sent, bytes. @default MAX_REQUEST_FRAME_BYTES */
  maxFrameBytes?: number;
  /**
   * Asks the server for the page itself after a failed reconnect, to tell "down" from "up with
   * another token": resolves to the HTTP status, or null when nothing answers. @default a HEAD fetch
   */
  probePage?: (pageUrl: string) => Promise<number | null>;
}

/** UTF-8 length of a frame's text when it exceeds `limit`, else null (encoded only when it might). */
function overLimit(text: string, limit: number): number | null {
  if (text.length * 3 <= limit) return null;
  const bytes = new TextEncoder().encode(text).length;
  return bytes > limit ? bytes : null;
}

const headStatus = async (pageUrl: string): Promise<number | null> => {
  try {
    return (await fetch(pageUrl, { method: 'HEAD', cache: 'no-store' })).status;
  } catch {
    return null;
  }
};

/**
 * The contract over browser mode's WebSocket: one function per channel, like the Electron
 * preload. The page is `http://127.0.0.1:PORT/t/TOKEN/`; the socket is `ipc` relative to it
 * (`/t/TOKEN/ipc`), so the token travels in the path and no cookie is involved. Requests made
 * while the socket is down fail with DISCONNECTED; a request whose frame would exceed
 * MAX_REQUEST_FRAME_BYTES fails with INVALID_PAYLOAD without being sent.
 *
 * The connection is watched: a closed socket, or LOST_AFTER_SILENCE_MS without a frame after a
 * ping, makes it `lost`, and the client reconnects by itself after RECONNECT_DELAYS_MS (doubling,
 * capped at 2 s). When a reconnect fails while the page itself answers 401, the server came back
 * with another token: the state is `unauthorized`.
 * @param location the page's location (only `href` is read)
 */
export function createSocketClient(location: Pick<Location, 'href'>, options: SocketClientOptions = {}): SocketClient {
  const maxFrameBytes = options.maxFrameBytes ?? MAX_REQUEST_FRAME_BYTES;
  const probePage = options.probePage ?? headStatus;
  const pageUrl = new URL(location.href);
  pageUrl.search = '';
  pageUrl.hash = '';
  const socketUrl = new URL('ipc', pageUrl.href);
  socketUrl.protocol = socketUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = socketUrl.href;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = { status: 'connecting', attempts: 0, reconnected: false };
  let seq = 0;
  let socket: WebSocket;
  let opened: Promise<void>;
  let lastFrameAtMs = 0;
  let pingSentAtMs: number | null = null;
  let watchdog: ReturnType<typeof setTimeout> | null = null;

  const setState = (next: ConnectionState): void => {
    if (next.status === state.status && next.attempts === state.attempts) return;
    state = next;
    for (const listener of stateListeners) listener(state);
  };

  const send = (text: string, frameSeq: number, resolve: (result: Result<unknown>) => void): void => {
    pending.set(frameSeq, resolve);
    socket.send(text);
  };

  /** Runs every PING_AFTER_SILENCE_MS while open: pings after silence, gives up after a silent ping. */
  const watch = (): void => {
    watchdog = setTimeout(() => {
      watchdog = null;
      if (socket.readyState !== WebSocket.OPEN) return;
      const now = Date.now();
      if (pingSentAtMs !== null && lastFrameAtMs < pingSentAtMs && now - pingSentAtMs >= LOST_AFTER_SILENCE_MS - PING_AFTER_SILENCE_MS) {
        // Silent since the ping: treat as closed (the close handler reconnects).
        socket.close();
        lost(socket);
        return;
      }
      if (now - lastFrameAtMs >= PING_AFTER_SILENCE_MS && (pingSentAtMs === null || lastFrameAtMs >= pingSentAtMs)) {
        seq += 1;
        pingSentAtMs = now;
        send(JSON.stringify({ kind: 'request', seq, channel: 'app.getInfo', payload: {} } satisfies SocketFrame), seq, () => undefined);
      }
      watch();
    }, PING_AFTER_SILENCE_MS);
  };

  let lostSocket: WebSocket | null = null;
  /** The socket `closed` is gone: fail its pending requests, report, and schedule the next attempt. */
  const lost = (closed: WebSocket, code?: number): void => {
    if (lostSocket === closed) return;
    lostSocket = closed;
    if (watchdog) clearTimeout(watchdog);
    watchdog = null;
    const error =
      code === CLOSE_TOO_BIG
        ? { code: 'INVALID_PAYLOAD', message: `A request was larger than the ${maxFrameBytes} bytes browser mode accepts` }
        : { code: 'DISCONNECTED', message: 'Lost the connection to Crawlbench' };
    for (const resolve of pending.values()) resolve({ ok: false, error });
    pending.clear();
    const attempts = state.status === 'connected' || state.status === 'connecting' ? 0 : state.attempts;
    const wasOpen = state.status === 'connected';
    const retry = (status: ConnectionStatus): void => {
      setState({ status, attempts: attempts + 1, reconnected: false });
      const delay = RECONNECT_DELAYS_MS[Math.min(attempts, RECONNECT_DELAYS_MS.length - 1)]!;
      setTimeout(connect, delay);
    };
    if (code === CLOSE_TOO_BIG) {
      // The server refused one oversized frame and is fine: a new socket, no banner.
      setTimeout(connect, RECONNECT_DELAYS_MS[0]);
      return;
    }
    if (wasOpen) {
      retry('lost');
      return;
    }
    // A failed attempt: is the server down, or up with another token?
    void probePage(pageUrl.href).then((status) => retry(status === 401 ? 'unauthorized' : 'lost'));
  };

  const connect = (): void => {
    const current = new WebSocket(url);
    socket = current;
    opened = new Promise((resolve, reject) => {
      current.addEventListener('open', () => resolve(), { once: true });
      current.addEventListener('close', () => reject(new Error('closed')), { once: true });
    });
    opened.catch(() => undefined);
    current.addEventListener('open', () => {
      lastFrameAtMs = Date.now();
      pingSentAtMs = null;
      const reconnected = state.status === 'lost' || state.status === 'unauthorized';
      state = { status: 'connected', attempts: 0, reconnected };
      for (const listener of stateListeners) listener(state);
      watch();
    });
    current.addEventListener('message', (message) => {
      lastFrameAtMs = Date.now();
      let frame: SocketFrame;
      try {
        frame = JSON.parse(String(message.data)) as SocketFrame;
      } catch {
        return;
      }
      if (frame.kind === 'response') {
        pending.get(frame.seq)?.(frame.result);
        pending.delete(frame.seq);
      } else if (frame.kind === 'event') {
        for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
      }
    });
    current.addEventListener('close', (event) => lost(current, event.code));
  };
  connect();

  const call = async (channel: IpcChannel, payload: unknown): Promise<Result<unknown>> => {
    try {
      await opened;
    } catch {
      return { ok: false, error: { code: 'DISCONNECTED', message: 'Not connected to Crawlbench' } };
    }
    seq += 1;
    const frameSeq = seq;
    const frame: SocketFrame = { kind: 'request', seq: frameSeq, channel, payload };
    const text = JSON.stringify(frame);
    const bytes = overLimit(text, maxFrameBytes);
    if (bytes !== null) {
      return { ok: false, error: { code: 'INVALID_PAYLOAD', message: `The request is ${bytes} bytes; browser mode accepts at most ${maxFrameBytes} (send fewer or shorter items)` } };
    }
    if (socket.readyState !== WebSocket.OPEN) return { ok: false, error: { code: 'DISCONNECTED', message: 'Not connected to Crawlbench' } };
    return new Promise((resolve) => send(text, frameSeq, resolve));
  };

  const api: Record<string, unknown> = {};
  for (const channel of IPC_CHANNELS) api[channel] = (payload: unknown) => call(channel, payload);
  api['on'] = (event: IpcEvent, listener: (payload: unknown) => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  };
  return {
    api: api as CrawlbenchApi,
    connection: () => state,
    onDidChangeConnection(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
  };
}

/**
 * The contract over browser mode's WebSocket (see {@link createSocketClient}), without the connection state.
 * @param maxFrameBytes largest request frame sent, bytes (tests lower it) @default MAX_REQUEST_FRAME_BYTES
 */
export function createSocketApi(location: Pick<Location, 'href'>, maxFrameBytes = MAX_REQUEST_FRAME_BYTES): CrawlbenchApi {
  return createSocketClient(location, { maxFrameBytes }).api;
}
