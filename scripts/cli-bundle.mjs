// The CLI as plain JavaScript: cli/index.ts and the crawl worker bundled by esbuild
// into out/cli/<build>/. bin/crawlbench.mjs runs it, so neither the
// CLI nor its worker threads pay for TypeScript loader hooks (tsx starts one hooks thread per
// thread, ~0.5 s of CPU each). A build is reused while every source file it was made from is
// unchanged (size and mtime), and rebuilt (~0.2 s) when one changed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outRoot = path.join(root, 'out', 'cli');
const stampFile = path.join(outRoot, 'current.json');
const ENTRY_POINTS = { index: 'cli/index.ts', 'crawl-worker': 'engine/worker/crawl-worker.ts', 'store-writer': 'engine/store/sqlite/writer-thread.ts' };
/**
 * A build that is not the current one is removed once no live process uses it (see
 * {@link useCliBundle}) and it is this old: the margin covers a process that found a build and has
 * not marked it yet (it checks the build is still there after marking).
 */
const UNUSED_BUILD_GRACE_MS = 60 * 1000;
/** The folder in a build holding one empty file per process using it, named by its pid. */
const USERS_FOLDER = 'users';

function fileStamp(relative) {
  const stat = fs.statSync(path.join(root, relative));
  return `${stat.size}:${stat.mtimeMs}`;
}

/** The current build when every input it lists is unchanged, else null. */
function currentBuild() {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  } catch {
    return null;
  }
  try {
    for (const [relative, recorded] of Object.entries(stamp.inputs)) if (fileStamp(relative) !== recorded) return null;
  } catch {
    return null; // an input was deleted
  }
  const entry = path.join(outRoot, stamp.dir, 'index.js');
  return fs.existsSync(entry) ? entry : null;
}

/**
 * Path of the bundled CLI entry (`index.js`, with `crawl-worker.js` beside it), building it first
 * when missing or stale. Concurrent callers may both build; each writes its own folder and the
 * stamp is replaced atomically, so a reader always sees a complete build.
 * @returns absolute path of the entry module
 * @throws Error when esbuild fails (e.g. a syntax error in the sources)
 */
export async function cliBundle() {
  const existing = currentBuild();
  if (existing) return existing;
  const { build } = await import('esbuild');
  const dir = `b-${Date.now().toString(36)}-${crypto.randomBytes(4).toString('hex')}`;
  const outdir = path.join(outRoot, dir);
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRY_POINTS,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // npm packages are bundled too (a worker loads undici's ~100 CommonJS files in ~110 ms, the
    // bundled copy in a fraction), except native better-sqlite3, ws's optional native helpers and
    // playwright-core (it reads its own files at run time; a worker imports it only to render JavaScript).
    external: ['better-sqlite3', 'bufferutil', 'utf-8-validate', 'playwright-core'],
    // Bundled CommonJS packages call require(): give the ES module output one.
    banner: { js: "import { createRequire as __crawlbenchRequire } from 'node:module'; const require = __crawlbenchRequire(import.meta.url);" },
    // Shared code and lazily loaded commands become chunks, so a command loads only the packages it uses.
    splitting: true,
    metafile: true,
    // Without comments and indentation. Every thread that loads a chunk (the scheduler, each crawl
    // worker, the store writer) keeps its source in its heap, and a comment with one character
    // past Latin-1 (undici's "’") made V8 keep the 4 MB package chunk as UTF-16: 20.6 MB of heap
    // after loading the chunks, 13.6 MB minified. Names stay (profiles and stack traces read the
    // same; lines become columns). CRAWLBENCH_FROM_SOURCE=1 runs the sources as written.
    minifyWhitespace: true,
    logLevel: 'silent',
  });
  // Bundled packages change only through npm, which rewrites package-lock.json: that one file
  // stands for all of node_modules.
  const sources = Object.keys(result.metafile.inputs).filter((relative) => !relative.split(/[\\/]/).includes('node_modules'));
  const inputs = {};
  for (const relative of [...sources, 'package-lock.json', path.relative(root, fileURLToPath(import.meta.url))]) inputs[relative] = fileStamp(relative);
  const temporary = `${stampFile}.${dir}`;
  fs.writeFileSync(temporary, JSON.stringify({ dir, inputs }));
  fs.renameSync(temporary, stampFile);
  removeUnusedBuilds(outRoot, dir);
  return path.join(outdir, 'index.js');
}

/**
 * Marks the build of `entry` as used by this process until it exits: an empty file named by the
 * pid in the build's users folder. Its worker threads load their scripts from the build later
 * (a crashed worker is replaced), so another process's rebuild must not remove it meanwhile.
 * @returns false when the build was removed before the mark was made (find the current one again)
 */
function markInUse(entry) {
  const users = path.join(path.dirname(entry), USERS_FOLDER);
  const marker = path.join(users, String(process.pid));
  try {
    fs.mkdirSync(users, { recursive: true });
    fs.writeFileSync(marker, '');
  } catch {
    return false;
  }
  process.once('exit', () => fs.rmSync(marker, { force: true }));
  return fs.existsSync(entry);
}

/** Whether a live process marked the build in `folder` (markers of ended processes are removed). */
function inUse(folder) {
  const users = path.join(folder, USERS_FOLDER);
  let names;
  try {
    names = fs.readdirSync(users);
  } catch {
    return false;
  }
  let live = false;
  for (const name of names) {
    try {
      process.kill(Number(name), 0);
      live = true;
    } catch (error) {
      // EPERM: the process exists (another user's); ESRCH: it ended without removing its mark (killed).
      if (error.code === 'EPERM') live = true;
      else fs.rmSync(path.join(users, name), { force: true });
    }
  }
  return live;
}

/**
 * {@link cliBundle}, marked as used by this process until it exits, so no other process's rebuild
 * removes it while this one runs (bin/crawlbench.mjs runs the CLI through it).
 * @returns absolute path of the entry module
 */
export async function useCliBundle() {
  for (let attempt = 1; ; attempt += 1) {
    const entry = await cliBundle();
    if (markInUse(entry) || attempt === 3) return entry;
  }
}

/**
 * Removes the builds (`b-…` folders) in `buildsRoot` other than `keep` that no live process uses,
 * once UNUSED_BUILD_GRACE_MS old (folder mtime). Called after each build.
 */
export function removeUnusedBuilds(buildsRoot, keep) {
  for (const name of fs.readdirSync(buildsRoot)) {
    if (name === keep || !name.startsWith('b-')) continue;
    const folder = path.join(buildsRoot, name);
    try {
      if (Date.now() - fs.statSync(folder).mtimeMs > UNUSED_BUILD_GRACE_MS && !inUse(folder)) fs.rmSync(folder, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(path.relative(root, await cliBundle()));
}
