/**
 * Serves the synthetic web (testweb/synthetic-site.ts) on 127.0.0.1, in its own process so its CPU
 * is nobody's in a benchmark. It answers by Host header (Crawlbench with `--resolve`), absolute-form
 * requests (`GET http://h3.synthetic.test/p/7 HTTP/1.1`, as wget and other clients send through
 * `http_proxy`) and CONNECT tunnels to port 80 (clients that tunnel even plain HTTP through a proxy),
 * so every host is reachable without /etc/hosts.
 *
 * Usage: node --import tsx testweb/synthetic-server.ts --hosts N --pages N [--port N]
 * Prints one JSON line on stdout once listening: `{"port":N,"hosts":N,"pagesPerHost":N,"expected":{…}}`.
 * Started with an IPC channel (child_process.fork), it answers `{type:'stats'}` with
 * {@link SyntheticServerStats} and `{type:'reset'}` by zeroing them (then `{type:'reset-done'}`).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { checkSyntheticShape, syntheticExpectedCounts, syntheticResponse, type SyntheticShape } from './synthetic-site';

/** Requests answered since start or the last reset, by status, and distinct pages answered 200. */
export interface SyntheticServerStats {
  requests: number;
  ok: number;
  redirects: number;
  notFound: number;
  /** Distinct HTML pages (not robots.txt) answered 200 at least once. */
  distinctPages: number;
}

/** Messages the server takes over IPC, and its answers. */
export type SyntheticServerRequest = { type: 'stats' } | { type: 'reset' };
export type SyntheticServerAnswer = { type: 'stats'; stats: SyntheticServerStats } | { type: 'reset-done' };

/**
 * Starts the synthetic web's HTTP server on 127.0.0.1 (`port` 0: a free port).
 * @returns the port, live stats, a reset, and stop()
 */
export async function startSyntheticServer(
  shape: SyntheticShape,
  port = 0,
): Promise<{ port: number; stats(): SyntheticServerStats; reset(): void; stop(): Promise<void> }> {
  checkSyntheticShape(shape);
  let counts = { requests: 0, ok: 0, redirects: 0, notFound: 0 };
  let seenPages = new Uint8Array(shape.hosts * shape.pagesPerHost);
  let distinctPages = 0;
  const server = http.createServer((request, response) => {
    const target = request.url ?? '/';
    let host: string;
    let path: string;
    if (target.startsWith('http://')) {
      // Absolute form (RFC 9112 §3.2.2): the host is in the request target.
      const slash = target.indexOf('/', 7);
      host = (slash === -1 ? target.slice(7) : target.slice(7, slash)).replace(/:\d+$/, '').toLowerCase();
      path = slash === -1 ? '/' : target.slice(slash);
    } else {
      host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      path = target;
    }
    const answer = syntheticResponse(shape, host, path);
    counts.requests += 1;
    if (answer.status === 200) {
      counts.ok += 1;
      const pageMatch = /^h(\d+)\.synthetic\.test$/.exec(host);
      if (pageMatch && answer.contentType.startsWith('text/html')) {
        const pageIndex = path === '/' ? 0 : Number(path.split('?')[0]?.slice(3));
        const slot = Number(pageMatch[1]) * shape.pagesPerHost + pageIndex;
        if (seenPages[slot] === 0) {
          seenPages[slot] = 1;
          distinctPages += 1;
        }
      }
    } else if (answer.status === 301) counts.redirects += 1;
    else counts.notFound += 1;
    const headers: Record<string, string> = { 'content-type': answer.contentType, 'content-length': String(answer.body.length) };
    if (answer.location !== null) headers['location'] = answer.location;
    response.writeHead(answer.status, headers);
    response.end(answer.body);
  });
  // Tunnels (CONNECT host:80): answer 200, then serve HTTP on the same socket as if it had connected directly.
  server.on('connect', (request: http.IncomingMessage, socket: Socket, head: Buffer) => {
    if (!/^h\d+\.synthetic\.test:80$/i.test(request.url ?? '')) {
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    server.emit('connection', socket);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    stats: () => ({ ...counts, distinctPages }),
    reset() {
      counts = { requests: 0, ok: 0, redirects: 0, notFound: 0 };
      seenPages = new Uint8Array(shape.hosts * shape.pagesPerHost);
      distinctPages = 0;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function wholeFlag(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new RangeError(`INVALID_FLAG: --${name} must be a whole number, got "${text}"`);
  return Number(text);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { hosts: { type: 'string' }, pages: { type: 'string' }, port: { type: 'string' } } });
  const shape = checkSyntheticShape({ hosts: wholeFlag('hosts', values.hosts, 200), pagesPerHost: wholeFlag('pages', values.pages, 101) });
  const server = await startSyntheticServer(shape, wholeFlag('port', values.port, 0));
  process.on('message', (message: SyntheticServerRequest) => {
    if (message.type === 'stats') process.send?.({ type: 'stats', stats: server.stats() } satisfies SyntheticServerAnswer);
    else if (message.type === 'reset') {
      server.reset();
      process.send?.({ type: 'reset-done' } satisfies SyntheticServerAnswer);
    }
  });
  // A parent that goes away (IPC closed) takes the server with it.
  process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`${JSON.stringify({ port: server.port, hosts: shape.hosts, pagesPerHost: shape.pagesPerHost, expected: syntheticExpectedCounts(shape) })}\n`);
}

const entry = process.argv[1] ?? '';
if (/synthetic-server\.(ts|mjs|js)$/.test(entry)) {
  main().catch((error: unknown) => {
    process.stderr.write(`synthetic-server: ${(error as Error).message}\n`);
    process.exit(2);
  });
}
