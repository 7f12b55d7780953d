/**
 * A local forward proxy for tests (issue 14 part 4): HTTP CONNECT tunnels (what undici's
 * ProxyAgent opens, RFC 9110 §9.3.6) and absolute-form GETs, every target sent to one upstream
 * port on 127.0.0.1 (the fixture server), on a free loopback port. Each request is recorded with
 * its Proxy-Authorization; with `credentials` set, a request without them is refused with 407.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** One request the proxy saw. */
export interface ProxiedRequest {
  method: string;
  /** `host:port` of a CONNECT, or the absolute URL of a GET. */
  target: string;
  proxyAuthorization: string | null;
}

export interface ProxyServer {
  port: number;
  requests: ProxiedRequest[];
  stop(): Promise<void>;
}

/** Starts the proxy in front of 127.0.0.1:`upstreamPort`; `credentials` ("user:password") makes it ask for Basic proxy auth. */
export async function startProxyServer(upstreamPort: number, credentials?: string): Promise<ProxyServer> {
  const requests: ProxiedRequest[] = [];
  const expected = credentials === undefined ? null : `Basic ${Buffer.from(credentials).toString('base64')}`;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    const proxyAuthorization = request.headers['proxy-authorization'] ?? null;
    requests.push({ method: request.method ?? '', target: request.url ?? '', proxyAuthorization });
    if (expected !== null && proxyAuthorization !== expected) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"' });
      response.end();
      return;
    }
    const target = new URL(request.url ?? '/');
    const upstream = http.request({ host: '127.0.0.1', port: upstreamPort, path: `${target.pathname}${target.search}`, method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const proxyAuthorization = request.headers['proxy-authorization'] ?? null;
    requests.push({ method: 'CONNECT', target: request.url ?? '', proxyAuthorization });
    if (expected !== null && proxyAuthorization !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\n\r\n');
      return;
    }
    const upstream = net.connect(upstreamPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    async stop() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
