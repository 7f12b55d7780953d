/** `crawlbench crawl --list FILE`: the URL list read from a file, by the one URL-list parser. */
import fs from 'node:fs';
import { CodedError } from '../shared/types/result';
import { parseUrlList } from '../shared/url/url-list';

/**
 * Largest --list file read, bytes (64 MiB): four times the most seed text a crawl takes
 * (MAX_SEED_LIST_CHARS), room for comment lines; a bigger file is refused before it is read.
 */
export const MAX_URL_LIST_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a URL list file (UTF-8; one URL a line, `#` comment lines, see parseUrlList).
 * @param file a path, relative to the working directory
 * @returns the URLs in order
 * @throws CodedError URL_LIST_UNREADABLE (missing, a folder, unreadable, over MAX_URL_LIST_FILE_BYTES),
 *   INVALID_URL_LIST naming the first bad line
 */
export function readUrlListFile(file: string): string[] {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new CodedError('URL_LIST_UNREADABLE', `--list ${file}: not a file`);
    if (stat.size > MAX_URL_LIST_FILE_BYTES) throw new CodedError('URL_LIST_UNREADABLE', `--list ${file}: ${stat.size} bytes, more than the ${MAX_URL_LIST_FILE_BYTES / 1024 / 1024} MiB a list may take; split it into several crawls`);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof CodedError) throw error;
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CodedError('URL_LIST_UNREADABLE', `--list ${file}: ${reason}`);
  }
  const read = parseUrlList(text);
  if (!read.ok) throw new CodedError(read.error.code, `--list ${file}: ${read.error.message}`);
  return read.value;
}
