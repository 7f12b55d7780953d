import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTestWeb, type TestWeb } from '../../testweb';
import { REPO_ROOT } from '../../e2e/helpers/serve';

/** The CLI entry point tests run as a real process. */
export const CLI = path.join(REPO_ROOT, 'bin', 'crawlbench.mjs');

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
