#!/usr/bin/env node
// Runs the Crawlbench CLI from its TypeScript source through tsx (no build step needed).
import { register } from 'tsx/esm/api';

// A reader that stops early (`crawlbench normalize | head`) closes the pipe: exit quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

register();
const { main } = await import('../electron/main/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
