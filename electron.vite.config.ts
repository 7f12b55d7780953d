import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// Three builds: main (with the crawl worker and the store writer as entries, so worker-pool.ts and writer-client.ts find
// `crawl-worker.js` and `store-writer.js` beside the bundle), a sandboxed CommonJS preload, and the React renderer.
export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'electron/main/index.ts'),
          'crawl-worker': resolve(import.meta.dirname, 'engine/worker/crawl-worker.ts'),
          'store-writer': resolve(import.meta.dirname, 'engine/store/sqlite/writer-thread.ts'),
        },
        // Chunks beside the entries: modules find their worker entries as ./crawl-worker.js and ./store-writer.js.
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react()],
    build: {
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'renderer/index.html') } },
    },
  },
});
