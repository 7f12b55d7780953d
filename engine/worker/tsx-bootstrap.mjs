// Loads a TypeScript worker entry through tsx, for runs from source (CLI, tests). The built app
// runs the bundled crawl-worker.js directly and never loads this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
