import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SocketFrame } from '../../../shared/ipc/contract';
import type { AppServices } from '../services/app-services';

export interface BrowserServerOptions {
  services: AppServices;
  /** Folder of the built renderer (index.html and assets). */
  rendererDir: string;
  /** @default 0 (a free port) */
  port?: number;
  /** Fixed token for tests; default a random 192-bit token per launch. */
  token?: string;
}

export interface BrowserServer {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const COOKIE = 'crawlbench_token';
const MAX_FRAME_BYTES = 1024 * 1024;
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

function sameToken(candidate: string | null | undefined, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=');
  }
  return null;
}

/**
 * Browser mode: serves the built renderer and carries the IPC contract over a WebSocket at /ipc,
 * bound to 127.0.0.1 only. Every HTTP request and socket must present the per-launch token (the
 * `token` query parameter, which also sets a SameSite=Strict HttpOnly cookie, or that cookie);
 * others get HTTP 401, and a socket upgrade without it is refused with 401 and closed. The Host
 * header must name this server (DNS-rebinding guard) and a socket's Origin must be this origin.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const rendererDir = path.resolve(options.rendererDir);
  const sockets = new Set<WebSocket>();
  let origin = '';

  const hostAllowed = (host: string | undefined): boolean => host === new URL(origin).host || host === `localhost:${new URL(origin).port}`;

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (!hostAllowed(request.headers.host)) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden host');
      return;
    }
    const queryToken = url.searchParams.get('token');
    const authorized = sameToken(queryToken, token) || sameToken(cookieToken(request.headers.cookie), token);
    if (!authorized) {
      response.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized: open the URL Crawlbench printed (it carries the token)');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const headers: Record<string, string> = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };
    if (sameToken(queryToken, token)) headers['set-cookie'] = `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    const relative = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    let file = path.resolve(rendererDir, relative === '' ? 'index.html' : relative);
    if (!file.startsWith(rendererDir + path.sep) && file !== rendererDir) {
      response.writeHead(404).end();
      return;
    }
    if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(rendererDir, 'index.html');
    fs.readFile(file, (error, data) => {
      if (error) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found (is the renderer built? run npm run build)');
        return;
      }
      response.writeHead(200, { ...headers, 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
      response.end(request.method === 'HEAD' ? undefined : data);
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const refuse = (socket: Duplex, status: string): void => {
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroy();
  };
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname !== '/ipc' || !hostAllowed(request.headers.host)) return refuse(socket, '404 Not Found');
    const authorized = sameToken(url.searchParams.get('token'), token) || sameToken(cookieToken(request.headers.cookie), token);
    if (!authorized) return refuse(socket, '401 Unauthorized');
    const requestOrigin = request.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin && requestOrigin !== origin.replace('127.0.0.1', 'localhost')) {
      return refuse(socket, '403 Forbidden');
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => void answer(ws, data.toString()));
    });
  });

  const send = (ws: WebSocket, frame: SocketFrame): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const answer = async (ws: WebSocket, text: string): Promise<void> => {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      ws.close(1003, 'Frames must be JSON');
      return;
    }
    const request = frame as { kind?: unknown; seq?: unknown; channel?: unknown; payload?: unknown };
    if (request.kind !== 'request' || typeof request.seq !== 'number') {
      ws.close(1003, 'Expected a request frame');
      return;
    }
    const result = await options.services.dispatch(request.channel, request.payload);
    send(ws, { kind: 'response', seq: request.seq, result });
  };
  const unsubscribe = options.services.subscribe((event, payload) => {
    for (const ws of sockets) send(ws, { kind: 'event', event, payload });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
