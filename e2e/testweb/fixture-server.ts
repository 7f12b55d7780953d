import http from 'node:http';
import type { AddressInfo } from 'node:net';

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

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void | Promise<void>;

const html = (title: string, body: string, head = ''): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

function sendHtml(response: http.ServerResponse, content: string, status = 200): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(content) });
  response.end(content);
}

/**
 * The fixture web's sites, keyed by host then path. `site.test` is a small site whose exact page
 * set tests know in advance: relative links, `<base href>`, a redirect, a broken link, an offsite
 * link and non-HTTP hrefs.
 */
export const FIXTURE_SITES: Record<string, Record<string, Handler>> = {
  'site.test': {
    '/': (_req, res) =>
      sendHtml(
        res,
        html(
          'Fixture home',
          `<a href="/a.html">A</a> <a href="b.html#part">B</a> <a href="/docs/">Docs</a> <a href="/old">Old</a>
           <a href="/missing.html">Missing</a> <a href="http://elsewhere.test/">Offsite</a>
           <a href="mailto:someone@site.test">Mail</a> <a href="javascript:void(0)">JS</a> <a href="HTTP://SITE.TEST:80/a.html">A again</a>`,
        ),
      ),
    '/a.html': (_req, res) => sendHtml(res, html('Page A', '<a href="/">Home</a> <a href="./b.html">B</a>')),
    '/b.html': (_req, res) => sendHtml(res, html('Page B', '<a href="/a.html">A</a>')),
    '/docs/': (_req, res) => sendHtml(res, html('Docs', '<a href="intro.html">Intro</a>', '<base href="/docs/guide/">')),
    '/docs/guide/intro.html': (_req, res) => sendHtml(res, html('Intro', '<a href="../../a.html">A</a>')),
    '/old': (_req, res) => {
      res.writeHead(301, { location: '/new.html' });
      res.end();
    },
    '/new.html': (_req, res) => sendHtml(res, html('New', 'Moved here')),
  },
};

export interface FixtureServer {
  port: number;
  /** Hosts the server answers for (map each to 127.0.0.1:port in the resolver). */
  hosts: string[];
  requests: FixtureRequest[];
  stop(): Promise<void>;
}

/** Starts the fixture server on a free 127.0.0.1 port. Unknown hosts and paths answer 404. */
export async function startFixtureServer(sites: Record<string, Record<string, Handler>> = FIXTURE_SITES): Promise<FixtureServer> {
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
    const handler = sites[host]?.[path];
    if (!handler) {
      sendHtml(response, html('Not found', `No page ${path} on ${host}`), 404);
      return;
    }
    void Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
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
