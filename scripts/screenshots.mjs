// `npm run screenshots`: refreshes the README's images in e2e/screenshots by running the
// end-to-end flows with CRAWLBENCH_SCREENSHOTS pointed there. `npm test` writes its screenshots
// to test-results/screenshots instead, so a test run never changes a tracked file.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '-c', 'vitest.e2e.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CRAWLBENCH_SCREENSHOTS: path.join(root, 'e2e', 'screenshots') },
});
process.exit(run.status ?? 1);
