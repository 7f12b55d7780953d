import { IPC_CHANNELS, type IpcChannel, type IpcEvent } from '../../../shared/ipc/channels';
import type { CrawlbenchApi, SocketFrame } from '../../../shared/ipc/contract';
import { MAX_REQUEST_FRAME_BYTES } from '../../../shared/ipc/limits';
import type { Result } from '../../../shared/types/result';

/** WebSocket close code for a message over the server's limit (RFC 6455 "Message Too Big"). */
const CLOSE_TOO_BIG = 1009;

/** UTF-8 length of a frame's text when it exceeds `limit`, else null (encoded only when it might). */
function overLimit(text: string, limit: number): number | null {
  if (text.length * 3 <= limit) return null;
  const bytes = new TextEncoder().encode(text).length;
  return bytes > limit ? bytes : null;
}

/**
 * The contract over browser mode's WebSocket: one function per channel, like the Electron
 * preload. The page is `http://127.0.0.1:PORT/t/TOKEN/`; the socket is `ipc` relative to it
 * (`/t/TOKEN/ipc`), so the token travels in the path and no cookie is involved. Requests made
 * while the socket is down fail with DISCONNECTED; a request whose frame would exceed
 * MAX_REQUEST_FRAME_BYTES fails with INVALID_PAYLOAD without being sent.
 * @param location the page's location (only `href` is read)
 * @param maxFrameBytes largest request frame sent, bytes (tests lower it) @default MAX_REQUEST_FRAME_BYTES
 */
export function createSocketApi(location: Pick<Location, 'href'>, maxFrameBytes = MAX_REQUEST_FRAME_BYTES): CrawlbenchApi {
  const socketUrl = new URL('ipc', location.href);
  socketUrl.protocol = socketUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  socketUrl.search = '';
  socketUrl.hash = '';
  const url = socketUrl.href;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  let seq = 0;
  let socket: WebSocket;
  let opened: Promise<void>;

  const connect = (): void => {
    socket = new WebSocket(url);
    opened = new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('close', () => reject(new Error('closed')), { once: true });
    });
    opened.catch(() => undefined);
    socket.addEventListener('message', (message) => {
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
    socket.addEventListener('close', (event) => {
      const error =
        event.code === CLOSE_TOO_BIG
          ? { code: 'INVALID_PAYLOAD', message: `A request was larger than the ${maxFrameBytes} bytes browser mode accepts` }
          : { code: 'DISCONNECTED', message: 'Lost the connection to Crawlbench' };
      for (const resolve of pending.values()) resolve({ ok: false, error });
      pending.clear();
      setTimeout(connect, 1000);
    });
  };
  connect();

  const call = async (channel: IpcChannel, payload: unknown): Promise<Result<unknown>> => {
    try {
      await opened;
    } catch {
      return { ok: false, error: { code: 'DISCONNECTED', message: 'Not connected to Crawlbench' } };
    }
    seq += 1;
    const frame: SocketFrame = { kind: 'request', seq, channel, payload };
    const text = JSON.stringify(frame);
    const bytes = overLimit(text, maxFrameBytes);
    if (bytes !== null) {
      return { ok: false, error: { code: 'INVALID_PAYLOAD', message: `The request is ${bytes} bytes; browser mode accepts at most ${maxFrameBytes} (send fewer or shorter items)` } };
    }
    if (socket.readyState !== WebSocket.OPEN) return { ok: false, error: { code: 'DISCONNECTED', message: 'Not connected to Crawlbench' } };
    return new Promise((resolve) => {
      pending.set(frame.seq, resolve);
      socket.send(text);
    });
  };

  const api: Record<string, unknown> = {};
  for (const channel of IPC_CHANNELS) api[channel] = (payload: unknown) => call(channel, payload);
  api['on'] = (event: IpcEvent, listener: (payload: unknown) => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  };
  return api as CrawlbenchApi;
}
