/**
 * Path of the bundled CLI entry (`index.js`, with `crawl-worker.js` beside it), building it first
 * when missing or stale (see cli-bundle.mjs).
 * @throws Error when esbuild fails
 */
export function cliBundle(): Promise<string>;
