// The layering zones of eslint.config.js, each checked both ways: a forbidden import placed at a
// virtual path in its zone must be reported, and an allowed one must not (so a zone that
// silently stopped matching its files fails here, not in review).
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** [virtual file, import specifier] */
type Fixture = [file: string, specifier: string];

const forbidden: Record<string, Fixture[]> = {
  'shared imports nothing of the project but itself, and no Node or electron': [
    ['shared/url/fixture.ts', '../../engine'],
    ['shared/url/fixture.ts', '../../app/services/app-services'],
    ['shared/types/fixture.ts', 'node:fs'],
    ['shared/types/fixture.ts', 'electron'],
    ['shared/types/fixture.ts', 'uuid'],
  ],
  'the engine imports shared/types and shared/url only': [
    ['engine/links/fixture.ts', '../../shared/ipc/views'],
    ['engine/links/fixture.ts', '../../shared/ipc'],
    ['engine/fetch/fixture.ts', '../../app/services/crawl-service'],
    ['engine/fetch/fixture.ts', '../../cli/io'],
    ['engine/fetch/fixture.ts', '../../server/browser-server'],
    ['engine/fetch/fixture.ts', '../../electron/main/window'],
    ['engine/fetch/fixture.ts', 'electron'],
    ['engine/index.ts', '../app/services/app-services'],
    ['engine/store/sqlite/queries/fixture.ts', '../../../../shared/ipc/views'],
  ],
  'only engine/store/sqlite imports better-sqlite3': [
    ['engine/fetch/fixture.ts', 'better-sqlite3'],
    ['engine/dedupe/fixture.ts', 'better-sqlite3'],
    ['engine/index.ts', 'better-sqlite3'],
  ],
  'schedule, links and commit do not see store/sqlite': [
    ['engine/schedule/fixture.ts', '../store/sqlite/frontier'],
    ['engine/links/fixture.ts', '../store/sqlite/crawl-repository'],
    ['engine/commit/fixture.ts', '../store/sqlite/connection'],
    ['engine/schedule/crawl-runner.ts', '../store/sqlite/frontier'],
    ['engine/schedule/crawl-runner.ts', '../store/sqlite/crawl-stores'],
    ['engine/schedule/crawl-runner.ts', 'better-sqlite3'],
    ['engine/commit/result-committer.ts', '../store/sqlite/crawl-repository'],
  ],
  'the worker entry imports only fetch, parse, robots and the worker protocol': [
    ['engine/worker/crawl-worker.ts', '../schedule/crawl-runner'],
    ['engine/worker/crawl-worker.ts', '../schedule/politeness-extra'],
    ['engine/worker/crawl-worker.ts', '../store/sqlite/connection'],
    ['engine/worker/crawl-worker.ts', '../store/sqlite/body-rows'],
    ['engine/worker/crawl-worker.ts', './worker-pool'],
    ['engine/worker/crawl-worker.ts', '../../shared/types/crawl'],
  ],
  'app imports engine/index.ts (no deep imports) and shared': [
    ['app/services/fixture.ts', '../../engine/store/sqlite/connection'],
    ['app/services/fixture.ts', '../../engine/schedule/crawl-runner'],
    ['app/services/fixture.ts', '../../cli/io'],
    ['app/services/fixture.ts', '../../server/browser-server'],
    ['app/services/fixture.ts', '../../renderer/src/store'],
    ['app/services/fixture.ts', 'better-sqlite3'],
    ['app/services/fixture.ts', 'electron'],
  ],
  'the hosts import app, engine/index.ts and shared; only electron/ imports electron': [
    ['cli/commands/fixture.ts', '../../engine/fetch/dns'],
    ['cli/commands/fixture.ts', 'electron'],
    ['server/fixture.ts', '../cli/io'],
    ['server/fixture.ts', '../engine/store/sqlite/connection'],
    ['server/fixture.ts', 'electron'],
    ['electron/main/fixture.ts', '../../engine/store/sqlite/connection'],
    ['electron/main/fixture.ts', '../../cli/index'],
    ['electron/main/fixture.ts', '../../renderer/src/store'],
  ],
  'the renderer imports shared only, and no Node': [
    ['renderer/src/features/crawl/fixture.ts', '../../../../engine'],
    ['renderer/src/features/crawl/fixture.ts', '../../../../app/services/app-services'],
    ['renderer/src/features/crawl/fixture.ts', 'node:fs'],
    ['renderer/src/features/crawl/fixture.ts', 'electron'],
  ],
  'production code never imports testweb, tests, e2e or bench': [
    ['engine/fetch/fixture.ts', '../../testweb'],
    ['engine/robots/fixture.ts', '../../tests/url/conformance'],
    ['app/services/fixture.ts', '../../testweb/fixture-server'],
    ['cli/commands/fixture.ts', '../../testweb'],
    ['cli/commands/testweb.ts', '../../e2e/helpers/serve'],
    ['server/fixture.ts', '../bench/measure'],
    ['electron/main/fixture.ts', '../../e2e/helpers/serve'],
    ['testweb/fixture.ts', '../engine'],
  ],
};

const allowed: Record<string, Fixture[]> = {
  'shared imports itself and zod': [
    ['shared/url/fixture.ts', '../types/crawl'],
    ['shared/ipc/fixture.ts', 'zod'],
    ['shared/url/fixture.test.ts', 'uuid'],
  ],
  'the engine imports shared/types, shared/url and itself': [
    ['engine/links/fixture.ts', '../../shared/types/crawl'],
    ['engine/robots/fixture.ts', '../../shared/url'],
    ['engine/store/sqlite/queries/fixture.ts', '../../../../shared/types/rows'],
    ['engine/store/sqlite/fixture.ts', 'better-sqlite3'],
    ['engine/schedule/fixture.ts', '../store/ports'],
    ['engine/schedule/fixture.ts', '../links/link-rules'],
    ['engine/index.ts', './store/sqlite/connection'],
  ],
  'schedule, links and commit see store/ports': [
    ['engine/schedule/crawl-runner.ts', '../store/ports'],
    ['engine/commit/result-committer.ts', '../store/ports'],
    ['engine/links/link-pipeline.ts', '../store/ports'],
  ],
  'the worker entry imports fetch, parse, robots, bodies, warc, extract, the politeness formula and the protocol': [
    ['engine/worker/crawl-worker.ts', '../fetch/fetcher'],
    ['engine/worker/crawl-worker.ts', '../extract/extractors'],
    ['engine/worker/crawl-worker.ts', '../bodies/stored-body'],
    ['engine/worker/crawl-worker.ts', '../warc/warc-records'],
    ['engine/worker/crawl-worker.ts', '../schedule/politeness'],
    ['engine/worker/crawl-worker.ts', '../parse/page-processor'],
    ['engine/worker/crawl-worker.ts', '../robots/robots'],
    ['engine/worker/crawl-worker.ts', './protocol'],
  ],
  'app imports engine/index.ts and shared': [
    ['app/services/fixture.ts', '../../engine'],
    ['app/services/fixture.ts', '../../engine/index'],
    ['app/services/fixture.ts', '../../shared/ipc/views'],
    ['app/ipc/fixture.ts', '../services/app-services'],
  ],
  'the hosts import app, engine/index.ts and shared': [
    ['cli/commands/fixture.ts', '../../engine'],
    ['cli/commands/fixture.ts', '../../app/services/crawl-service'],
    ['cli/commands/fixture.ts', '../../server/browser-server'],
    ['server/fixture.ts', '../app/services/app-services'],
    ['electron/main/fixture.ts', 'electron'],
    ['electron/main/fixture.ts', '../../engine'],
    ['electron/preload/fixture.ts', '../../shared/ipc/channels'],
  ],
  'the testweb command is the one production host of testweb/': [['cli/commands/testweb.ts', '../../testweb']],
  'the renderer imports shared and its own folders': [
    ['renderer/src/features/crawl/fixture.ts', '../../../../shared/ipc/views'],
    ['renderer/src/features/crawl/fixture.ts', '../../app/Tabs'],
  ],
  'tests may reach engine internals, tests/ and testweb/': [
    ['engine/robots/fixture.test.ts', '../../tests/url/conformance'],
    ['app/services/fixture.test.ts', '../../engine/store/sqlite/queries/test-rows'],
    ['cli/commands/fixture.test.ts', '../../testweb'],
    ['tests/integration/fixture.ts', '../../engine/store/sqlite/connection'],
  ],
};

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: REPO_ROOT });
});

/** The layering messages ESLint reports for `import '<specifier>';` placed at `file`. */
async function layeringMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

describe('layering zones refuse', () => {
  for (const [rule, fixtures] of Object.entries(forbidden)) {
    it.each(fixtures)(`${rule}: %s importing %s`, async (file, specifier) => {
      expect(await layeringMessages(file, `import '${specifier}';\n`)).not.toEqual([]);
    });
  }
  it('a dynamic import that leaves its folder in production code', async () => {
    expect(await layeringMessages('engine/fetch/fixture.ts', `export const load = () => import('../../app/services/app-services');\n`)).toEqual([
      expect.stringContaining('A dynamic import may not leave its folder'),
    ]);
  });
});

describe('layering zones allow', () => {
  for (const [rule, fixtures] of Object.entries(allowed)) {
    it.each(fixtures)(`${rule}: %s importing %s`, async (file, specifier) => {
      expect(await layeringMessages(file, `import '${specifier}';\n`)).toEqual([]);
    });
  }
});
