import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyntheticServer } from './synthetic-server';
import { checkSyntheticShape, syntheticExpectedCounts, syntheticResponse, syntheticUrls, type SyntheticShape } from './synthetic-site';

const SHAPE: SyntheticShape = { hosts: 5, pagesPerHost: 60 };

function hrefs(body: string): string[] {
  return [...body.matchAll(/href="([^"]+)"/g)].map((match) => match[1] as string);
}

/** A breadth-first crawl of the synthetic web through syntheticResponse: every URL requested, by final status. */
function crawl(shape: SyntheticShape, seed: string, sameHostOnly = false): Map<string, number> {
  const seen = new Map<string, number>();
  const queue = [seed];
  const seedHost = new URL(seed).host;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const url = new URL(next);
    const answer = syntheticResponse(shape, url.host, url.pathname);
    seen.set(next, answer.status);
    const targets = answer.status === 301 ? [answer.location as string] : answer.status === 200 ? hrefs(answer.body) : [];
    for (const href of targets) {
      const target = new URL(href, url).href;
      if (sameHostOnly && new URL(target).host !== seedHost) continue;
      if (!seen.has(target) && !queue.includes(target)) {
        seen.set(target, 0);
        queue.push(target);
      }
    }
  }
  return seen;
}

function tally(statuses: Map<string, number>): { pages: number; redirects: number; notFound: number } {
  const values = [...statuses.values()];
  return { pages: values.filter((s) => s === 200).length, redirects: values.filter((s) => s === 301).length, notFound: values.filter((s) => s === 404).length };
}

describe('synthetic site', () => {
  it('renders the same bytes for the same hosts × pages, and pages of about 44 KB with about 100 links', () => {
    const first = syntheticResponse(SHAPE, 'h3.synthetic.test', '/p/7');
    const again = syntheticResponse({ ...SHAPE }, 'h3.synthetic.test', '/p/7');
    expect(again.body).toBe(first.body);
    expect(first.status).toBe(200);
    for (const path of ['/', '/p/1', '/p/33', '/p/59']) {
      const body = syntheticResponse(SHAPE, 'h1.synthetic.test', path).body;
      expect(body.length).toBeGreaterThan(38_000);
      expect(body.length).toBeLessThan(50_000);
      expect(hrefs(body).length).toBeGreaterThanOrEqual(90);
      expect(hrefs(body).length).toBeLessThanOrEqual(110);
    }
  });

  it('has different pages, a few exact duplicates and near-duplicates', () => {
    const body = (path: string) => syntheticResponse(SHAPE, 'h0.synthetic.test', path).body;
    expect(body('/p/10')).not.toBe(body('/p/11'));
    expect(body('/p/49')).toBe(body('/p/48'));
    const near = body('/p/48').split('\n');
    const original = new Set(body('/p/47').split('\n'));
    const shared = near.filter((line) => original.has(line)).length;
    expect(shared / near.length).toBeGreaterThan(0.5);
    expect(body('/p/48')).not.toBe(body('/p/47'));
  });

  it('reaches exactly hosts × pages pages plus the expected redirects and 404s from h0 and from each host', () => {
    const expected = syntheticExpectedCounts(SHAPE);
    const fromH0 = crawl(SHAPE, 'http://h0.synthetic.test/');
    expect(tally(fromH0)).toEqual({ pages: expected.pages, redirects: expected.redirects, notFound: expected.notFound });
    for (let host = 1; host < SHAPE.hosts; host += 1) {
      const own = tally(crawl(SHAPE, `http://h${host}.synthetic.test/`, true));
      expect(own.pages).toBe(SHAPE.pagesPerHost);
    }
    const listed = syntheticUrls(SHAPE).filter((url) => !url.endsWith('/robots.txt'));
    expect(new Set(listed)).toEqual(new Set(fromH0.keys()));
    expect(syntheticUrls(SHAPE)).toHaveLength(expected.requests);
  });

  it('answers robots.txt allowing everything, 301 from /r/{i}, and 404 for unknown hosts, paths and page numbers', () => {
    expect(syntheticResponse(SHAPE, 'h2.synthetic.test', '/robots.txt')).toMatchObject({ status: 200, body: 'User-agent: *\nAllow: /\n' });
    expect(syntheticResponse(SHAPE, 'h2.synthetic.test', '/r/3')).toMatchObject({ status: 301, location: '/p/3' });
    expect(syntheticResponse(SHAPE, 'h2.synthetic.test', '/missing/3').status).toBe(404);
    expect(syntheticResponse(SHAPE, 'h5.synthetic.test', '/').status).toBe(404);
    expect(syntheticResponse(SHAPE, 'h2.synthetic.test', '/p/60').status).toBe(404);
    expect(syntheticResponse(SHAPE, 'h2.synthetic.test', '/p/01').status).toBe(404);
    expect(syntheticResponse(SHAPE, 'example.test', '/').status).toBe(404);
  });

  it('refuses a shape that is not whole numbers with a coded error', () => {
    expect(() => checkSyntheticShape({ hosts: 0, pagesPerHost: 10 })).toThrow(/INVALID_SYNTHETIC_SHAPE/);
    expect(() => checkSyntheticShape({ hosts: 2, pagesPerHost: 1.5 })).toThrow(/INVALID_SYNTHETIC_SHAPE/);
    expect(() => syntheticExpectedCounts({ hosts: 5000, pagesPerHost: 5000 })).toThrow(/INVALID_SYNTHETIC_SHAPE/);
  });
});

describe('synthetic server', () => {
  let server: Awaited<ReturnType<typeof startSyntheticServer>>;
  beforeAll(async () => {
    server = await startSyntheticServer(SHAPE);
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Sends raw request bytes and returns the status line and the body length. */
  async function raw(bytes: string, socket = net.connect({ host: '127.0.0.1', port: server.port })): Promise<string> {
    return new Promise((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        // One whole answer: headers, then content-length bytes.
        const end = text.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(text);
        if (end !== -1 && length && text.length - end - 4 >= Number(length[1])) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.write(bytes);
    });
  }

  it('serves by Host header and by absolute-form request target, and counts what it answered', async () => {
    server.reset();
    const byHost = await raw('GET /p/7 HTTP/1.1\r\nHost: h3.synthetic.test\r\n\r\n');
    const absolute = await raw('GET http://h3.synthetic.test/p/7 HTTP/1.1\r\nHost: h3.synthetic.test\r\n\r\n');
    expect(byHost.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(absolute.slice(absolute.indexOf('\r\n\r\n'))).toBe(byHost.slice(byHost.indexOf('\r\n\r\n')));
    const redirect = await raw('GET http://h1.synthetic.test/r/2 HTTP/1.1\r\nHost: h1.synthetic.test\r\n\r\n');
    expect(redirect).toMatch(/^HTTP\/1\.1 301[\s\S]*location: \/p\/2/i);
    expect(server.stats()).toEqual({ requests: 3, ok: 2, redirects: 1, notFound: 0, distinctPages: 1 });
  });

  it('tunnels CONNECT to a synthetic host on port 80 and refuses other tunnels', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port: server.port, method: 'CONNECT', path: 'h4.synthetic.test:80' });
      request.on('connect', (_response, socket) => {
        raw('GET /robots.txt HTTP/1.1\r\nHost: h4.synthetic.test\r\n\r\n', socket).then(resolve, reject);
      });
      request.on('error', reject);
      request.end();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200[\s\S]*User-agent: \*/);
    const refused = await new Promise<number>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port: server.port, method: 'CONNECT', path: 'example.com:443' });
      request.on('connect', (response, socket) => {
        socket.destroy();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(refused).toBe(403);
  });
});
