#!/usr/bin/env node
// Runs the Crawlbench CLI from its TypeScript source through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../electron/main/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
