import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/**
 * The `resources/` folder (TLD lists, Public Suffix List snapshot): `CRAWLBENCH_RESOURCES` when set,
 * else Electron's packaged resources path, else the nearest `resources/` above this module
 * (source tree under tsx, or `out/main` after electron-vite build).
 * @throws Error when no resources folder can be found
 */
export function resourcesDir(): string {
  if (cached) return cached;
  const candidates: string[] = [];
  if (process.env['CRAWLBENCH_RESOURCES']) candidates.push(process.env['CRAWLBENCH_RESOURCES']);
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged) candidates.push(path.join(packaged, 'resources'));
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    candidates.push(path.join(dir, 'resources'));
    dir = path.dirname(dir);
  }
  for (const candidate of candidates) {
    if (fs.existsSync(path.join(candidate, 'tld'))) {
      cached = candidate;
      return candidate;
    }
  }
  throw new Error(`Crawlbench resources folder not found (looked in ${candidates.join(', ')})`);
}

/** The repository / app root: the folder holding `resources/`. */
export function appRoot(): string {
  return path.dirname(resourcesDir());
}
