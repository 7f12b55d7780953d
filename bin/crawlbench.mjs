#!/usr/bin/env node
// Runs the Crawlbench CLI: the esbuild bundle of its sources (built on first use and whenever a
// source changed; see scripts/cli-bundle.mjs), or, with CRAWLBENCH_FROM_SOURCE=1 or when the
// bundle cannot be built, the TypeScript source through tsx.
import { pathToFileURL } from 'node:url';

// A reader that stops early (`crawlbench export … | head -1`) closes the pipe: exit quietly (0,
// the reader has what it wanted). Any other write error on stdout or stderr (ENOSPC from
// /dev/full, EIO) is one line on stderr, if stderr still takes it, and exit code 1: never a stack trace.
for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    if (name === 'stdout') {
      try {
        process.stderr.write(`crawlbench: cannot write to stdout: ${error.message.split('\n')[0]}\n`);
      } catch {
        // stderr is gone too: the exit code says it.
      }
    }
    process.exit(1);
  });
}

async function loadCli() {
  if (process.env.CRAWLBENCH_FROM_SOURCE !== '1') {
    try {
      const { useCliBundle } = await import('../scripts/cli-bundle.mjs');
      return await import(pathToFileURL(await useCliBundle()).href);
    } catch (error) {
      console.error(`crawlbench: running from source through tsx (the CLI bundle could not be built: ${error.message.split('\n')[0]})`);
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('../cli/index.ts');
}

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
