// Layering rules (VS Code's code-layering, STYLE.md convention 1), one `no-restricted-imports`
// zone per package. Each rule has a fixture in tests/lint/layering.test.ts that must fail.
//
//   shared    imports nothing of the project but itself (and zod); no Node, no electron
//   engine    shared/types and shared/url only; only engine/store/sqlite imports better-sqlite3;
//             schedule/, links/ and commit/ do not see store/sqlite (STORE_PORT_EXCEPTIONS aside);
//             the worker entry imports only fetch/, parse/, robots/, bodies/, warc/, extract/, schedule/politeness and the worker protocol (link-wire.ts and thread-name.ts too)
//   app       engine/index.ts (no deep imports) and shared
//   hosts     electron/, cli/, server/: app, engine/index.ts and shared (cli also server/, for
//             `crawlbench serve`); only electron/ imports electron
//   renderer  shared only; no Node
//   testweb   the fixture web: shared only (the engine never imports it)
// Production code never imports testweb/, tests/, e2e/ or bench/ (TESTWEB_HOSTS aside); tests
// (*.test.ts) may also import those and reach into the engine.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Engine files in schedule/ links/ commit/ allowed to see store/sqlite: none since the storage
 * ports (store/ports.ts); the crawl runner gets its stores injected (store/sqlite/crawl-stores.ts).
 * A new entry here needs a reason.
 */
const STORE_PORT_EXCEPTIONS = [];
/** The `crawlbench testweb` command starts the fixture web: the one production file that imports testweb/. */
const TESTWEB_HOSTS = ['cli/commands/testweb.ts'];

// Bare built-in names are exact paths (a gitignore-style pattern 'url' would also match ../url/).
const bareBuiltins = ['fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'url', 'child_process', 'worker_threads', 'stream', 'zlib', 'dns', 'util', 'events'];
const noElectron = { name: 'electron', message: 'Only electron/ (main and preload) may import electron.' };
const noSqlite = { name: 'better-sqlite3', message: 'Only engine/store/sqlite imports better-sqlite3; others get a Database through engine/index.ts.' };
const noBuiltins = (message) => ({ paths: bareBuiltins.map((name) => ({ name, message })), patterns: [{ group: ['node:*'], message }] });

/**
 * A relative import that climbs to the repository root (`depth` folders up) and names a folder
 * other than `allowed` (regex fragments matched right after the root, e.g. 'shared/').
 */
const rootOutside = (depth, allowed, message) => ({ regex: `^(?:\\.\\./){${depth}}(?!${allowed.join('|')})`, message });

/**
 * Zones: files (globs), ignores, and the restrictions of a file `depth` folders below the root
 * (its imports climb that many `../` to reach the root); `test` is true for *.test.ts.
 * Later zones override earlier ones for the files they match, so each carries its full rule set.
 */
const engineBase = (depth, test) => ({
  paths: [noElectron],
  patterns: [rootOutside(depth, test ? ['shared/(?:types|url)(?:/|$)', 'tests/', 'testweb(?:/|$)'] : ['shared/(?:types|url)(?:/|$)'], 'The engine imports shared/types and shared/url only (never shared/ipc, app, the hosts, the renderer, testweb or tests).')],
});
const withEngine = (base, extra) => (depth, test) => {
  const rules = base(depth, test);
  const more = extra(depth, test);
  return { paths: [...rules.paths, ...(more.paths ?? [])], patterns: [...rules.patterns, ...(more.patterns ?? [])] };
};
const engineNoSqlite = withEngine(engineBase, () => ({ paths: [noSqlite] }));
const enginePorts = withEngine(engineNoSqlite, (depth) => ({
  // From engine/<folder>/…, the engine root is depth − 1 folders up.
  patterns: [{ regex: `^(?:\\.\\./){${depth - 1}}store/sqlite(?:/|$)`, message: 'schedule/, links/ and commit/ see store/ports only, not store/sqlite.' }],
}));
const workerEntry = withEngine(engineNoSqlite, () => ({
  // schedule/politeness is the one politeness formula (pure, imports nothing): robots.txt redirect hops wait by it too.
  // bodies/, warc/ and extract/ are what the worker makes of a body for the store, the WARC file and the extractors (pure, no store).
  // render/ renders a page in Chromium (issue 14 part 3), its requests through the worker's own fetcher.
  // thread-name names the worker's thread for process lists (nothing else).
  patterns: [{ regex: '^\\.(?!/protocol$|/link-wire$|/thread-name$|\\./(?:fetch|parse|robots|bodies|warc|extract|render)/|\\./schedule/politeness$)', message: 'The worker entry imports only fetch/, parse/, robots/, bodies/, warc/, extract/, render/, schedule/politeness, the worker protocol (with its link packing) and its thread name.' }],
}));

const zones = [
  {
    name: 'shared',
    files: ['shared/**/*.ts'],
    rules: (depth, test) => {
      const message = 'shared/ imports nothing of the project but itself (and zod).';
      const builtins = noBuiltins('shared/ runs in main, workers and the renderer: no Node built-ins.');
      return {
        paths: [noElectron, ...builtins.paths],
        // Tests may use any npm package (vitest, uuid); production code zod only.
        patterns: [...builtins.patterns, rootOutside(depth, test ? ['shared/', 'tests/'] : ['shared/'], message), ...(test ? [] : [{ regex: '^(?![./]|zod$)', message }])],
      };
    },
  },
  { name: 'engine', files: ['engine/**/*.{ts,mjs}'], rules: engineBase },
  { name: 'engine (not store/sqlite)', files: ['engine/**/*.{ts,mjs}'], ignores: ['engine/store/sqlite/**', ...STORE_PORT_EXCEPTIONS], rules: engineNoSqlite },
  { name: 'engine (schedule, links, commit)', files: ['engine/{schedule,links,commit}/**/*.ts'], ignores: STORE_PORT_EXCEPTIONS, rules: enginePorts },
  { name: 'engine worker entry', files: ['engine/worker/crawl-worker.ts'], rules: workerEntry },
  {
    name: 'app',
    files: ['app/**/*.ts'],
    rules: (depth, test) => ({
      paths: [noElectron, ...(test ? [] : [noSqlite])],
      patterns: [rootOutside(depth, test ? ['shared/', 'engine(?:/|$)', 'tests/', 'testweb(?:/|$)'] : ['shared/', 'engine(?:/index)?$'], 'app/ imports engine/index.ts (no deep imports) and shared/ only.')],
    }),
  },
  // `crawlbench serve` runs the browser-mode server: cli/ may import server/ (not the reverse).
  ...[
    ['electron', []],
    ['cli', ['server/']],
    ['server', []],
  ].map(([host, hosts]) => ({
    name: `host ${host}`,
    files: [`${host}/**/*.ts`],
    rules: (depth, test) => ({
      paths: [...(host === 'electron' ? [] : [noElectron]), ...(test ? [] : [noSqlite])],
      patterns: [rootOutside(depth, [...hosts, 'app/', 'shared/', ...(test ? ['engine(?:/|$)', 'tests/', 'testweb(?:/|$)'] : ['engine(?:/index)?$'])], 'A host imports app/, engine/index.ts and shared/ only.')],
    }),
  })),
  {
    name: 'testweb host (documented exception)',
    files: TESTWEB_HOSTS,
    rules: (depth) => ({ paths: [noElectron, noSqlite], patterns: [rootOutside(depth, ['server/', 'app/', 'shared/', 'engine(?:/index)?$', 'testweb(?:/index)?$'], 'The testweb command imports testweb/index.ts, app/, engine/index.ts and shared/ only.')] }),
  },
  {
    name: 'renderer',
    files: ['renderer/**/*.{ts,tsx}'],
    rules: (depth) => {
      const builtins = noBuiltins('The renderer talks to main over the IPC contract only: no Node built-ins.');
      return { paths: [noElectron, ...builtins.paths], patterns: [...builtins.patterns, rootOutside(depth, ['shared/'], 'The renderer imports shared/ only.')] };
    },
  },
  {
    name: 'testweb',
    files: ['testweb/**/*.ts'],
    rules: (depth) => ({ paths: [noElectron, noSqlite], patterns: [rootOutside(depth, ['shared/'], 'testweb/ imports shared/ only.')] }),
  },
  {
    name: 'tests, e2e, bench, scripts',
    files: ['e2e/**/*.ts', 'bench/**/*.ts', 'tests/**/*.ts', 'scripts/**/*.mjs', 'bin/**/*.mjs'],
    rules: () => ({ paths: [noElectron], patterns: [] }),
  },
];

/** One config per zone, file depth and kind (production or test): the rule's regexes count `../` exactly. */
function zoneConfigs() {
  const configs = [];
  for (const zone of zones) {
    for (let depth = 1; depth <= 8; depth += 1) {
      const depthGlob = `${'*/'.repeat(depth)}*`;
      for (const test of [false, true]) {
        configs.push({
          name: `layering: ${zone.name} (depth ${depth}${test ? ', tests' : ''})`,
          files: zone.files.map((glob) => (test ? [glob, depthGlob, '**/*.test.ts'] : [glob, depthGlob])),
          ignores: [...(zone.ignores ?? []), ...(test ? [] : ['**/*.test.ts'])],
          rules: { 'no-restricted-imports': ['error', zone.rules(depth, test)] },
        });
      }
    }
  }
  return configs;
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'native/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name=/^(only|skip)$/][callee.object.name=/^(it|test|describe)$/]", message: 'No .only/.skip: a skipped test needs a printed reason via a runtime check.' }],
    },
  },
  {
    // no-restricted-imports does not see import(): in production code a dynamic import stays in its folder.
    files: ['{shared,engine,app,electron,cli,server,renderer,testweb}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name=/^(only|skip)$/][callee.object.name=/^(it|test|describe)$/]", message: 'No .only/.skip: a skipped test needs a printed reason via a runtime check.' },
        { selector: 'ImportExpression[source.value=/^\\.\\.\\//]', message: 'A dynamic import may not leave its folder: the layering zones (no-restricted-imports) cannot check it.' },
      ],
    },
  },
  { files: ['shared/**/*.ts'], languageOptions: { globals: {} } },
  { files: ['renderer/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  ...zoneConfigs(),
);
