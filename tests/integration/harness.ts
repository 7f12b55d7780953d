import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { CrawlService } from '../../app/services/crawl-service';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import type { CrawlProgress, CrawlSettings, CrawlSummary, HostOverride } from '../../shared/types/crawl';
import { startTestWeb, type TestWeb } from '../../testweb';
import type { FixtureRequest, FixtureServer } from '../../testweb/fixture-server';
import { REPO_ROOT } from '../../e2e/helpers/serve';

/** The CLI entry point tests run as a real process. */
export const CLI = path.join(REPO_ROOT, 'bin', 'crawlbench.mjs');

/**
 * Timeout of a test that starts and kills whole crawler processes many times (kill -9 and resume,
 * processes sharing a crawl): a guard against a hung run, not a speed target (such tests act on
 * progress, requests seen). Under CI's parallel test files they took up to about 65 s.
 */
export const MULTI_PROCESS_TIMEOUT_MS = 240_000;

/** A finished CLI run. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `crawlbench args…` to completion (4 minutes at most). */
export function crawlbench(args: string[]): CliRun {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 240_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Runs `crawlbench args…` to completion without blocking this process's event loop (4 minutes at
 * most): for crawls of servers this test process runs itself (the fixture server), which a
 * synchronous spawn would starve. `env` adds to this process's environment (NODE_EXTRA_CA_CERTS …).
 */
export function crawlbenchAsync(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Starts the test web and a temporary folder for the file's tests, and removes both afterwards.
 * Read the fields inside tests (they are set in beforeAll).
 */
export function useTestWeb(prefix: string): { readonly web: TestWeb; readonly dir: string } {
  const state = {} as { web: TestWeb; dir: string };
  beforeAll(async () => {
    state.web = await startTestWeb();
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), `crawlbench-${prefix}-`));
  });
  afterAll(async () => {
    await state.web?.stop();
    if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** Resolver overrides mapping every host of a fixture server to it (use with closed mode). */
export function fixtureOverrides(fixtures: FixtureServer): HostOverride[] {
  return fixtures.hosts.map((host) => ({ host, address: '127.0.0.1', port: fixtures.port }));
}

/** A finished in-memory crawl of fixture hosts, and what the fixture server saw of it. */
export interface FixtureCrawl {
  db: WritableDB;
  crawlId: number;
  summary: CrawlSummary;
  /** The last progress report (its refusal counts by rule). */
  progress: CrawlProgress | null;
  /** Requests the fixture server saw during this crawl, in order (robots.txt included). */
  requests: FixtureRequest[];
}

/**
 * Crawls `seeds` to the end through the app's CrawlService into an in-memory database, every host
 * of `fixtures` mapped to it in closed mode, politeness factor 0; `settings` override those.
 */
export async function crawlFixtures(fixtures: FixtureServer, seeds: readonly string[], settings: Partial<CrawlSettings> = {}): Promise<FixtureCrawl> {
  const db = openDatabase(':memory:');
  const before = fixtures.requests.length;
  let progress: CrawlProgress | null = null;
  const service = new CrawlService(db, {}, { onProgress: (p) => (progress = p) });
  const { crawlId, done } = service.start([...seeds], { hostOverrides: fixtureOverrides(fixtures), closedResolver: true, delayFactor: 0, ...settings });
  const summary = await done;
  return { db, crawlId, summary, progress, requests: fixtures.requests.slice(before) };
}
