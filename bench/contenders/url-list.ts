/**
 * The URL list the fetch floors read, and where they send it: a file of URLs, one a line; with a
 * connect address (`127.0.0.1:PORT`), each URL goes to that address with its own host in the Host
 * header, as a crawler with `--resolve` would send it (the synthetic web serves hundreds of hosts
 * on one port).
 */
import fs from 'node:fs';

/** One request to make: the URL to connect to and the Host header to send (null: the URL's own). */
export interface ListedRequest {
  url: string;
  host: string | null;
  /** The URL as listed: the page's own URL (its links resolve against it). */
  pageUrl: string;
}

/**
 * Reads `listFile` (URLs, one a line) into requests, rewritten to `connectAddress` when given.
 * @throws Error when the file cannot be read, or a line is not an http:// URL
 * @example readUrlList(file, '127.0.0.1:8080') // [{ url: 'http://127.0.0.1:8080/p/7', host: 'h3.synthetic.test', pageUrl: 'http://h3.synthetic.test/p/7' }, …]
 */
export function readUrlList(listFile: string, connectAddress?: string): ListedRequest[] {
  return fs
    .readFileSync(listFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      if (!connectAddress) return { url: line, host: null, pageUrl: line };
      const url = new URL(line);
      if (url.protocol !== 'http:') throw new Error(`not an http:// URL: ${line}`);
      return { url: `http://${connectAddress}${url.pathname}${url.search}`, host: url.host, pageUrl: line };
    });
}
