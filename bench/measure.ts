import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { samplePeakRss } from '../tests/support/peak-rss';

/** What one contender's run cost: wall time, CPU time, peak resident memory, and its own JSON report. */
export interface RunMeasurement {
  seconds: number;
  /** User + system CPU seconds of the child and every thread it ran, Node start-up included. */
  cpuSeconds: number;
  peakRssMb: number;
  /** The child's last stdout line as JSON ({} for a command that prints none, see measureCommand). */
  report: Record<string, unknown>;
  /** The last CPU sample of each of the child's threads, when asked for (`sampleThreads`). */
  threads: ThreadCpu[];
}

/** One thread's CPU time as /proc/PID/task/TID/stat last showed it. */
export interface ThreadCpu {
  tid: number;
  /** The thread's name (comm), e.g. `node`, `libuv-worker`, or a name the program gave it. */
  name: string;
  /** True for the process's first thread (tid = pid): JavaScript's main thread in Node. */
  main: boolean;
  cpuSeconds: number;
}

/** Options of {@link measureCommand}. */
export interface MeasureOptions {
  env?: NodeJS.ProcessEnv;
  /** Exit codes that count as success. @default [0] */
  okExitCodes?: number[];
  /** Parse the last stdout line as the JSON report. @default true */
  jsonReport?: boolean;
  /** Called with each whole line the child writes to stderr, as it arrives (progress). */
  onStderrLine?: (line: string, elapsedMs: number) => void;
  /** Sample every thread's CPU time each second, keeping the last sample of each. @default false */
  sampleThreads?: boolean;
}

let clockTicks: number | null = null;
/** Clock ticks per second of /proc's CPU counters (getconf CLK_TCK; 100 on Linux builds). */
function ticksPerSecond(): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return clockTicks;
}

/**
 * CPU time (user + system) fields of a /proc stat line, in ticks. Fields after the `(comm)`, which
 * may hold spaces: utime and stime are fields 14 and 15 of proc(5), cutime and cstime 16 and 17.
 */
function statTicks(text: string): { comm: string; own: number; children: number } {
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state), so field N is fields[N - 3].
  return { comm, own: Number(fields[11]) + Number(fields[12]), children: Number(fields[13]) + Number(fields[14]) };
}

/** CPU ticks of the children this process has waited for (cutime + cstime of /proc/self/stat). */
function reapedChildrenTicks(): number {
  return statTicks(fs.readFileSync('/proc/self/stat', 'utf8')).children;
}

function sampleThreads(pid: number): Map<number, { name: string; ticks: number }> {
  const threads = new Map<number, { name: string; ticks: number }>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const { comm, own } = statTicks(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      threads.set(Number(tid), { name: comm, ticks: own });
    } catch {
      // The thread ended between readdir and read: its last sample stays.
    }
  }
  return threads;
}

/**
 * Runs `command args…` as a child process, timing it from spawn to exit, sampling its peak
 * resident set (VmHWM in /proc/PID/status, Linux) every 25 ms, and taking its CPU time from this
 * process's reaped-children counters (cutime + cstime of /proc/self/stat, which the kernel adds
 * when the child is reaped), so a child's CPU is exact as long as no other child of this process
 * ends during its run. Run contenders one after another.
 * @throws Error when the child exits with a code not in `okExitCodes`, or (with `jsonReport`) prints no JSON
 */
export async function measureCommand(command: string, args: string[], options: MeasureOptions = {}): Promise<RunMeasurement> {
  const { env = {}, okExitCodes = [0], jsonReport = true, onStderrLine, sampleThreads: wantThreads = false } = options;
  // getconf runs before the first reading, so its CPU is not the contender's.
  const ticks = ticksPerSecond();
  const childrenTicksBefore = reapedChildrenTicks();
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-20_000);
    if (!onStderrLine) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onStderrLine(line, performance.now() - started);
  });
  const peakRss = samplePeakRss(child.pid);
  const lastThreads = new Map<number, { name: string; ticks: number }>();
  const threadTimer = wantThreads && child.pid !== undefined ? setInterval(() => sampleThreads(child.pid as number).forEach((value, tid) => lastThreads.set(tid, value)), 1000) : null;
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (threadTimer) clearInterval(threadTimer);
  const peakRssMb = peakRss.stop();
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = (reapedChildrenTicks() - childrenTicksBefore) / ticks;
  const name = [command, ...args].join(' ').slice(0, 200);
  if (code === null || !okExitCodes.includes(code)) throw new Error(`${name} exited ${code}: ${stderr.slice(-500)}`);
  let report: Record<string, unknown> = {};
  if (jsonReport) {
    const last = stdout.trim().split('\n').at(-1) ?? '';
    try {
      report = JSON.parse(last) as Record<string, unknown>;
    } catch {
      throw new Error(`${name} printed no JSON summary: ${stdout.slice(-300)} ${stderr.slice(-300)}`);
    }
  }
  const threads = [...lastThreads].map(([tid, { name: threadName, ticks: used }]) => ({ tid, name: threadName, main: tid === child.pid, cpuSeconds: used / ticks }));
  return { seconds, cpuSeconds, peakRssMb, report, threads };
}

/**
 * Runs `node args…` as a child process (see {@link measureCommand}) and parses the last stdout line as JSON.
 * @throws Error when the child exits non-zero or prints no JSON
 */
export async function measureNode(args: string[], env: NodeJS.ProcessEnv = {}, options: Omit<MeasureOptions, 'env'> = {}): Promise<RunMeasurement> {
  return measureCommand(process.execPath, args, { ...options, env });
}
