import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCrawlErrorCode } from '../shared/types/error-codes';

/** Every production source of the engine (tests and fixtures aside). */
function engineSources(dir = path.join(import.meta.dirname)): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return engineSources(file);
    return /\.(ts|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [file] : [];
  });
}

/**
 * Codes written in a source: `code: 'X'`, `CodedError('X'`, and template codes such as
 * `code: \`HTTP_${status}\`` (returned with the placeholder, to check as a family).
 */
function emittedCodes(source: string): string[] {
  const codes: string[] = [];
  for (const match of source.matchAll(/(?:\bcode:\s*|CodedError\(\s*)(['`])([A-Z][A-Z0-9_]*(?:\$\{[^}]*\}[A-Z0-9_]*)?)\1/g)) codes.push(match[2]!);
  return codes;
}

describe('the error-code union is exhaustive', () => {
  const found = new Map<string, string>();
  for (const file of engineSources()) {
    for (const code of emittedCodes(fs.readFileSync(file, 'utf8'))) found.set(code, path.relative(path.dirname(import.meta.dirname), file));
  }

  it('finds the codes (the scan itself works)', () => {
    expect(found.size).toBeGreaterThan(30);
    expect([...found.keys()]).toEqual(expect.arrayContaining(['DISK_FULL', 'TIMEOUT', 'UNSUPPORTED_ENCODING', 'HTTP_${page.status}', 'ROBOTS_HTTP_${result.status}']));
  });

  it('every code the engine emits is in CrawlErrorCode', () => {
    const missing = [...found].filter(([code]) => {
      // A template code is a family: check it with error statuses in place of the placeholder.
      if (code.includes('${')) return !['404', '503'].every((status) => isCrawlErrorCode(code.replace(/\$\{[^}]*\}/, status)));
      return !isCrawlErrorCode(code);
    });
    expect(missing.map(([code, file]) => `${code} (${file})`)).toEqual([]);
  });
});
