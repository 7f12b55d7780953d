/**
 * Reads the shared conformance vectors (/work/shared/conformance, beside the repository). A
 * missing folder or file throws, so a conformance test fails instead of skipping.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The shared conformance folder: ../shared/conformance next to the repository root. */
export const CONFORMANCE_DIR = path.resolve(import.meta.dirname, '../../../shared/conformance');

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
  if (!fs.existsSync(file)) throw new Error(`Conformance data missing: ${file} (expected the shared/ folder beside the repository)`);
  return fs.readFileSync(file, 'utf8');
}
