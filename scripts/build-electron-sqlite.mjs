// Builds better-sqlite3 for Electron's ABI into native/electron/better_sqlite3.node, leaving the
// package's own (Node ABI) build in place for the CLI, browser mode and tests. The Electron app
// loads this file through better-sqlite3's `nativeBinding` option (electron/main/index.ts).
// Needs Electron's headers (a download). Without --required, a failure is one line and exit 0.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const required = process.argv.includes('--required');
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const fail = (message) => {
  console.log(`crawlbench: Electron build of better-sqlite3 not made (${message}); the desktop app needs it, browser mode does not.`);
  process.exit(required ? 1 : 0);
};

const electronVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const source = path.join(root, 'node_modules', 'better-sqlite3');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-sqlite-electron-'));
fs.cpSync(source, work, { recursive: true, filter: (file) => !file.includes(`${path.sep}build${path.sep}`) });
const nodeGyp = process.env.npm_config_node_gyp ?? path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
if (!fs.existsSync(nodeGyp)) fail(`node-gyp not found at ${nodeGyp}`);
const result = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'], {
  cwd: work,
  encoding: 'utf8',
  timeout: 600_000,
  env: { ...process.env, npm_config_nodedir: '' },
});
if (result.status !== 0) fail((result.stderr ?? '').split('\n').filter(Boolean).slice(-1)[0] ?? `exit ${result.status}`);
const target = path.join(root, 'native', 'electron');
fs.mkdirSync(target, { recursive: true });
fs.copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), path.join(target, 'better_sqlite3.node'));
fs.rmSync(work, { recursive: true, force: true });
console.log(`crawlbench: built better-sqlite3 for Electron ${electronVersion} into native/electron/`);
