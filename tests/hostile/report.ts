/**
 * The hostile-input suite's report: one line per case (case, outcome, peak RSS, verdict), printed
 * as the case ends and appended to test-results/hostile.txt so `npm run test:hostile` and
 * `npm test` leave a table behind. Cases run against the project's own fixture servers on
 * 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../e2e/helpers/serve';
import { samplePeakRss } from '../support/peak-rss';

/** One hostile case's outcome. */
export interface HostileCase {
  /** Short name, e.g. `server: GET /%E0%A4%A`. */
  name: string;
  /** What happened, in words (e.g. `HTTP 400, server still answers`). */
  outcome: string;
  /** Peak resident set of the process under test, MB; null when not measured. */
  peakRssMb: number | null;
  /** pass when the product behaved as the issue requires. */
  verdict: 'pass' | 'fail';
}

const REPORT_FILE = path.join(REPO_ROOT, 'test-results', 'hostile.txt');

/** Prints one case line and appends it to test-results/hostile.txt. */
export function reportCase(entry: HostileCase): void {
  const rss = entry.peakRssMb === null ? '-' : `${entry.peakRssMb.toFixed(0)} MB`;
  const line = `hostile | ${entry.name} | ${entry.outcome} | peak RSS ${rss} | ${entry.verdict}`;
  console.log(line);
  fs.mkdirSync(path.dirname(REPORT_FILE), { recursive: true });
  fs.appendFileSync(REPORT_FILE, `${line}\n`);
}

/** Peak resident set of this process so far (getrusage maxrss), MB. */
export function ownPeakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** A finished child process with its peak resident set. */
export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** VmHWM of the child sampled every 25 ms from /proc (Linux), MB. */
  peakRssMb: number;
}

/**
 * Runs `node args…` from the repository root, sampling the child's peak RSS (VmHWM) until it
 * exits; `onStdout`/`onStderr` see output as it arrives (e.g. to kill on progress).
 * @param timeoutMs the child is killed with SIGKILL after this long (a safety net, not a measurement)
 */
export function runMeasured(
  args: string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; onStderr?: (text: string) => void } = {},
): Promise<MeasuredRun> {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let stdout = '';
  let stderr = '';
  const peakRss = samplePeakRss(child.pid);
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    options.onStderr?.(stderr);
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, peakRssMb: peakRss.stop() });
    });
  });
}
