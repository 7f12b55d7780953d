import { spawn } from 'node:child_process';
import { samplePeakRss } from '../tests/support/peak-rss';

/** What one contender's run cost: wall time, peak resident memory, and its own JSON report. */
export interface RunMeasurement {
  seconds: number;
  peakRssMb: number;
  report: Record<string, unknown>;
}

/**
 * Runs `node args…` as a child process, samples its peak resident set (VmHWM in
 * /proc/PID/status, Linux) every 25 ms, and parses the last stdout line as JSON.
 * @throws Error when the child exits non-zero or prints no JSON
 */
export async function measureNode(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunMeasurement> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const peakRss = samplePeakRss(child.pid);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const peakRssMb = peakRss.stop();
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`);
  const last = stdout.trim().split('\n').at(-1) ?? '';
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(last) as Record<string, unknown>;
  } catch {
    throw new Error(`${args.join(' ')} printed no JSON summary: ${stdout.slice(-300)} ${stderr.slice(-300)}`);
  }
  return { seconds, peakRssMb, report };
}
