/**
 * Reads the public conformance vectors kept in tests/conformance/ (origins and licences in its
 * README). A missing file throws, so a conformance test fails instead of skipping.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The repository's copy of the conformance vectors. */
export const CONFORMANCE_DIR = path.resolve(import.meta.dirname, '../conformance');

/** The repository root. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Reads and parses one JSON file of the conformance folder.
 * @throws Error naming the missing path when the folder or file is absent
 */
export function readConformanceJson<T>(relativePath: string): T {
  return JSON.parse(readConformanceText(relativePath)) as T;
}

/**
 * Reads one text file of the conformance folder.
 * @throws Error naming the missing path when the folder or file is absent
 */
export function readConformanceText(relativePath: string): string {
  const file = path.join(CONFORMANCE_DIR, relativePath);
  if (!fs.existsSync(file)) throw new Error(`Conformance data missing: ${file} (see tests/conformance/README.md)`);
  return fs.readFileSync(file, 'utf8');
}
