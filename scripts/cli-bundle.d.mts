/**
 * Path of the bundled CLI entry (`index.js`, with `crawl-worker.js` beside it), building it first
 * when missing or stale (see cli-bundle.mjs).
 * @throws Error when esbuild fails
 */
export function cliBundle(): Promise<string>;

/**
 * {@link cliBundle}, marked as used by this process until it exits (a file named by its pid in the
 * build's `users/` folder), so another process's rebuild does not remove it while this one runs.
 * @throws Error when esbuild fails
 */
export function useCliBundle(): Promise<string>;

/**
 * Removes the builds (`b-…` folders) in `buildsRoot` other than `keep` that no live process uses
 * (no `users/<pid>` of a live process), once a minute old.
 */
export function removeUnusedBuilds(buildsRoot: string, keep: string): void;
