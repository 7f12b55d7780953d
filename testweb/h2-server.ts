/**
 * A local HTTP/2 server for tests (issue 14 part 5): TLS with a throwaway self-signed certificate
 * made by Debian's openssl for the test's host names (ALPN h2, and HTTP/1.1 for clients that do
 * not offer h2), on 127.0.0.1 and a free port. A crawler trusts the certificate through
 * NODE_EXTRA_CA_CERTS=`caFile` in its environment. Each request's HTTP version is recorded.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** One request the server saw. */
export interface H2Request {
  host: string;
  path: string;
  /** '2.0' or '1.1'. */
  httpVersion: string;
}

export interface H2Server {
  port: number;
  /** The certificate (PEM) to trust: NODE_EXTRA_CA_CERTS. */
  caFile: string;
  requests: H2Request[];
  stop(): Promise<void>;
}

/**
 * Starts the server with `pages` (path → HTML); other paths answer 404.
 * @param hosts the names the certificate is for (subjectAltName DNS entries)
 * @throws Error when openssl is missing
 */
export async function startH2Server(hosts: readonly string[], pages: Record<string, string>): Promise<H2Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-h2-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${hosts[0]}`, '-addext', `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`], { stdio: 'ignore' });
  const requests: H2Request[] = [];
  const server = http2.createSecureServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert), allowHTTP1: true }, (request, response) => {
    const host = String(request.headers[':authority'] ?? request.headers.host ?? '').replace(/:\d+$/, '');
    requests.push({ host, path: request.url, httpVersion: request.httpVersion });
    const body = pages[request.url];
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': request.url.endsWith('.txt') ? 'text/plain' : 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    caFile: cert,
    requests,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
