// `npm start`: the Electron app where it can launch; otherwise one plain line saying why, then the
// same workbench in browser mode (`crawlbench serve`), printing the URL to open.
// Flags after `--` (e.g. --resolve host=ip:port --closed) go to either.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const forceBrowser = args[0] === '--browser';
const passThrough = forceBrowser ? args.slice(1) : args;

function electronBinary() {
  try {
    const binary = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

function ensureBuilt() {
  if (fs.existsSync(path.join(root, 'out', 'renderer', 'index.html')) && fs.existsSync(path.join(root, 'out', 'main', 'index.js'))) return;
  console.log('crawlbench: building the app (electron-vite build)…');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const binary = electronBinary();
const display = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
ensureBuilt();
let child;
if (!forceBrowser && binary && display) {
  child = spawn(binary, [root, ...passThrough], { stdio: 'inherit' });
} else {
  if (!forceBrowser) {
    console.log(
      binary
        ? 'crawlbench: no display for the Electron window; serving the workbench in browser mode instead.'
        : 'crawlbench: the Electron binary is not installed (it could not be downloaded); serving the workbench in browser mode instead.',
    );
  }
  child = spawn(process.execPath, [path.join(root, 'bin', 'crawlbench.mjs'), 'serve', ...passThrough], { stdio: 'inherit' });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
