// Project install step (package.json "allowScripts" keeps electron's own postinstall from failing
// the whole install offline). Tries to fetch the Electron binary and to build better-sqlite3 for
// Electron's ABI; each failure is one line, and browser mode keeps working.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const electronDir = path.join(root, 'node_modules', 'electron');

if (process.env.CRAWLBENCH_SKIP_ELECTRON === '1') {
  console.log('crawlbench: CRAWLBENCH_SKIP_ELECTRON=1: desktop shell not installed; browser mode will be used.');
  process.exit(0);
}
if (!fs.existsSync(path.join(electronDir, 'install.js'))) process.exit(0);

const env = { ...process.env };
delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
const download = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { cwd: electronDir, env, encoding: 'utf8', timeout: 300_000 });
if (download.status !== 0) {
  const reason = `${download.stderr ?? ''}`.split('\n').find((line) => /error/i.test(line))?.trim() ?? `exit ${download.status}`;
  console.log(`crawlbench: Electron binary could not be downloaded (${reason.slice(0, 120)}): the desktop shell is unavailable; npm start will use browser mode.`);
  process.exit(0);
}
// Prints its own one-line outcome and exits 0 on failure (soft), so its status needs no check here.
spawnSync(process.execPath, [path.join(root, 'scripts', 'build-electron-sqlite.mjs')], { stdio: 'inherit', timeout: 600_000 });
