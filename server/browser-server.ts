import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { SocketFrame } from '../shared/ipc/contract';
import { MAX_REQUEST_FRAME_BYTES } from '../shared/ipc/limits';
import { CodedError, toErrorInfo, type Result } from '../shared/types/result';
import type { AppServices } from '../app/services/app-services';

export interface BrowserServerOptions {
  /** The application behind the socket (only its dispatcher and push events are used). */
  services: Pick<AppServices, 'dispatch' | 'subscribe'>;
  /** Folder of the built renderer (index.html and assets). */
  rendererDir: string;
  /** @default 0 (a free port) */
  port?: number;
  /**
   * Fixed token (tests, `crawlbench serve --token`): at least 16 of `A-Z a-z 0-9 _ -`.
   * Default a random 192-bit token per launch.
   */
  token?: string;
  /**
   * Largest WebSocket message accepted, in bytes; a socket sending a bigger one is closed with
   * code 1009. @default MAX_REQUEST_FRAME_BYTES (derived from the contract's bounds)
   */
  maxFrameBytes?: number;
  /** Where one-line notes about refused sockets and failed sends go. @default console.error */
  log?: (line: string) => void;
}

export interface BrowserServer {
  /** The URL to open, token included: `http://127.0.0.1:PORT/t/TOKEN/`. */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,256}$/;

/**
 * A new per-launch token: 24 random bytes as 48 lowercase hex digits (192 bits). Hex, not
 * base64url: a base64url token begins with "-" once in 64 launches, and `--token -…` then reads as
 * a flag when the user restarts with the command the page's banner shows.
 */
export function newToken(): string {
  return randomBytes(24).toString('hex');
}
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
const SECURITY_HEADERS = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };

function sameToken(candidate: string | undefined, token: string): boolean {
  if (candidate === undefined) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A refusal: HTTP status and the one-line reason sent as the body. */
interface Refusal {
  status: number;
  reason: string;
}

/**
 * Splits an origin-form request target (`/a/b%20c?x`) into decoded path segments (`['a', 'b c']`);
 * the query is ignored. Refuses absolute-form targets (`http://[`), `*`, malformed
 * percent-encoding, and segments that decode to `/`, `\` or NUL.
 */
function pathSegments(target: string | undefined): string[] | Refusal {
  if (target === undefined || !target.startsWith('/')) return { status: 400, reason: 'Bad request target: expected a path starting with "/"' };
  const pathname = target.split(/[?#]/, 1)[0]!;
  const segments: string[] = [];
  for (const raw of pathname.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { status: 400, reason: 'Bad request path: malformed percent-encoding' };
    }
    if (/[/\\\0]/.test(segment)) return { status: 400, reason: 'Bad request path: a segment encodes "/", "\\" or NUL' };
    segments.push(segment);
  }
  return segments;
}

/**
 * Browser mode: serves the built renderer and carries the IPC contract over a WebSocket, bound to
 * 127.0.0.1 only. The per-launch token is the first path segment after `/t/`: the page is
 * `/t/TOKEN/`, its assets `/t/TOKEN/assets/…` (the renderer's asset URLs are relative) and the
 * socket `/t/TOKEN/ipc`. No cookie is ever set or read (cookies ignore ports, so one would reach
 * every other server on 127.0.0.1). Every request and upgrade without the token gets 401; the Host
 * header must name this server (DNS-rebinding guard, else 403) and a socket's Origin, when sent,
 * must be this origin (else 403). A malformed request gets a 4xx with a one-line reason, a bad
 * frame closes only its own socket, and nothing a client sends stops the process.
 * @throws CodedError INVALID_TOKEN when `options.token` is not 16-256 of `A-Z a-z 0-9 _ -`
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? newToken();
  if (!TOKEN_PATTERN.test(token)) throw new CodedError('INVALID_TOKEN', 'The token must be 16 to 256 letters, digits, "_" or "-"');
  const rendererDir = path.resolve(options.rendererDir);
  const log = options.log ?? ((line: string) => console.error(line));
  const sockets = new Set<WebSocket>();
  let origin = '';
  let allowedHosts: string[] = [];
  let allowedOrigins: string[] = [];

  /** Checks Host, the request target and the token: the path segments after `/t/TOKEN`, or why the request is refused. */
  const gate = (request: http.IncomingMessage): { segments: string[] } | Refusal => {
    if (!allowedHosts.includes(request.headers.host ?? '')) return { status: 403, reason: `Forbidden: the Host header must be ${allowedHosts[0]}` };
    const segments = pathSegments(request.url);
    if (!Array.isArray(segments)) return segments;
    if (segments[0] !== 't' || !sameToken(segments[1], token)) {
      return { status: 401, reason: 'Unauthorized: open the URL Crawlbench printed (http://127.0.0.1:PORT/t/TOKEN/)' };
    }
    return { segments: segments.slice(2) };
  };

  const reply = (response: http.ServerResponse, status: number, reason: string, extra: Record<string, string> = {}): void => {
    response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...extra }).end(`${reason}\n`);
  };

  const serveFile = (request: http.IncomingMessage, response: http.ServerResponse, rest: string[]): void => {
    const relative = rest.join('/');
    const file = path.resolve(rendererDir, relative === '' ? 'index.html' : relative);
    if (!file.startsWith(rendererDir + path.sep)) return reply(response, 404, 'Not found');
    fs.readFile(file, (error, data) => {
      if (error) {
        const missingPage = relative === '' || relative === 'index.html';
        return reply(response, 404, missingPage ? 'Not found: the renderer is not built (run npm run build)' : 'Not found');
      }
      response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
      response.end(request.method === 'HEAD' ? undefined : data);
    });
  };

  const server = http.createServer((request, response) => {
    try {
      const gated = gate(request);
      if (!('segments' in gated)) return reply(response, gated.status, gated.reason);
      if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, 'Method not allowed: only GET and HEAD', { allow: 'GET, HEAD' });
      // `/t/TOKEN` → `/t/TOKEN/`, so the page's relative URLs (assets, `ipc`) keep the token.
      if (gated.segments.length === 0) return reply(response, 308, 'Moved to the page with a trailing slash', { location: `/t/${token}/` });
      serveFile(request, response, gated.segments);
    } catch (error) {
      log(`crawlbench serve: request failed: ${(error as Error).message}`);
      if (!response.headersSent) reply(response, 500, 'Internal error');
      else response.destroy();
    }
  });

  // Last resort for requests Node's parser refuses (bad request line, header overflow, timeouts):
  // one plain 4xx line, then close; a reset connection is just dropped.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['431 Request Header Fields Too Large', 'the request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['408 Request Timeout', 'the request did not arrive in time']
          : ['400 Bad Request', 'malformed HTTP request'];
    const body = `${status.slice(4)}: ${reason}\n`;
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? MAX_REQUEST_FRAME_BYTES, perMessageDeflate: false });
  // An invalid handshake (bad key or version) is answered by ws itself with a 4xx and its reason.
  wss.on('error', (error) => log(`crawlbench serve: WebSocket server error: ${error.message}`));
  const refuse = (socket: Duplex, status: number, reason: string): void => {
    const body = `${reason}\n`;
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      const gated = gate(request);
      if (!('segments' in gated)) return refuse(socket, gated.status, gated.reason);
      if (gated.segments.length !== 1 || gated.segments[0] !== 'ipc') return refuse(socket, 404, 'Not found: the socket is at /t/TOKEN/ipc');
      const requestOrigin = request.headers.origin;
      if (requestOrigin !== undefined && !allowedOrigins.includes(requestOrigin)) return refuse(socket, 403, `Forbidden: Origin must be ${origin}`);
      wss.handleUpgrade(request, socket, head, (ws) => {
        sockets.add(ws);
        ws.on('close', () => sockets.delete(ws));
        // A frame over the limit (1009) or with invalid UTF-8 (1007): ws closes this socket.
        ws.on('error', (error) => log(`crawlbench serve: closed a WebSocket: ${error.message}`));
        ws.on('message', (data, isBinary) => void answer(ws, data, isBinary));
      });
    } catch (error) {
      log(`crawlbench serve: upgrade failed: ${(error as Error).message}`);
      socket.destroy();
    }
  });

  const send = (ws: WebSocket, frame: SocketFrame): void => {
    if (ws.readyState !== ws.OPEN) return;
    let text: string;
    try {
      text = JSON.stringify(frame);
    } catch (error) {
      if (frame.kind !== 'response') return log(`crawlbench serve: could not send a ${frame.kind} frame: ${(error as Error).message}`);
      text = JSON.stringify({ kind: 'response', seq: frame.seq, result: { ok: false, error: toErrorInfo(error) } } satisfies SocketFrame);
    }
    ws.send(text, (error) => {
      if (error) log(`crawlbench serve: send failed: ${error.message}`);
    });
  };
  /** Answers one frame; a frame that is not a request closes its socket (1003, the reason says why). */
  const answer = async (ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> => {
    if (isBinary) return ws.close(1003, 'Frames must be JSON text');
    let frame: unknown;
    try {
      frame = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8'));
    } catch {
      return ws.close(1003, 'Frames must be JSON');
    }
    const request = (typeof frame === 'object' && frame !== null ? frame : {}) as { kind?: unknown; seq?: unknown; channel?: unknown; payload?: unknown };
    const seq = request.seq;
    if (request.kind !== 'request' || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
      return ws.close(1003, 'Expected {"kind":"request","seq":<non-negative integer>,"channel":…,"payload":…}');
    }
    let result: Result<unknown>;
    try {
      result = await options.services.dispatch(request.channel, request.payload);
    } catch (error) {
      result = { ok: false, error: toErrorInfo(error) };
    }
    send(ws, { kind: 'response', seq, result });
  };
  const unsubscribe = options.services.subscribe((event, payload) => {
    for (const ws of sockets) send(ws, { kind: 'event', event, payload });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    unsubscribe();
    throw error;
  });
  server.on('error', (error) => log(`crawlbench serve: server error: ${error.message}`));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  allowedOrigins = [origin, `http://localhost:${port}`];
  return {
    url: `${origin}/t/${token}/`,
    origin,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
