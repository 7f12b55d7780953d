import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freeLoopbackPort, waitForPort } from './ports';

/** Debian's python3.11-doc HTML manual: 530 HTML files, 526 reachable from the root. */
export const PYTHON_DOCS_ROOT = '/usr/share/doc/python3.11/html';
export const NGINX_BINARY = '/usr/sbin/nginx';

export interface NginxSite {
  port: number;
  /** nginx's access log: one line per request, `$request_uri $status`, for tests that count fetches. */
  accessLog: string;
  stop(): Promise<void>;
}

/**
 * Starts nginx (Debian nginx-light) in the foreground on a free 127.0.0.1 port serving `root`,
 * with its config, logs and temp files in a fresh temporary folder. `robotsTxt` makes nginx answer
 * /robots.txt with that text (the docs folder itself is read-only). `port` picks the port instead.
 * @throws Error naming the missing package when nginx or the docs are not installed
 */
export async function startNginx(root = PYTHON_DOCS_ROOT, options: { robotsTxt?: string; port?: number } = {}): Promise<NginxSite> {
  if (!fs.existsSync(NGINX_BINARY)) throw new Error(`${NGINX_BINARY} not found: apt-get install nginx-light`);
  if (!fs.existsSync(root)) throw new Error(`${root} not found: apt-get install python3.11-doc`);
  const port = options.port ?? (await freeLoopbackPort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-nginx-'));
  const accessLog = path.join(dir, 'access.log');
  const config = `
daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  log_format requests '$request_uri $status';
  access_log ${accessLog} requests;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  sendfile on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    server_name docs.python.test;
    root ${root};
    index index.html;${
      options.robotsTxt === undefined
        ? ''
        : `
    location = /robots.txt { default_type text/plain; return 200 ${JSON.stringify(options.robotsTxt)}; }`
    }
  }
}
`;
  const configFile = path.join(dir, 'nginx.conf');
  fs.writeFileSync(configFile, config);
  const child: ChildProcess = spawn(NGINX_BINARY, ['-c', configFile, '-p', dir, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(port),
      exited.then(() => {
        throw new Error(`nginx exited at start: ${stderr.trim()}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    port,
    accessLog,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
