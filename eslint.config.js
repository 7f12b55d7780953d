// Layering rules (VS Code's code-layering, STYLE.md convention 1): shared/ and renderer/ may not
// import electron or Node built-ins; worker and headless main code may not import electron.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Bare built-in names are exact paths (a gitignore-style pattern 'url' would also match ../url/).
const bareBuiltins = ['fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'url', 'child_process', 'worker_threads', 'stream', 'zlib', 'dns', 'util', 'events'];
const builtinRule = (message) => ({
  paths: [noElectron, ...bareBuiltins.map((name) => ({ name, message }))],
  patterns: [{ group: ['node:*'], message }],
});
const noElectron = { name: 'electron', message: 'Only the Electron shell (electron/main/index.ts, window.ts, ipc/electron-ipc.ts, electron/preload) may import electron.' };

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
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', builtinRule('shared/ runs in main, workers and the renderer: no Node built-ins.')],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', builtinRule('The renderer talks to main over the IPC contract only: no Node built-ins.')],
    },
  },
  {
    files: ['electron/main/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts', 'tests/**/*.ts', 'scripts/**/*.mjs', 'bin/**/*.mjs'],
    ignores: ['electron/main/index.ts', 'electron/main/window.ts', 'electron/main/ipc/electron-ipc.ts', 'e2e/electron.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
);
