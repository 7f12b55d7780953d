// `npm test`: unit + integration tests, then end-to-end tests, each with a JSON report; ends with
// one line `N passed, N failed, N skipped` computed from those reports (CI reads that line).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const reports = path.join(root, 'test-results');
fs.mkdirSync(reports, { recursive: true });
// The hostile-input suite appends one line per case here (tests/hostile/report.ts).
const hostileReport = path.join(reports, 'hostile.txt');
fs.rmSync(hostileReport, { force: true });
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');

if (!fs.existsSync(path.join(root, 'out', 'renderer', 'index.html'))) {
  console.log('crawlbench: building the renderer for the end-to-end tests…');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const suites = [
  { name: 'unit and integration', args: ['run'], report: 'unit.json' },
  { name: 'end-to-end', args: ['run', '-c', 'vitest.e2e.config.ts'], report: 'e2e.json' },
];
let passed = 0;
let failed = 0;
let skipped = 0;
let crashed = false;
// Failed tests are named again at the end, beside the summary: a log cut to its tail still says what failed.
const failures = [];
for (const suite of suites) {
  const outputFile = path.join(reports, suite.report);
  fs.rmSync(outputFile, { force: true });
  console.log(`\n== ${suite.name} tests ==`);
  const run = spawnSync(process.execPath, [vitest, ...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`], { cwd: root, stdio: 'inherit' });
  if (!fs.existsSync(outputFile)) {
    console.log(`crawlbench: the ${suite.name} run wrote no report (exit ${run.status})`);
    crashed = true;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  // A file that fails to load counts no test but fails its suite.
  if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) crashed = true;
  if (run.status !== 0 && report.numFailedTests === 0) crashed = true;
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name);
    if (file.status === 'failed' && (file.assertionResults ?? []).every((test) => test.status !== 'failed')) {
      failures.push(`${relative}: ${firstLines(file.message ?? 'the file failed to load')}`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`${relative} > ${test.fullName}: ${firstLines((test.failureMessages ?? []).join('\n'))}`);
    }
  }
}
if (fs.existsSync(hostileReport)) console.log(`\n== hostile-input cases ==\n${fs.readFileSync(hostileReport, 'utf8').trimEnd()}`);
if (failures.length > 0) console.log(`\n== failed ==\n${failures.join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || crashed || passed === 0 ? 1 : 0);

/** The first lines of a failure message (at most 6 lines, 600 characters): enough to say what failed. */
function firstLines(message) {
  return message.split('\n').slice(0, 6).join('\n    ').slice(0, 600);
}
