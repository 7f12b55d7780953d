/**
 * Test probes for the browser-mode server, shared by its unit, fuzz and hostile tests: raw HTTP
 * over a net socket, a raw WebSocket handshake (to send frames no client library would), and
 * one IPC request over a `ws` client. Loopback only.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { WebSocket } from 'ws';

/** What a raw exchange produced: the bytes received before the server closed (or the timeout). */
export interface RawReply {
  /** The whole reply as latin1 text ('' when the server sent nothing). */
  text: string;
  /** Status code of the first status line, or null when there was none. */
  status: number | null;
  /** True when the timeout ended the wait rather than the server closing. */
  timedOut: boolean;
}

function statusOf(text: string): number | null {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * Writes `bytes` to 127.0.0.1:`port` and collects what comes back until the server closes the
 * connection or `timeoutMs` passes. After `halfCloseMs` without a close it half-closes, which ends
 * a request the bytes left incomplete (half-closing at once would drop an asynchronous answer:
 * Node aborts a request whose client ended).
 */
export function rawHttp(port: number, bytes: string | Buffer, timeoutMs = 3000, halfCloseMs = 500): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (timedOut: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(halfClose);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ text, status: statusOf(text), timedOut });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    const halfClose = setTimeout(() => socket.end(), halfCloseMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
    socket.on('connect', () => socket.write(bytes));
  });
}

/** A GET of `target` with a correct Host header, as raw bytes. */
export function rawGet(port: number, target: string, headers: Record<string, string> = {}): Promise<RawReply> {
  const lines = [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return rawHttp(port, `${lines.join('\r\n')}\r\n\r\n`);
}

/** Builds one client-to-server WebSocket frame (masked), with any opcode, flags and declared length. */
export function wsFrame(opcode: number, payload: Buffer, options: { fin?: boolean; rsv?: number; declaredLength?: number } = {}): Buffer {
  const length = options.declaredLength ?? payload.length;
  const first = ((options.fin ?? true) ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | (opcode & 0x0f);
  let header: Buffer;
  if (length < 126) {
    header = Buffer.from([first, 0x80 | length]);
  } else if (length < 65_536) {
    header = Buffer.alloc(4);
    header.writeUInt8(first, 0);
    header.writeUInt8(0x80 | 126, 1);
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(first, 0);
    header.writeUInt8(0x80 | 127, 1);
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i] = masked[i]! ^ mask[i % 4]!;
  return Buffer.concat([header, mask, masked]);
}

/** A raw WebSocket connection after a successful handshake: write frames, read what comes back. */
export interface RawWebSocket {
  socket: net.Socket;
  /** Bytes received after the handshake. */
  received(): Buffer;
  /** Resolves when the server closes the TCP connection or after `timeoutMs`. @returns true when closed */
  closed(timeoutMs?: number): Promise<boolean>;
}

/**
 * Opens a WebSocket at `path` by hand (no client library), so a test can send frames a client
 * would refuse to build. @throws Error when the handshake is not answered with 101
 */
export function rawWebSocket(port: number, path: string): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    let isClosed = false;
    const closeWaiters: Array<() => void> = [];
    socket.on('error', () => undefined);
    socket.on('close', () => {
      isClosed = true;
      for (const wake of closeWaiters.splice(0)) wake();
      if (!upgraded) reject(new Error(`handshake failed: ${buffer.toString('latin1').split('\r\n')[0]}`));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (upgraded) return;
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      if (!buffer.toString('latin1', 0, end).startsWith('HTTP/1.1 101')) {
        reject(new Error(`handshake refused: ${buffer.toString('latin1', 0, end).split('\r\n')[0]}`));
        socket.destroy();
        return;
      }
      upgraded = true;
      buffer = buffer.subarray(end + 4);
      resolve({
        socket,
        received: () => buffer,
        closed: (timeoutMs = 3000) =>
          new Promise((done) => {
            if (isClosed) return done(true);
            const timer = setTimeout(() => done(false), timeoutMs);
            closeWaiters.push(() => {
              clearTimeout(timer);
              done(true);
            });
          }),
      });
    });
    socket.on('connect', () => {
      const key = randomBytes(16).toString('base64');
      socket.write(
        [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Key: ${key}`, 'Sec-WebSocket-Version: 13', '', ''].join('\r\n'),
      );
    });
  });
}

/** Close code in the first close frame the server sent on a raw socket, or null. */
export function closeCodeOf(received: Buffer): number | null {
  let offset = 0;
  while (offset + 2 <= received.length) {
    const opcode = received[offset]! & 0x0f;
    let length = received[offset + 1]! & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      length = received.readUInt16BE(offset + 2);
      start += 2;
    } else if (length === 127) {
      length = Number(received.readBigUInt64BE(offset + 2));
      start += 8;
    }
    if (opcode === 0x8) return length >= 2 ? received.readUInt16BE(start) : 1005;
    offset = start + length;
  }
  return null;
}

/** How a `ws` client's exchange ended: a frame from the server, or the socket closing. */
export type SocketOutcome = { kind: 'frame'; frame: unknown } | { kind: 'close'; code: number; reason: string } | { kind: 'error'; message: string };

/**
 * Opens a `ws` client at `url` (Origin = `origin`), sends `data` once open, and resolves with the
 * first frame back that is not a pushed event (a running crawl pushes progress events to every
 * socket), or the close; then closes the socket.
 */
export function exchange(url: string, origin: string, data: string | Buffer, options: { binary?: boolean; timeoutMs?: number } = {}): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { origin, maxPayload: 0 });
    let settled = false;
    const settle = (outcome: SocketOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      ws.terminate();
    };
    const timer = setTimeout(() => settle({ kind: 'error', message: 'timeout' }), options.timeoutMs ?? 10_000);
    ws.on('open', () => ws.send(data, { binary: options.binary ?? false }));
    ws.on('message', (message) => {
      const frame: unknown = JSON.parse(message.toString());
      if ((frame as { kind?: unknown } | null)?.kind !== 'event') settle({ kind: 'frame', frame });
    });
    ws.on('close', (code, reason) => settle({ kind: 'close', code, reason: reason.toString() }));
    ws.on('error', (error) => settle({ kind: 'error', message: error.message }));
    ws.on('unexpected-response', (_request, response) => settle({ kind: 'error', message: `http ${response.statusCode}` }));
  });
}

/** Sends one IPC request frame and resolves with the server's reply (response frame or close). */
export function ipcRequest(url: string, origin: string, channel: string, payload: unknown, seq = 1): Promise<SocketOutcome> {
  return exchange(url, origin, JSON.stringify({ kind: 'request', seq, channel, payload }));
}
