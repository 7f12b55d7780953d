import { IPC_CHANNELS, type IpcChannel, type IpcEvent } from '../../../shared/ipc/channels';
import type { CrawlbenchApi, SocketFrame } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/types/result';

/**
 * The contract over browser mode's WebSocket (/ipc): one function per channel, like the Electron
 * preload. The page was opened with `?token=…`; the server also set an HttpOnly cookie, which the
 * socket upgrade carries. Requests made while the socket is down fail with DISCONNECTED.
 */
export function createSocketApi(location: Location): CrawlbenchApi {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ipc${token ? `?token=${encodeURIComponent(token)}` : ''}`;
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
      const frame = JSON.parse(String(message.data)) as SocketFrame;
      if (frame.kind === 'response') {
        pending.get(frame.seq)?.(frame.result);
        pending.delete(frame.seq);
      } else if (frame.kind === 'event') {
        for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
      }
    });
    socket.addEventListener('close', () => {
      for (const resolve of pending.values()) resolve({ ok: false, error: { code: 'DISCONNECTED', message: 'Lost the connection to Crawlbench' } });
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
    return new Promise((resolve) => {
      pending.set(frame.seq, resolve);
      socket.send(JSON.stringify(frame));
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
