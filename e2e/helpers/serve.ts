import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
/** Chromium flags for this closed, GPU-less machine (DEVELOPERS.md). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

export interface ServeProcess {
  child: ChildProcess;
  /** The URL serve printed: `http://127.0.0.1:PORT/t/TOKEN/`. */
  url: string;
  origin: string;
  /** The per-launch token (the path segment after `/t/`). */
  token: string;
  dbPath: string;
  stop(): Promise<void>;
}

/**
 * Runs `crawlbench serve` as a real child process (as a user would) and waits for the URL it prints.
 * @param givenDbPath the database to serve (kept after stop(), e.g. for a restart on the same file);
 *   without it a fresh one is made in a temporary folder that stop() removes
 * @throws Error when the server exits or prints no URL within 30 s
 */
export async function startServe(extraArgs: string[], givenDbPath?: string): Promise<ServeProcess> {
  // A database of its own lives in a temporary folder that stop() removes.
  const ownFolder = givenDbPath === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-e2e-')) : null;
  const dbPath = givenDbPath ?? path.join(ownFolder!, 'crawl.db');
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'crawlbench.mjs'), 'serve', '--db', dbPath, ...extraArgs], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 30 s: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/t\/[\w-]+\/)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${output}`));
    });
  });
  const parsed = new URL(url);
  return {
    child,
    url,
    origin: parsed.origin,
    token: parsed.pathname.split('/')[2] ?? '',
    dbPath,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownFolder) fs.rmSync(ownFolder, { recursive: true, force: true });
    },
  };
}
