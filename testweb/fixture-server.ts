import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dynamicRoute, FIXTURE_SITES, html, sendHtml, type Handler } from './fixture-sites';

/** One request the fixture server saw. Times are epoch ms. */
export interface FixtureRequest {
  host: string;
  path: string;
  startedAtMs: number;
  endedAtMs: number;
  /** Requests to the same host in progress when this one started (itself included). */
  concurrentForHost: number;
  userAgent: string;
}

export interface FixtureServer {
  port: number;
  /** Hosts the server answers for (map each to 127.0.0.1:port in the resolver). */
  hosts: string[];
  requests: FixtureRequest[];
  stop(): Promise<void>;
}

/** Routes with a variable part: the handler for `path` (no query) on `host`, or undefined. */
export type DynamicRoutes = (host: string, path: string) => Handler | undefined;

/**
 * Starts the fixture server on a free 127.0.0.1 port (or `options.port`). A request goes to
 * `sites[host][path]`, else to `options.dynamic` (default: the fixture web's own variable routes);
 * unknown hosts and paths answer 404.
 */
export async function startFixtureServer(sites: Record<string, Record<string, Handler>> = FIXTURE_SITES, options: { port?: number; dynamic?: DynamicRoutes } = {}): Promise<FixtureServer> {
  const dynamic = options.dynamic ?? dynamicRoute;
  const requests: FixtureRequest[] = [];
  const active = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const concurrent = (active.get(host) ?? 0) + 1;
    active.set(host, concurrent);
    const entry: FixtureRequest = { host, path: request.url ?? '/', startedAtMs: Date.now(), endedAtMs: 0, concurrentForHost: concurrent, userAgent: request.headers['user-agent'] ?? '' };
    requests.push(entry);
    response.once('close', () => {
      entry.endedAtMs = Date.now();
      active.set(host, (active.get(host) ?? 1) - 1);
    });
    const handler = sites[host]?.[path] ?? dynamic(host, path);
    if (!handler) {
      sendHtml(response, html('Not found', `No page ${path} on ${host}`), 404);
      return;
    }
    void Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hosts: Object.keys(sites),
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
