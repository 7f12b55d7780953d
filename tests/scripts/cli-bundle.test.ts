// The CLI bundle's clean-up (scripts/cli-bundle.mjs): a build another process still runs stays,
// an unused one goes once it is a minute old. Works in a temporary folder, never in out/cli.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeUnusedBuilds } from '../../scripts/cli-bundle.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A build folder with an entry file, `ageMs` old, marked by `pids`. */
function build(root: string, name: string, ageMs: number, pids: number[] = []): void {
  const folder = path.join(root, name);
  fs.mkdirSync(path.join(folder, 'users'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'index.js'), '');
  for (const pid of pids) fs.writeFileSync(path.join(folder, 'users', String(pid)), '');
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(folder, when, when);
}

describe('removeUnusedBuilds', () => {
  it('keeps the current build, builds a live process uses and recent ones; removes old unused ones and those whose users all ended', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-builds-'));
    roots.push(root);
    // The pid of a process that has ended (spawnSync waits for it).
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    const day = 24 * 60 * 60 * 1000;
    build(root, 'b-current', day);
    build(root, 'b-used', day, [process.pid]);
    build(root, 'b-used-and-ended', day, [ended, process.pid]);
    build(root, 'b-ended', day, [ended]);
    build(root, 'b-unused', day);
    build(root, 'b-recent', 1_000);
    fs.writeFileSync(path.join(root, 'current.json'), '{}');
    removeUnusedBuilds(root, 'b-current');
    expect(fs.readdirSync(root).sort()).toEqual(['b-current', 'b-recent', 'b-used', 'b-used-and-ended', 'current.json']);
    // The ended process's mark is cleared; the live one's stays.
    expect(fs.readdirSync(path.join(root, 'b-used-and-ended', 'users'))).toEqual([String(process.pid)]);
  });
});
